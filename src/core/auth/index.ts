export * from './types';
export { LoopbackRedirect } from './loopback';
export { accountOf } from './account';
export { HostOAuthProvider, type HostOAuthProviderOptions, SIGN_IN_TIMEOUT_MS, challengesDpop, describeDuration } from './provider';
export { redirectRegistered } from './redirects';
export { checkAuthorizationUrl, UnsafeAuthorizationUrlError } from './urls';
export { checkClientMetadataDocument, forgetClientMetadataVerdicts, MAX_CLIENT_METADATA_BYTES } from './clientMetadata';
export { authStoreKey, readAuthRecord, forgetServer, signInStatus } from './records';
export { MemoryTokenStore, FileTokenStore, defaultTokenFile } from './stores';
