export { ServerConnection } from './serverConnection';
export * from './types';
export * from './errors';
export { type EraCache, InMemoryEraCache, eraCacheKey } from './eraCache';
export { Emitter, type Disposable } from './events';
export { StdioProcessTransport, STDIO_MAX_MESSAGE_BYTES, findExecutable, quoteForCmd, spawnPlan } from './stdioTransport';
