export * from './types';
export { LoopbackRedirect } from './loopback';
export { accountOf } from './account';
export { HostOAuthProvider, type HostOAuthProviderOptions, SIGN_IN_TIMEOUT_MS, redirectRegistered } from './provider';
export { authStoreKey, readAuthRecord, forgetServer, signInStatus, DEFAULT_CLIENT_METADATA_URL } from './records';
export { MemoryTokenStore, FileTokenStore, defaultTokenFile } from './stores';
