export * from './types';
export { parseMcpConfig, loadMcpConfig, loadMcpConfigs, formatConfigError, inferHttpType } from './parse';
export { resolveServer, inputIdsUsedBy, parseEnvFile, UnresolvedInputError } from './resolve';
export { addServerEntry, serverNamesIn, uniqueServerName } from './edit';
