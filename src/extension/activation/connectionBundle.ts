// The MCP connection (the MCP SDK and zod, most of the extension's code) is a bundle of its own, dist/connection.js,
// required on first use so that activation parses only what it uses: scripts/build.mjs turns this `require` into
// `require('../connection.js')`. A plain require, not `import()`: the extension's bundle is compiled with a code
// cache (start.ts), and a script compiled that way has no loader for `import()`.
type ConnectionBundle = typeof import('../../core/connection/bundle.js');

let loaded: ConnectionBundle | undefined;

export function connectionBundle(): ConnectionBundle {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- its own bundle, loaded on first use
  return (loaded ??= require('../../core/connection/bundle.js') as ConnectionBundle);
}

/** The bundle when something has loaded it already: shutdown paths must not load it to find nothing to stop. */
export function loadedConnectionBundle(): ConnectionBundle | undefined {
  return loaded;
}
