export * from './types';
export { parseMcpConfig, loadMcpConfig, loadMcpConfigSync, loadMcpConfigs, formatConfigError, inferHttpType } from './parse';
export { resolveServer, inputIdsUsedBy, parseEnvFile, UnresolvedInputError } from './resolve';
export { addServerEntry, addSandboxEntry, enableSandbox, serverNamesIn, uniqueServerName } from './edit';
export { SANDBOX_KEYS, type SandboxConfig, type SandboxSection, type SandboxListKey } from './sandbox';
