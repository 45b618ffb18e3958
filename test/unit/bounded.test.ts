// Bounded everywhere: hostile servers, special files and odd input against the built `mcp-host` CLI.
// Every case checks the exit code, the message, a generous time bound, the CLI's peak memory (VmHWM from
// /proc), that no process it started is left, and, where nothing may be sent, what the fixture received.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { run, type CliIo } from '../../src/cli/main';
import { checkFile, inlineLimitsFor, readCheckedBytes, type FileSlot } from '../../src/core/files';
import { downloadToFile, safeFileName } from '../../src/core/results/save';
import { compileSchema } from '../../src/core/forms/validate';
import { toResultView } from '../../src/core/results';
import { CUT_MARKER, cutDeep, jsonShape } from '../../src/core/io/json';
import { repoRoot, fixtureArgv } from '../fixtures/servers';
import { PassThrough } from 'node:stream';
import { tempDir } from '../helpers/tempDirs';

const CLI = join(repoRoot, 'dist', 'cli.js');
const MB = 1024 * 1024;
const RAW = (mode: string) => ['--', process.execPath, ...fixtureArgv('raw-stdio-server.ts'), mode];
const linux = process.platform === 'linux';

interface Outcome {
  code: number | null;
  out: string;
  outLines: number;
  err: string;
  ms: number;
  peakRssMb: number;
  left: number[];
}

/** The process's children, grandchildren… as /proc shows them now. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
    } catch {
      /* gone */
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, ppid] of parent)
      if (ppid === pid) {
        out.push(child);
        walk(child);
      }
  };
  walk(root);
  return out;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function peakRssKb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Runs the built CLI, watching its memory and the processes it starts; kills it (and fails) after `limitMs`. */
async function cli(argv: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; limitMs?: number } = {}): Promise<Outcome> {
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, [CLI, ...argv], {
    cwd: opts.cwd ?? repoRoot,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let outLines = 0;
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    if (out.length < MB) out += d;
    for (let i = d.indexOf('\n'); i !== -1; i = d.indexOf('\n', i + 1)) outLines++;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    if (err.length < MB) err += d;
  });
  const seen = new Set<number>();
  let peak = 0;
  const watch = setInterval(() => {
    if (!child.pid) return;
    peak = Math.max(peak, peakRssKb(child.pid));
    for (const pid of descendants(child.pid)) seen.add(pid);
  }, 40);
  const killer = setTimeout(() => child.kill('SIGKILL'), opts.limitMs ?? 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearInterval(watch);
  clearTimeout(killer);
  const ms = Date.now() - started;
  // What the CLI started has ended with it (a moment's grace for the kernel to reap).
  const deadline = Date.now() + 2000;
  let left = [...seen].filter(alive);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = left.filter(alive);
  }
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  return { code, out, outLines, err, ms, peakRssMb: peak / 1024, left };
}

/** One line per CLI run, printed at the end: the measurements behind the bounds. */
const measured: string[] = [];
after(() => {
  process.stdout.write(`${measured.map((m) => `# ${m}`).join('\n')}\n`);
});

/** The checks every case makes. */
function expect(r: Outcome, want: { code: number; err?: RegExp; out?: RegExp; withinMs: number; rssMb: number }): void {
  measured.push(`exit ${r.code}, ${r.ms} ms, peak RSS ${r.peakRssMb.toFixed(0)} MB: ${(want.err ?? want.out ?? /./).source.slice(0, 70)}`);
  const context = `exit ${r.code} after ${r.ms} ms, peak ${r.peakRssMb.toFixed(0)} MB\nstderr: ${r.err.slice(0, 2000)}\nstdout: ${r.out.slice(0, 500)}`;
  assert.equal(r.code, want.code, context);
  if (want.err) assert.match(r.err, want.err, context);
  if (want.out) assert.match(r.out, want.out, context);
  assert.ok(r.ms < want.withinMs, `took ${r.ms} ms (bound ${want.withinMs})\n${context}`);
  if (linux) assert.ok(r.peakRssMb > 0 && r.peakRssMb < want.rssMb, `peak memory ${r.peakRssMb.toFixed(0)} MB (bound ${want.rssMb})\n${context}`);
  assert.deepEqual(r.left, [], `processes left running: ${r.left.join(', ')}`);
}

const workDir = tempDir('mcp-bounded-');
/** A fresh file the raw fixture records what it received in (absent: it never started). */
let records = 0;
function recordFile(): string {
  return join(workDir, `received-${++records}.txt`);
}
const received = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');

function fifo(name: string): string {
  const path = join(workDir, name);
  const r = spawnSync('mkfifo', [path]);
  assert.equal(r.status, 0, 'mkfifo is needed for these cases');
  return path;
}

function configDir(text: string): string {
  const dir = mkdtempSync(join(workDir, 'ws-'));
  mkdirSync(join(dir, '.vscode'));
  writeFileSync(join(dir, '.vscode', 'mcp.json'), text);
  return dir;
}

before(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run node scripts/build.mjs');
});

