export * from './types';
export { LoopbackRedirectReceiver } from './loopbackRedirectReceiver';
export { accountOf } from './tokenClaims';
export { HostOAuthClientProvider, type HostOAuthClientProviderOptions, SIGN_IN_TIMEOUT_MS, challengesDpop, describeDuration } from './hostOAuthClientProvider';
export { redirectRegistered } from './redirects';
export { checkAuthorizationUrl, UnsafeAuthorizationUrlError } from './urls';
export { checkClientMetadataDocument, forgetClientMetadataVerdicts, MAX_CLIENT_METADATA_BYTES } from './clientMetadata';
export { authStoreKey, readAuthRecord, forgetServer, signInStatus } from './records';
export { MemoryTokenStore, FileTokenStore, defaultTokenFile } from './stores';
