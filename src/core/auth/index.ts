export * from './types';
export { LoopbackRedirect } from './loopback';
export { accountOf } from './account';
export {
  HostOAuthProvider, type HostOAuthProviderOptions, authStoreKey, readAuthRecord, forgetServer, signInStatus, redirectRegistered,
  DEFAULT_CLIENT_METADATA_URL, SIGN_IN_TIMEOUT_MS,
} from './provider';
export { MemoryTokenStore, FileTokenStore, defaultTokenFile } from './stores';
