// The large libraries the host needs only once a form, a schema or a file is at hand: mime-types (all of
// mime-db), magic-bytes.js (its signature tree), Ajv with its formats and the linear-time pattern engine
// (re2js) it runs server patterns on, and the glob and .gitignore matchers
// that judge a path an agent gives. Each user requires this module on first
// use. The extension's build makes it a bundle of its own (dist/libraries.js, see scripts/build.mjs), so
// activation neither parses nor runs them.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS packages, loaded as they are */

export const mimeTypes = require('mime-types') as typeof import('mime-types');
export const magicBytes = require('magic-bytes.js') as typeof import('magic-bytes.js');
export const Ajv2020 = (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default;
export const AjvDraft07 = (require('ajv') as typeof import('ajv')).default;
export const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
export const ignore = (require('ignore') as { default: typeof import('ignore').default }).default;
export const minimatch = (require('minimatch') as typeof import('minimatch')).minimatch;
export const RE2JS = (require('re2js') as typeof import('re2js')).RE2JS;
// MCP Bundles' manifest schema (zod, the bundle format's own) and the TOML reader for Codex's config.
export const mcpbSchemas = require('@anthropic-ai/mcpb/schemas') as typeof import('@anthropic-ai/mcpb/schemas', { with: { 'resolution-mode': 'import' } });
export const toml = require('smol-toml') as typeof import('smol-toml', { with: { 'resolution-mode': 'import' } });
// The readers of MCP Bundles and of other apps' server configs, with the import and export of servers: needed only
// when a bundle is installed or a server carried in or out (the extension reaches them through carryOnDemand.ts).
export const bundles = require('./bundles') as typeof import('./bundles');
export const discovery = require('./discovery') as typeof import('./discovery');
