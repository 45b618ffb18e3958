// The type tables are large (mime-types carries all of mime-db; magic-bytes.js builds its signature
// tree when loaded), so each is loaded on first use: the extension's activation does not pay for them.
/* eslint-disable @typescript-eslint/no-require-imports -- synchronous loads on first use */

let mimeTypes: typeof import('mime-types') | undefined;
let magicBytes: typeof import('magic-bytes.js') | undefined;

/** Extension ↔ MIME type tables (`mime-types`). */
export function mimeTable(): typeof import('mime-types') {
  return (mimeTypes ??= require('mime-types') as typeof import('mime-types'));
}

/** File signatures (`magic-bytes.js`). */
export function signatureTable(): typeof import('magic-bytes.js') {
  return (magicBytes ??= require('magic-bytes.js') as typeof import('magic-bytes.js'));
}
