// Imported first by extension.ts so that the bundle evaluates it before any other module:
// activation time is measured from here.
export const moduleLoadedAt = performance.now();
