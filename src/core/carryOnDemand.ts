// The bundle and discovery modules for the extension, loaded on first use from the libraries bundle
// (src/core/libraries.ts, dist/libraries.js): activation parses neither. Types are imported from them directly.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use, see scripts/build.mjs
export const carryModules = () => require('./libraries') as Pick<typeof import('./libraries'), 'bundles' | 'discovery'>;
