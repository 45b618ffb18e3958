// What the benchmarks measure, bundled by shipped.ts the way the extension ships it: the host's connection and
// file engine, and the MCP SDK client the bare baselines use (one copy of the SDK, built alike for both sides).
export { InMemoryEraCache, ServerConnection } from '../../src/core/connection';
export { checkFile, inlineLimitsFor, readCheckedFile } from '../../src/core/files';
export { Logger } from '../../src/core/log';
export { Client } from '@modelcontextprotocol/client';
export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
export { toResultView, KeptResults, KEPT_RESULT_LIMITS } from '../../src/core/results';
export { boundedAgentResultParts } from '../../src/core/agents';