describe('a hostile HTTP server', () => {
  let fixture: ChildProcess;
  let base = '';
  let foreign = '';
  const url = (mode: string) => `${base}/${mode}/mcp`;
  const fixtureState = async () =>
    (await fetch(`${base}/_received`)).json() as Promise<{ received: Array<{ method: string; path: string }>; sent: Record<string, number> }>;

  before(async () => {
    fixture = spawn(process.execPath, [...fixtureArgv('hostile-http-server.ts')], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve, reject) => {
      let seen = '';
      fixture.stdout!.setEncoding('utf8').on('data', (d: string) => {
        seen += d;
        if (seen.includes('\n')) resolve(seen);
      });
      fixture.once('exit', (c) => reject(new Error(`hostile-http-server exited ${c}`)));
    });
    const [, port, foreignPort] = /listening (\d+) (\d+)/.exec(line)!;
    base = `http://127.0.0.1:${port}`;
    foreign = `http://127.0.0.1:${foreignPort}`;
  });
  after(() => {
    fixture.kill();
  });

  test('silent: --timeout bounds connecting (exit 4, the wait named)', async () => {
    expect(await cli(['tools', '--timeout', '2000', '--url', url('silent')]), {
      code: 4,
      err: /cannot start server .*timed out after 2000ms/,
      withinMs: 12_000,
      rssMb: 250,
    });
  });

  test('trickling a byte a second: --timeout bounds the handshake', async () => {
    expect(await cli(['tools', '--timeout', '2000', '--url', url('trickle')]), { code: 4, err: /timed out after 2000ms/, withinMs: 12_000, rssMb: 250 });
  });

  test('never answering the DELETE that ends the session: the result is printed and the CLI exits within the 2 s bound', async () => {
    const before = (await fixtureState()).received.filter((r) => r.method === 'DELETE' && r.path.startsWith('/no-delete')).length;
    const r = await cli(['call', 'echo', '--timeout', '5000', '--url', url('no-delete')]);
    expect(r, { code: 0, out: /^ok\n$/, withinMs: 12_000, rssMb: 250 });
    const deletes = (await fixtureState()).received.filter((x) => x.method === 'DELETE' && x.path.startsWith('/no-delete')).length;
    assert.equal(deletes, before + 1, 'the session end was asked for');
  });

  test('a 400 MB answer is cut off at the message limit, early, and the limit is named', async () => {
    const r = await cli(['call', 'echo', '--timeout', '20000', '--url', url('huge-body')]);
    expect(r, {
      code: 4,
      err: /tool "echo" failed: the server sent an answer over 32 MiB, the message size limit; the connection was closed/,
      withinMs: 20_000,
      rssMb: 400,
    });
    const sent = (await fixtureState()).sent['huge-body'] ?? 0;
    assert.ok(sent < 160 * MB, `the fixture sent ${(sent / MB).toFixed(0)} MB before the host stopped reading`);
  });

  test('an SSE event that never ends is cut off at the message limit, early', async () => {
    const r = await cli(['call', 'echo', '--timeout', '20000', '--url', url('endless-sse')]);
    expect(r, { code: 4, err: /the server sent an event over 32 MiB, the message size limit; the connection was closed/, withinMs: 20_000, rssMb: 400 });
    const sent = (await fixtureState()).sent['endless-sse'] ?? 0;
    assert.ok(sent < 160 * MB, `the fixture sent ${(sent / MB).toFixed(0)} MB before the host stopped reading`);
  });

  test('legacy HTTP+SSE: an event that never ends is cut off at the message limit, early, as over Streamable HTTP', async () => {
    expect(await cli(['call', 'echo', '--timeout', '20000', '--url', `${base}/sse-ok/sse`]), { code: 0, out: /^ok\n$/, withinMs: 12_000, rssMb: 250 });
    const legacyUsed = (await fixtureState()).received.filter((x) => x.path.startsWith('/sse-ok/')).map((x) => `${x.method} ${x.path}`);
    assert.ok(
      legacyUsed.includes('GET /sse-ok/sse') && legacyUsed.includes('POST /sse-ok/messages'),
      `the legacy transport was used: ${legacyUsed.join(', ')}`,
    );
    const r = await cli(['call', 'echo', '--timeout', '20000', '--url', `${base}/sse-endless/sse`]);
    expect(r, { code: 4, err: /the server sent an event over 32 MiB, the message size limit; the connection was closed/, withinMs: 20_000, rssMb: 400 });
    const sent = (await fixtureState()).sent['sse-endless'] ?? 0;
    assert.ok(sent < 160 * MB, `the fixture sent ${(sent / MB).toFixed(0)} MB before the host stopped reading`);
  });

  test('a redirect to another origin is not followed: nothing reaches that origin', async () => {
    const r = await cli(['tools', '--timeout', '5000', '--url', url('redirect')]);
    expect(r, { code: 4, err: /Redirect to http:\/\/127\.0\.0\.1:\d+\/mcp not followed/, withinMs: 12_000, rssMb: 250 });
    const there = (await (await fetch(`${foreign}/_received`)).json()) as { received: unknown[] };
    assert.deepEqual(there.received, []);
  });

  test('over HTTP too: a tool nested 10,000 levels is refused alone, structured content 5,000 deep is shown cut', async () => {
    const tools = await cli(['tools', '--timeout', '10000', '--url', url('deep')]);
    expect(tools, {
      code: 0,
      out: /^echo\n$/,
      err: /tool "deep" is not offered: its definition nests more than 512 levels deep, the host's limit/,
      withinMs: 12_000,
      rssMb: 300,
    });
    const call = await cli(['call', 'echo', '--timeout', '10000', '--url', url('deep')]);
    expect(call, {
      code: 0,
      out: /^ok\n$/,
      err: /The structured content nests more than 512 levels deep, the host's limit: it is shown cut at that depth/,
      withinMs: 12_000,
      rssMb: 300,
    });
  });

  test('{"result": null}, as a JSON body or as a server-sent event, ends the call at once, naming the server (exit 5)', async () => {
    for (const mode of ['null-result', 'null-result-sse']) {
      const r = await cli(['call', 'echo', '--timeout', '20000', '--url', url(mode)]);
      expect(r, { code: 5, err: /tool "echo" failed: server "127\.0\.0\.1:\d+" sent an answer the host cannot use/, withinMs: 10_000, rssMb: 250 });
    }
  });
});

