// The type tables are large (mime-types carries all of mime-db; magic-bytes.js builds its signature
// tree when loaded), so they are loaded on first use (core/libraries): the extension's activation does not pay for them.
/* eslint-disable @typescript-eslint/no-require-imports -- a synchronous load on first use */

type Libraries = typeof import('../libraries');
let libraries: Libraries | undefined;
const loaded = () => (libraries ??= require('../libraries') as Libraries);

/** Extension ↔ MIME type tables (`mime-types`). */
export function mimeTable(): Libraries['mimeTypes'] {
  return loaded().mimeTypes;
}

/** File signatures (`magic-bytes.js`). */
export function signatureTable(): Libraries['magicBytes'] {
  return loaded().magicBytes;
}
