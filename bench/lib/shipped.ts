// The host and the SDK as they ship: shippedEntry.ts bundled and minified like dist/ (scripts/build.mjs), then
// required. Loading the sources through tsx instead would time tsx's additions too (a `__name` call for every
// function it creates, which the production build does not have), on the host's side only. A bench's child
// processes reuse its build (MCP_HOST_BENCH_SHIPPED).
import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function build(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-bench-shipped-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, 'shipped.js');
  buildSync({
    entryPoints: [join(__dirname, 'shippedEntry.ts')],
    outfile,
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  return (process.env.MCP_HOST_BENCH_SHIPPED = outfile);
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- built just now, or by the parent bench
const shipped = require(process.env.MCP_HOST_BENCH_SHIPPED ?? build()) as typeof import('./shippedEntry');
export const {
  InMemoryEraCache,
  ServerConnection,
  checkFile,
  inlineLimitsFor,
  readCheckedFile,
  Logger,
  Client,
  StdioClientTransport,
  toResultView,
  KeptResults,
  KEPT_RESULT_LIMITS,
  boundedAgentResultParts,
} = shipped;
export type ServerConnection = InstanceType<typeof ServerConnection>;
export type StdioClientTransport = InstanceType<typeof StdioClientTransport>;
