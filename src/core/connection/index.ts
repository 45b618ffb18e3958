export { LIST_MAX_PAGES, ServerConnection, type ServerLogMessage, type ToolCallOptions } from './serverConnection';
export * from './serverLog';
export * from './types';
export { CallCancelledError, CallTimeoutError, NotRunningError, ServerCrashedError, ServerRequestError, ServerStartError } from '../errors';
export { type EraCache, type EraCacheEntry, InMemoryEraCache, eraCacheKey, priorFrom, LEGACY_ERA_MAX_AGE_MS } from './eraCache';
export { Emitter, type IDisposable } from '../events';
export {
  StdioProcessTransport,
  STDIO_MAX_MESSAGE_BYTES,
  SHUTDOWN_GRACE_MS,
  stopAllStdioServers,
  killRemainingStdioServers,
  findExecutable,
  quoteForCmd,
  spawnPlan,
} from './stdioTransport';
