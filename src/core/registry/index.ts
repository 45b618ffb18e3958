export * from './types';
export { DEFAULT_REGISTRY_URL, REGISTRY_LIMITS, RegistryClient, RegistryError, RegistryPager, registryBaseUrl, type RegistryClientOptions } from './client';
export { parseServerJson, parseServerList, parseServerResponse, SERVER_JSON_LIMITS, ServerJsonError } from './parse';
export {
  describeEntry,
  installKinds,
  installTargets,
  InstallError,
  planInstall,
  suggestedServerName,
  type InstallField,
  type InstallKind,
  type InstallPlan,
  type InstallTarget,
  type McpJsonEntry,
} from './install';
