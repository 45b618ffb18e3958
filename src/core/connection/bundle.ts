// The entry of the connection bundle (dist/connection.js), which the extension requires on the first server start
// (src/extension/activation/connectionBundle.ts): the connection, and what must come from the same copy of the code.
export { ServerConnection } from './serverConnection';
// Resource templates are expanded with the SDK's RFC 6570 implementation, which this bundle carries.
export { UriTemplate } from '@modelcontextprotocol/client';
// The process-wide list of stdio servers: a second copy of stdioTransport would hold a second, empty list.
export { killRemainingStdioServers, stopAllStdioServers } from './stdioTransport';
// The extension's sign-in provider runs the SDK's OAuth client, so activation need not load the SDK.
export { HostOAuthClientProvider } from '../auth/hostOAuthClientProvider';