describe('a hostile stdio server (raw JSON-RPC)', () => {
  test('{"result": null} and an answer with neither result nor error end the call at once, naming the server', async () => {
    expect(await cli(['call', 'echo', '--timeout', '20000', ...RAW('null-result')]), {
      code: 5,
      err: /server "node" sent an answer the host cannot use: it has a "result" that is null, not an object/,
      withinMs: 12_000,
      rssMb: 250,
    });
    expect(await cli(['call', 'echo', '--timeout', '20000', ...RAW('no-result')]), {
      code: 5,
      err: /it has neither "result" nor "error"/,
      withinMs: 12_000,
      rssMb: 250,
    });
  });

  test('an answer for an id never asked is ignored; --timeout ends the wait', async () => {
    expect(await cli(['call', 'echo', '--timeout', '3000', ...RAW('wrong-id')]), {
      code: 4,
      err: /tool "echo" got no answer within 3000 ms/,
      withinMs: 12_000,
      rssMb: 250,
    });
  });

  test('the same answer twice: the first is the result, the second is dropped', async () => {
    expect(await cli(['call', 'echo', '--timeout', '10000', ...RAW('duplicate-id')]), { code: 0, out: /^ok\n$/, withinMs: 12_000, rssMb: 250 });
  });

  test('a 200 MB line is cut off at the message limit; the server is stopped long before it has written it', async () => {
    const record = recordFile();
    const r = await cli(['call', 'echo', '--timeout', '20000', ...RAW('huge-line')], { env: { RAW_RECORD: record } });
    expect(r, { code: 4, err: /the server sent a message over 32 MiB, the message size limit; the connection was closed/, withinMs: 20_000, rssMb: 400 });
    const sent = Math.max(0, ...[...received(record).matchAll(/^sent (\d+)$/gm)].map((m) => Number(m[1])));
    assert.ok(sent > 32 * MB && sent < 120 * MB, `the server wrote ${(sent / MB).toFixed(0)} MB`);
  });

  test('64 MB of stderr without a newline: kept as a bounded tail, in linear time', async () => {
    const r = await cli(['call', 'echo', '--timeout', '20000', '--verbose', ...RAW('stderr-flood')]);
    expect(r, { code: 0, out: /^ok\n$/, err: /\[server stderr\] e+… \[\d+ characters left out\] …e+/, withinMs: 15_000, rssMb: 300 });
    assert.ok(r.err.length < 64 * 1024, `${r.err.length} characters of log`);
  });

  test('bytes that are not UTF-8 are shown as replacement characters', async () => {
    expect(await cli(['call', 'echo', '--timeout', '10000', ...RAW('invalid-utf8')]), {
      code: 0,
      out: /^bad \uFFFD+\( bytes\n$/,
      withinMs: 12_000,
      rssMb: 250,
    });
  });

  test('a server naming 300 URLs to visit: --timeout bounds the whole URL loop', async () => {
    const answers = join(workDir, 'accept.json');
    writeFileSync(answers, JSON.stringify({ action: 'accept' }));
    const r = await cli(['call', 'echo', '--timeout', '3000', '--elicit', `@${answers}`, ...RAW('url-flood')]);
    expect(r, { code: 4, err: /tool "echo" did not finish within 3000 ms \(the server required URLs to be visited\)/, withinMs: 15_000, rssMb: 250 });
  });

  test('a FileInput path in --args outside the working folder is refused, and no call is sent', async () => {
    const record = recordFile();
    const r = await cli(['call', 'attach', '--args', '{"doc":{"path":"/etc/passwd"}}', ...RAW('ok')], { env: { RAW_RECORD: record } });
    expect(r, { code: 1, err: /doc: \/etc\/passwd resolves to a place outside the workspace folders/, withinMs: 12_000, rssMb: 250 });
    assert.ok(received(record).includes('"tools/list"'), 'the server was asked for its tools');
    assert.ok(!received(record).includes('tools/call'), 'no call was sent');
  });

  test('${env:constructor}, ${env:toString}, ${env:hasOwnProperty} and ${env:__proto__} are empty, not Object.prototype', async () => {
    const record = recordFile();
    const args = [...fixtureArgv('raw-stdio-server.ts'), 'ok', '[${env:constructor}|${env:toString}|${env:hasOwnProperty}|${env:__proto__}]'];
    const dir = configDir(JSON.stringify({ servers: { s: { command: process.execPath, args, cwd: repoRoot, env: { RAW_RECORD: record } } } }));
    const r = await cli(['call', 'echo', '--server', 's', '--timeout', '10000'], { cwd: dir });
    expect(r, { code: 0, out: /^ok\n$/, withinMs: 12_000, rssMb: 250 });
    assert.match(received(record), /^argv \["ok","\[\|\|\|\]"\]$/m);
  });
});

describe('JSON Schema and results built to hang or crash the host', () => {
  const HOSTILE = ['--', process.execPath, ...fixtureArgv('hostile-server.ts')];

  test('output-schema patterns that backtrack for minutes (`^(\\w|\\d)*$`, `(a|a)*`, `(.*a){12}`) are checked in linear time; a lookahead is reported as not checked', async () => {
    const r = await cli(['call', 'echo', '--timeout', '20000', ...RAW('redos')]);
    expect(r, {
      code: 5,
      err: /does not match its output schema:\n {2}\/word: Must match the pattern \^\(\\w\|\\d\)\*\$\.\n {2}\/same: Must match the pattern \^\(a\|a\)\*\$\.\n {2}\/dots: Must match the pattern \^\(\.\*a\)\{12\}\$\.\n/,
      withinMs: 15_000,
      rssMb: 300,
    });
    assert.match(r.err, /mcp-host: The pattern \^\(\?=a\)\(a\)\\1\$ is not checked: the host runs a server's patterns only on a linear-time engine/);
    assert.ok(!/\/plain:|\/look:/.test(r.err), 'the pattern that runs and holds, and the one not run, are no errors');
  });

  test('an elicitation field whose pattern backtracks: the answer is checked at once and refused locally, naming the field', async () => {
    const answers = join(workDir, 'codes.json');
    writeFileSync(answers, JSON.stringify({ action: 'accept', content: { code: `${'a'.repeat(42)}!`, twice: 'aa' } }));
    const r = await cli(['call', 'pattern_form', '--timeout', '20000', '--elicit', `@${answers}`, ...HOSTILE]);
    expect(r, { code: 1, err: /code: Must match the pattern \^\(\\w\|\\d\)\*\$/, withinMs: 15_000, rssMb: 300 });
    writeFileSync(answers, JSON.stringify({ action: 'accept', content: { code: 'abc123', twice: 'zz' } }));
    const ok = await cli(['call', 'pattern_form', '--timeout', '20000', '--elicit', `@${answers}`, ...HOSTILE]);
    expect(ok, { code: 0, out: /"action":"accept","content":\{"code":"abc123","twice":"zz"\}/, withinMs: 15_000, rssMb: 300 });
  });

  test('a tool list with schemas nested 10,000 levels deep: only those tools are refused, named with the limit; the rest stay usable', async () => {
    const tools = await cli(['tools', '--timeout', '20000', ...RAW('deep-schema')]);
    expect(tools, { code: 0, out: /^echo\nattach\n/, withinMs: 15_000, rssMb: 300 });
    assert.match(
      tools.err,
      /mcp-host: tool "deep" is not offered: its definition nests more than 512 levels deep, the host's limit\nmcp-host: tool "deep_out" is not offered/,
    );
    assert.ok(!/Maximum call stack|RangeError/.test(tools.err + tools.out), tools.err);
    expect(await cli(['call', 'echo', '--timeout', '20000', ...RAW('deep-schema')]), { code: 0, out: /^ok\n$/, withinMs: 15_000, rssMb: 300 });
    expect(await cli(['call', 'deep', '--timeout', '20000', ...RAW('deep-schema')]), {
      code: 1,
      err: /lists tool "deep", but it is not offered: its definition nests more than 512 levels deep/,
      withinMs: 15_000,
      rssMb: 300,
    });
  });

  test('structured content nested 5,000 levels deep is shown cut at the limit, naming it, not lost (exit 0, --json too)', async () => {
    const r = await cli(['call', 'echo', '--timeout', '20000', ...RAW('deep-structured')]);
    expect(r, {
      code: 0,
      out: /^ok\n$/,
      err: /The structured content nests more than 512 levels deep, the host's limit: it is shown cut at that depth/,
      withinMs: 15_000,
      rssMb: 300,
    });
    const json = await cli(['call', 'echo', '--json', '--timeout', '20000', ...RAW('deep-structured')]);
    expect(json, { code: 0, out: /"\[nested more than 512 levels deep: cut here\]"/, withinMs: 15_000, rssMb: 300 });
    assert.ok(!/Maximum call stack|RangeError/.test(r.err + json.err));
  });

  test('an output schema with 100,000 properties is not compiled: the result says it was not checked, in bounded time and memory', async () => {
    const r = await cli(['call', 'echo', '--timeout', '40000', ...RAW('huge-schema')], { limitMs: 90_000 });
    expect(r, {
      code: 0,
      out: /^ok\n$/,
      err: /The tool's output schema could not be used: the schema has more than 20,000 values, the most the host checks against/,
      withinMs: 60_000,
      rssMb: 600,
    });
  });
});

describe('files and input the user names', () => {
  test('--config naming a FIFO or /dev/zero is refused at once, unread', async () => {
    expect(await cli(['servers', '--config', fifo('config.fifo')]), {
      code: 1,
      err: /the config file .*config\.fifo is not a regular file \(it is a pipe\)/,
      withinMs: 5000,
      rssMb: 200,
    });
    expect(await cli(['servers', '--config', '/dev/zero']), { code: 1, err: /the config file \/dev\/zero is not a regular file/, withinMs: 5000, rssMb: 200 });
  });

  test('an envFile naming a FIFO is refused at once, and the server is not started', async () => {
    const record = recordFile();
    const args = [...fixtureArgv('raw-stdio-server.ts'), 'ok'];
    const dir = configDir(
      JSON.stringify({ servers: { s: { command: process.execPath, args, cwd: repoRoot, envFile: fifo('env.fifo'), env: { RAW_RECORD: record } } } }),
    );
    const r = await cli(['call', 'echo', '--server', 's'], { cwd: dir });
    expect(r, { code: 1, err: /server "s": the envFile .*env\.fifo is not a regular file \(it is a pipe\)/, withinMs: 5000, rssMb: 200 });
    assert.equal(received(record), '');
  });

  test('--elicit @FIFO and @/dev/zero are refused before the server starts', async () => {
    for (const source of [fifo('answers.fifo'), '/dev/zero']) {
      const record = recordFile();
      const r = await cli(['call', 'echo', '--elicit', `@${source}`, ...RAW('ok')], { env: { RAW_RECORD: record } });
      expect(r, { code: 1, err: /--elicit @.*: the answers file .* is not a regular file/, withinMs: 5000, rssMb: 200 });
      assert.equal(received(record), '', 'the server was not started');
    }
  });

  test('--args nested 10,000 levels deep: "nested too deeply" and where, exit 1, nothing sent', async () => {
    const record = recordFile();
    const deep = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const r = await cli(['call', 'echo', '--args', deep, ...RAW('ok')], { env: { RAW_RECORD: record } });
    expect(r, { code: 1, err: /--args is not valid JSON: nested too deeply \(more than 256 levels\) at line 1, column 261/, withinMs: 5000, rssMb: 200 });
    assert.equal(received(record), '');
  });

  test('an mcp.json of 200,000 "[": "nested too deeply" and where, exit 1', async () => {
    const dir = configDir('['.repeat(200_000));
    expect(await cli(['servers'], { cwd: dir }), { code: 1, err: /mcp\.json:1:257: nested too deeply/, withinMs: 5000, rssMb: 200 });
  });

  test('an mcp.json starting with a byte order mark loads', async () => {
    const dir = configDir(`\uFEFF${JSON.stringify({ servers: { bom: { command: 'node', args: ['x.js'] } } })}`);
    expect(await cli(['servers'], { cwd: dir }), { code: 0, out: /^bom\tstdio\tnode x\.js\n$/, withinMs: 5000, rssMb: 200 });
  });

  test('200,000 syntax errors are reported in seconds: the first 20 and how many more', async () => {
    const dir = configDir(`{${' @'.repeat(200_000)}}`);
    const r = await cli(['servers'], { cwd: dir });
    expect(r, { code: 1, err: /and \d{5,} more errors/, withinMs: 10_000, rssMb: 300 });
    assert.ok(r.err.trim().split('\n').length <= 21, r.err.slice(0, 500));
  });

  test('100,000 servers are listed in seconds', async () => {
    const servers: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) servers[`s${i}`] = { command: 'node', args: [`${i}.js`] };
    const r = await cli(['servers'], { cwd: configDir(JSON.stringify({ servers })) });
    expect(r, { code: 0, withinMs: 15_000, rssMb: 400 });
    assert.equal(r.outLines, 100_000);
  });

  test('error lines quoting the configuration are terminal-safe (escape sequences and bidi controls shown, not obeyed)', async () => {
    const name = 'evil\u001b[2J\u202Egpj.exe';
    const dir = configDir(JSON.stringify({ servers: { [name]: { command: 42 } } }));
    for (const argv of [['servers'], ['call', 'echo', '--server', name]]) {
      const r = await cli(argv, { cwd: dir });
      expect(r, { code: 1, err: /server "evil\\x1b\[2J\\u202egpj\.exe": "command" must be a non-empty string/i, withinMs: 5000, rssMb: 200 });
      assert.ok(!/[\u001b\u202e]/.test(r.err + r.out), 'no raw control character reaches the terminal');
    }
  });
});

describe('a file output whose download never ends (no size, no digest stated)', () => {
  const ENDLESS = ['--', process.execPath, ...fixtureArgv('transfer-server.ts'), '--era', '2025', '--endless-outputs'];
  const saveDir = () => mkdtempSync(join(workDir, 'saved-'));

  test('served slowly forever: --timeout bounds the download (exit 5, the deadline named) and nothing is left in the folder', async () => {
    const dir = saveDir();
    const r = await cli(['call', 'make_endless', '--args', '{"pace":"slow"}', '--save-files', dir, '--timeout', '6000', ...ENDLESS]);
    expect(r, {
      code: 5,
      err: /saving endless\.bin failed: the download did not finish within 6 s \(\d+ bytes arrived, no size stated\); its deadline is the request timeout; nothing was saved for it/,
      withinMs: 25_000,
      rssMb: 300,
    });
    assert.deepEqual(readdirSync(dir), []);
  });

  test('served as fast as it goes: stopped at --max-download, naming it, and nothing is left in the folder', async () => {
    const dir = saveDir();
    const r = await cli(['call', 'make_endless', '--args', '{"pace":"fast"}', '--save-files', dir, '--max-download', String(8 * MB), ...ENDLESS]);
    expect(r, {
      code: 5,
      err: /saving endless\.bin failed: more bytes arrived than may be saved for a file of no stated size, over 8 MiB \(8388608 bytes, --max-download\); nothing was saved for it/,
      withinMs: 25_000,
      rssMb: 300,
    });
    assert.deepEqual(readdirSync(dir), []);
  });

  test('stopped mid-download (SIGTERM, as Ctrl-C): the CLI ends promptly and leaves nothing in the folder', async () => {
    const dir = saveDir();
    const child = spawn(process.execPath, [CLI, 'call', 'make_endless', '--args', '{"pace":"slow"}', '--save-files', dir, '--timeout', '60000', ...ENDLESS], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const until = Date.now() + 30_000;
    while (readdirSync(dir).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.equal(readdirSync(dir).length, 1, 'the download started');
    const stopped = Date.now();
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000))]);
    if (code === 'hung') child.kill('SIGKILL');
    assert.equal(code, 130);
    assert.ok(Date.now() - stopped < 10_000);
    assert.deepEqual(readdirSync(dir), []);
  });

  test("the .part file of a killed run is removed by the next run saving into that folder; a live download's is not", async () => {
    const dir = saveDir();
    const child = spawn(process.execPath, [CLI, 'call', 'make_endless', '--args', '{"pace":"slow"}', '--save-files', dir, '--timeout', '60000', ...ENDLESS], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const parts = () => readdirSync(dir).filter((n) => n.endsWith('.part'));
    const until = Date.now() + 30_000;
    while (parts().length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.equal(parts().length, 1, 'the download started');
    const started = descendants(child.pid!);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    for (const pid of started) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    const left = parts();
    assert.equal(left.length, 1, 'a killed process cannot clean up: its partial download is still there');
    assert.match(left[0]!, new RegExp(`^\\.endless\\.bin\\.mcp-host-${child.pid}-[0-9a-f]{12}\\.part$`));
    // A download of a process that is still running (this one) is not touched.
    const live = `.other.bin.mcp-host-${process.pid}-0123456789ab.part`;
    writeFileSync(join(dir, live), 'in progress');
    // The next run saving into the folder removes it, even one whose result has no file to save.
    const next = await cli(['call', 'stats', '--save-files', dir, ...ENDLESS]);
    expect(next, { code: 0, out: /tools\/call/, withinMs: 25_000, rssMb: 300 });
    assert.deepEqual(readdirSync(dir), [live]);
    // And every download clears the folder it writes to first (Save in VS Code, --out).
    const stale = `.endless.bin.mcp-host-${child.pid}-0123456789ab.part`;
    writeFileSync(join(dir, stale), 'left by a killed run');
    const r = await cli(['call', 'make_endless', '--args', '{"pace":"fast"}', '--save-files', dir, '--max-download', String(MB), ...ENDLESS]);
    expect(r, { code: 5, err: /over 1 MiB \(1048576 bytes, --max-download\)/, withinMs: 25_000, rssMb: 300 });
    assert.deepEqual(readdirSync(dir), [live]);
  });
});

describe('in process', () => {
  async function runCli(argv: string[]) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d) => {
      err += d;
    });
    stdout.resume();
    const io: CliIo = { stdout, stderr, env: process.env, cwd: repoRoot, interactive: false };
    return { code: await run(argv, io), err };
  }

  test('50 MB of --args for a stdio server is refused before the server starts, naming the limit', async () => {
    const record = recordFile();
    const started = Date.now();
    const r = await runCli([
      'call',
      'echo',
      '--args',
      JSON.stringify({ text: 'x'.repeat(50 * MB) }),
      '--',
      process.execPath,
      ...fixtureArgv('raw-stdio-server.ts'),
      'ok',
    ]);
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /--args: the arguments are 50 MiB as JSON; at most 9\.4 MiB can be sent to a stdio server in one call \(the MCP SDK's stdio transport drops messages over 10 MiB\)/,
    );
    assert.ok(Date.now() - started < 10_000);
    assert.equal(received(record), '');
  });

  test('a compiled validator is kept: the same schema sent again as a new object is not compiled again', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) properties[`p${i}`] = { type: 'string', pattern: '^(\\w|\\d)*$' };
    const text = JSON.stringify({ type: 'object', properties });
    const first = compileSchema(JSON.parse(text));
    assert.equal(typeof first, 'function');
    assert.equal(compileSchema(JSON.parse(text)), first, 'the same validator, not a second compile');
    const started = Date.now();
    assert.match(
      String(compileSchema({ type: 'object', properties: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`p${i}`, { type: 'string' }])) })),
      /more than 20,000 values/,
    );
    assert.ok(Date.now() - started < 5000, 'refused before any compiling');
  });

  test('patternProperties keys run on the linear-time engine too; a lookahead key pattern is left out and reported as not checked', () => {
    const tool = {
      name: 'keys',
      outputSchema: { type: 'object', patternProperties: { '^(a|a)*$': { type: 'number' }, '^(?!z)q$': { type: 'number' } }, additionalProperties: false },
    };
    const long = 'a'.repeat(42);
    const started = Date.now();
    const view = toResultView({ content: [], structuredContent: { [long]: 'x', [`${long}!`]: 1, q: 'y' } }, tool);
    assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
    assert.equal(view.structured?.status, 'invalid');
    // The lookahead entry is left out (with additionalProperties beside it): no key is judged by a pattern not run.
    assert.deepEqual(view.structured?.errors, [`/${long}: Must be a number.`]);
    assert.match(view.structured?.notes?.[0] ?? '', /^The pattern \^\(\?!z\)q\$ is not checked/);
  });

  test('patterns read at most 4 MiB of text per check: 50 patterns on a 30 MB value end in seconds, saying what was not checked', () => {
    const tool = {
      name: 'long',
      outputSchema: { type: 'object', properties: { v: { allOf: Array.from({ length: 50 }, (_, i) => ({ type: 'string', pattern: `^(\\w|\\d)*${i}?$` })) } } },
    };
    const started = Date.now();
    const view = toResultView({ content: [], structuredContent: { v: 'a'.repeat(30 * MB) } }, tool);
    assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
    assert.equal(view.structured?.status, 'valid');
    assert.deepEqual(view.structured?.notes, [
      'Some patterns were not checked: the value holds more than the 4 MiB of text the host matches patterns on in one check.',
    ]);
    const short = toResultView({ content: [], structuredContent: { v: 'a!' } }, tool);
    assert.equal(short.structured?.status, 'invalid');
    assert.equal(short.structured?.notes, undefined);
  });

  test('cutDeep cuts at the limit and knows its own cut again; the marker text elsewhere is a value like any other', () => {
    const deep = JSON.parse(`${'['.repeat(600)}1${']'.repeat(600)}`) as unknown;
    const once = cutDeep(deep);
    assert.equal(once.cut, true);
    assert.equal(jsonShape(once.value, 512).tooDeep, false);
    assert.deepEqual(cutDeep(once.value), { value: once.value, cut: true });
    const shallow = { note: CUT_MARKER };
    assert.deepEqual(cutDeep(shallow), { value: shallow, cut: false });
    assert.equal(
      toResultView({ content: [], structuredContent: shallow }, { name: 't', outputSchema: { type: 'object', required: ['x'] } }).structured?.status,
      'invalid',
    );
  });

  test('a presigned-URL download (FileOutput s3) that trickles forever ends at its deadline, one that never stops at its size limit; neither leaves a file', async () => {
    const server = createServer((req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write(Buffer.alloc(req.url === '/fast' ? 256 * 1024 : 1024)), req.url === '/fast' ? 1 : 50);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = mkdtempSync(join(workDir, 'presigned-'));
    try {
      const started = Date.now();
      await assert.rejects(
        downloadToFile(`${base}/slow`, join(dir, 'slow.bin'), { consent: true, maxBytes: 64 * MB, timeoutMs: 1500 }),
        /Download stopped: it did not finish within 1\.5 s \(\d+ bytes arrived\)/,
      );
      assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
      await assert.rejects(
        downloadToFile(`${base}/fast`, join(dir, 'fast.bin'), {
          consent: true,
          maxBytes: 4 * MB,
          maxBytesName: 'mcpHost.files.maxDownloadMiB',
          timeoutMs: 60_000,
        }),
        /Download stopped: more than 4194304 bytes arrived \(the limit, mcpHost\.files\.maxDownloadMiB\)/,
      );
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test('saved names drop bidi overrides and isolates, zero-width characters and C1 controls', () => {
    assert.equal(safeFileName('report\u202Egpj.exe'), 'reportgpj.exe');
    assert.equal(safeFileName('a\u2066b\u2069c\u200Bd\u200De\uFEFFf\u0085g\u009bh.txt'), 'abcdefgh.txt');
  });

  test('a file swapped for a FIFO after its check is refused at once at Run, not waited on', async () => {
    const path = join(workDir, 'swap.txt');
    writeFileSync(path, 'hello');
    const slot: FileSlot = { path: ['doc'], label: 'doc', required: true, multiple: false, origin: 'x-mcp-file' } as FileSlot;
    const limits = inlineLimitsFor('stdio');
    const check = await checkFile(path, slot, limits);
    assert.ok(check.ok);
    renameSync(path, `${path}.old`);
    spawnSync('mkfifo', [path]);
    const started = Date.now();
    await assert.rejects(readCheckedBytes(check.file, slot, limits), /doc: swap\.txt is no longer a regular file; choose it again/);
    assert.ok(Date.now() - started < 2000);
  });
});
