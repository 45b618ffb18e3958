// dev.debug { "type": "debugpy" } with the real debugpy. The host hands VS Code's Python Debugger the attach
// configuration of debugAttachConfiguration (it listens) and starts the server with debugLaunch's command line
// (debugpy connects to it and waits). Here debugpy's own debug adapter, the one the Python Debugger extension runs,
// plays VS Code's part over the Debug Adapter Protocol with that very configuration: the server the host starts
// connects to it, a breakpoint in the tool's handler stops when the tool is called, and the call answers once the
// debugger continues. debugpy comes from the machine's Python package index, installed into a folder of the test's.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { ResolvedStdioServer } from '../../src/core/config';
import { ServerConnection } from '../../src/core/connection';
import { DEV_DEBUG_HOST, debugAttachConfiguration, debugLaunch } from '../../src/core/dev';
import { Logger } from '../../src/core/log';
import { repoRoot } from '../fixtures/servers';

const pythonServer = join(repoRoot, 'test/fixtures/python-server.py');
const debugpyDir = join(tmpdir(), 'mcp-host-test-debugpy-1.8');

/**
 * A folder where `import debugpy` works (PYTHONPATH), installing it there with pip the first time; or, on a machine
 * whose Python has no package index to install it from, why not (the test is then reported skipped, saying so).
 */
function debugpyPath(): { path: string } | { missing: string } {
  const importable = () => spawnSync('python3', ['-c', 'import debugpy'], { env: { ...process.env, PYTHONPATH: debugpyDir }, timeout: 30_000 }).status === 0;
  if (existsSync(debugpyDir) && importable()) return { path: debugpyDir };
  const pip = spawnSync('python3', ['-m', 'pip', 'install', '--quiet', '--target', debugpyDir, 'debugpy==1.8.*'], { encoding: 'utf8', timeout: 180_000 });
  if (pip.status !== 0)
    return { missing: `debugpy could not be installed on this machine (pip: ${(pip.stderr || pip.error?.message || '').trim().split('\n').at(-1)})` };
  assert.ok(importable(), 'debugpy is importable once installed');
  return { path: debugpyDir };
}
const debugpy = debugpyPath();

/** The Debug Adapter Protocol over an adapter's stdin and stdout. */
class DapClient {
  private seq = 1;
  private buffer = Buffer.alloc(0);
  private readonly waiting = new Map<number, (m: Record<string, unknown>) => void>();
  readonly events: Array<Record<string, unknown>> = [];
  private eventWaiters: Array<{ event: string; resolve: (m: Record<string, unknown>) => void }> = [];

  constructor(private readonly adapter: ChildProcessWithoutNullStreams) {
    adapter.stdout.on('data', (chunk: Buffer) => this.read(chunk));
  }

  request(command: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const seq = this.seq++;
    const body = JSON.stringify({ seq, type: 'request', command, arguments: args });
    this.adapter.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    return new Promise((resolve) => this.waiting.set(seq, resolve));
  }

  event(name: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    const seen = this.events.find((e) => e.event === name);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${name}" event within ${timeoutMs} ms`)), timeoutMs);
      this.eventWaiters.push({
        event: name,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString()) as Record<string, unknown>;
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      if (message.type === 'response') this.waiting.get(message.request_seq as number)?.(message);
      if (message.type === 'event') {
        this.events.push(message);
        this.eventWaiters = this.eventWaiters.filter((w) => (w.event === message.event ? (w.resolve(message), false) : true));
      }
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, DEV_DEBUG_HOST, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const cleanups: Array<() => unknown> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test(
  'a Python server under debugpy connects to the listening debugger, and a breakpoint in its tool handler stops the call',
  { timeout: 240_000, skip: 'missing' in debugpy ? debugpy.missing : false },
  async () => {
    if (!('path' in debugpy)) return;
    const pythonPath = debugpy.path;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    env.PYTHONPATH = pythonPath;

    // VS Code's side: the adapter, told to attach by listening, as the host asks the Python Debugger to.
    const adapter = spawn('python3', ['-m', 'debugpy.adapter'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(() => adapter.kill());
    const dap = new DapClient(adapter);
    const init = await dap.request('initialize', { clientID: 'vscode', adapterID: 'debugpy', pathFormat: 'path', linesStartAt1: true, columnsStartAt1: true });
    assert.equal(init.success, true, JSON.stringify(init));
    const port = await freePort();
    const attachConfiguration = debugAttachConfiguration('py', 'debugpy', port);
    assert.deepEqual(attachConfiguration.listen, { host: '127.0.0.1', port });
    const attached = dap.request('attach', attachConfiguration);

    // The host's side: the server's command line under debugpy, started as any stdio server.
    const server: ResolvedStdioServer = { name: 'py', transport: 'stdio', command: 'python3', args: [pythonServer], env, cwd: repoRoot };
    const launched = debugLaunch(server, { type: 'debugpy' }, port);
    assert.deepEqual(launched.args, ['-m', 'debugpy', '--connect', `127.0.0.1:${port}`, '--wait-for-client', pythonServer]);
    const connection = new ServerConnection(launched, { log: new Logger(() => undefined), stopGraceMs: 1000, connectTimeoutMs: 120_000 });
    cleanups.push(async () => {
      await connection.stop();
      connection.dispose();
    });
    const started = connection.start();

    // The debuggee has connected: breakpoints are set and the configuration is done, as VS Code does.
    await dap.event('initialized', 120_000);
    const line =
      1 +
      readFileSync(pythonServer, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('# BREAKPOINT'));
    const set = await dap.request('setBreakpoints', { source: { path: pythonServer }, breakpoints: [{ line }] });
    assert.equal(set.success, true, JSON.stringify(set));
    assert.equal((await dap.request('configurationDone')).success, true);
    assert.equal((await attached).success, true);
    await started;
    assert.deepEqual(
      connection.tools.map((t) => t.name),
      ['add'],
    );

    // The call stops on the breakpoint, in the handler, and answers once the debugger continues.
    const call = connection.callTool('add', { a: 2, b: 3 });
    const stopped = await dap.event('stopped', 60_000);
    assert.equal((stopped.body as { reason: string }).reason, 'breakpoint');
    const threadId = (stopped.body as { threadId: number }).threadId;
    const trace = await dap.request('stackTrace', { threadId, levels: 1 });
    const frame = (trace.body as { stackFrames: Array<{ name: string; line: number }> }).stackFrames[0]!;
    assert.deepEqual({ name: frame.name, line: frame.line }, { name: 'add', line });
    const pending = await Promise.race([call.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 500))]);
    assert.equal(pending, 'waiting', 'the call waits while the server is stopped');
    await dap.request('continue', { threadId });
    const result = await call;
    assert.equal((result.content as Array<{ text: string }>)[0]!.text, '5');
  },
);
