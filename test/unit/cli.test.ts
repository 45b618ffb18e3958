// The `mcp-host` command: its arguments, output and exit codes (0 ok, 1 usage/refused, 4 server, 5 tool error).
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseArgs } from '../../src/cli/main';
import { runCli } from '../fixtures/cli';
import { cliArgv, repoRoot, startHttpFixture, type RunningHttpServer, fixtureArgv } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

const FIXTURE = ['--', process.execPath, ...fixtureArgv('era2025-server.ts')];
const RECORDING = ['--', process.execPath, ...fixtureArgv('recording-server.ts')];
const HOSTILE = ['--', process.execPath, ...fixtureArgv('hostile-server.ts')];
const EVERYTHING = ['--', process.execPath, join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==';

const cli = runCli;

function workspace(config: object | string): string {
  const dir = tempDir('mcp-cli-');
  mkdirSync(join(dir, '.vscode'));
  writeFileSync(join(dir, '.vscode', 'mcp.json'), typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return dir;
}

test('parses options before "--" and keeps everything after it as the server command', () => {
  const a = parseArgs(['call', 'echo', '--args={"a":1}', '--file', 'x=1.png', '--file', 'y=2.png', '--json', '--no-binary-uploads', '--', 'node', '--json']);
  assert.equal(a.command, 'call');
  assert.deepEqual(a.positional, ['echo']);
  assert.equal(a.args, '{"a":1}');
  assert.deepEqual(a.files, ['x=1.png', 'y=2.png']);
  assert.equal(a.json, true);
  assert.equal(a.noBinaryUploads, true);
  assert.equal(parseArgs(['call', 'echo']).noBinaryUploads, undefined);
  assert.deepEqual(a.stdio, ['node', '--json']);
});

test('usage errors exit 1 and say what is wrong', async () => {
  assert.deepEqual((await cli(['frobnicate'])).code, 1);
  const noTarget = await cli(['tools']);
  assert.equal(noTarget.code, 1);
  assert.match(noTarget.err, /give a TARGET/);
  const badArgs = await cli(['call', 'echo', '--args', '{nope', ...FIXTURE]);
  assert.equal(badArgs.code, 1);
  assert.match(badArgs.err, /--args is not valid JSON/);
  const badTimeout = await cli(['call', 'echo', '--timeout', 'soon', ...FIXTURE]);
  assert.equal(badTimeout.code, 1);
  assert.match(badTimeout.err, /--timeout must be a positive whole number/);
  for (const wait of ['0', 'soon', '', '601']) {
    const badWait = await cli(['call', 'echo', '--url-wait', wait, ...FIXTURE]);
    assert.equal(badWait.code, 1);
    assert.match(badWait.err, new RegExp(`--url-wait must be a number of seconds above 0 and at most 600 \\(got "${wait}"\\)`));
  }
  assert.equal((await cli(['tools', '--bogus', ...FIXTURE])).code, 1);
  for (const [command, what] of [
    ['call', 'tool'],
    ['prompt', 'prompt'],
  ]) {
    const unnamed = await cli([command!, ...FIXTURE]);
    assert.equal(unnamed.code, 1);
    assert.match(unnamed.err, new RegExp(`${command} needs the name of a ${what}`));
    assert.match((await cli([command!, 'a', 'b', ...FIXTURE])).err, /unexpected argument b/);
  }
});

describe('against a stdio server', () => {
  test('tools lists names, titles and descriptions; --json prints the tool objects', async () => {
    const r = await cli(['tools', ...FIXTURE]);
    assert.equal(r.code, 0);
    assert.match(r.out, /^echo {2}— Returns its text$/m);
    assert.match(r.out, /^add {2}\(Add two numbers\)$/m);
    assert.match(r.out, /^describe_photo .*\n {4}photo {2}file {2}accept image\/png/m);
    const json = await cli(['tools', '--json', ...FIXTURE]);
    assert.equal(json.code, 0);
    assert.ok((JSON.parse(json.out) as { name: string }[]).some((t) => t.name === 'ask_file'));
  });

  test('call prints the text content, or the raw result with --json', async () => {
    const r = await cli(['call', 'echo', '--args', '{"text":"hello world"}', ...FIXTURE]);
    assert.deepEqual([r.code, r.out], [0, 'hello world\n']);
    const json = await cli(['call', 'add', '--args', '{"a":1,"b":2}', '--json', ...FIXTURE]);
    assert.equal(json.code, 0);
    assert.deepEqual(JSON.parse(json.out).structuredContent, { sum: 3 });
  });

  test('a tool error exits 5, a server that dies mid-call exits 4', async () => {
    const fail = await cli(['call', 'fail', ...FIXTURE]);
    assert.equal(fail.code, 5);
    assert.match(fail.err, /the tool failed on purpose/);
    const crash = await cli(['call', 'crash', ...FIXTURE]);
    assert.equal(crash.code, 4);
    assert.match(crash.err, /exit code 3/);
  });

  test('a JSON-RPC or validation error from the server exits 5', async () => {
    const r = await cli(['call', 'bad_output', ...FIXTURE]);
    assert.equal(r.code, 5);
    assert.match(r.err, /output schema/);
  });

  test('structured content that breaks the output schema: the errors and the raw JSON are printed, exit 5', async () => {
    const r = await cli(['call', 'bad_structured', ...RECORDING]);
    assert.equal(r.code, 5);
    assert.equal(r.out, 'oops\n', 'the content is still shown');
    assert.match(
      r.err,
      /the result of "bad_structured" does not match its output schema:\n {2}\/sum: .*\nstructured content:\n\{\n {2}"sum": "not a number"\n\}/,
    );
    const json = await cli(['call', 'bad_structured', '--json', ...RECORDING]);
    assert.equal(json.code, 5);
    assert.deepEqual(JSON.parse(json.out).structuredContent, { sum: 'not a number' }, '--json prints the raw result');
    assert.match(json.err, /does not match its output schema/);
  });

  test('missing structured content where an output schema is declared: the errors and the raw result are printed, exit 5', async () => {
    const r = await cli(['call', 'no_structured', ...RECORDING]);
    assert.equal(r.code, 5);
    assert.equal(r.out, 'no structure here\n');
    assert.match(r.err, /declares an output schema but returned no structured content\.\nresult:\n\{\n {2}"content": \[/);
  });

  test('a missing command exits 4 with an actionable message', async () => {
    const r = await cli(['tools', '--', 'no-such-mcp-server-binary']);
    assert.equal(r.code, 4);
    assert.match(r.err, /command not found: no-such-mcp-server-binary — give the absolute path in mcp.json/);
  });

  test('an unknown tool exits 1 and lists the tools', async () => {
    const r = await cli(['call', 'nope', ...FIXTURE]);
    assert.equal(r.code, 1);
    assert.match(r.err, /has no tool "nope" \(tools: echo, add/);
  });

  test("--file turns a local file into the argument, and a file over the tool's limit is refused before sending (exit 1)", async () => {
    const dir = tempDir('mcp-cli-files-');
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(52)]);
    writeFileSync(join(dir, 'small.png'), png);
    writeFileSync(join(dir, 'big.png'), Buffer.concat([png, Buffer.alloc(2000)]));
    const ok = await cli(['call', 'describe_photo', '--file', `photo=${join(dir, 'small.png')}`, ...FIXTURE]);
    assert.deepEqual([ok.code, ok.out], [0, `image/png ${png.length} bytes\n`]);
    const big = await cli(['call', 'describe_photo', '--file', `photo=${join(dir, 'big.png')}`, ...FIXTURE]);
    assert.equal(big.code, 1);
    assert.match(big.err, /photo/);
  });

  test("--elicit decline answers the server's question with decline", async () => {
    const r = await cli(['call', 'ask_file', '--elicit', 'decline', ...FIXTURE]);
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.out), { action: 'decline' });
  });

  test('--timeout cuts off a call that takes too long (it bounds starting too, so it leaves room for that)', async () => {
    const r = await cli(['call', 'slow', '--args', '{"steps":1,"delayMs":10000}', '--timeout', '3000', ...FIXTURE]);
    assert.equal(r.code, 4);
    assert.match(r.err, /no answer within 3000 ms/);
  });

  test('--verbose prints the connection log to stderr', async () => {
    const r = await cli(['call', 'echo', '--args', '{"text":"v"}', '--verbose', ...FIXTURE]);
    assert.equal(r.code, 0);
    assert.match(r.err, /\[info\] connected over stdio/);
    assert.equal(r.out, 'v\n');
  });
});

describe('--server with a config file', () => {
  const serverDef = { command: process.execPath, args: [...fixtureArgv('era2025-server.ts')], cwd: repoRoot };

  test('servers lists the configured servers; a broken file exits 1 naming file, line and column', async () => {
    const dir = workspace({ servers: { local: serverDef, web: { url: 'http://127.0.0.1:9/mcp' } } });
    const r = await cli(['servers'], {}, dir);
    assert.equal(r.code, 0);
    assert.match(r.out, /^local\tstdio\t/m);
    assert.match(r.out, /^web\thttp\thttp:\/\/127\.0\.0\.1:9\/mcp$/m);
    const broken = workspace('{\n  "servers": {\n    "a": { "command": "x" },,\n  }\n}');
    const b = await cli(['servers'], {}, broken);
    assert.equal(b.code, 1);
    assert.match(b.err, /mcp\.json:3:29: /);
  });

  test('calls a tool of a configured server, taking ${input:…} from MCP_INPUT_<ID>', async () => {
    const dir = workspace({
      inputs: [{ type: 'promptString', id: 'greeting', description: 'Greeting' }],
      servers: { local: { ...serverDef, env: { GREETING: '${input:greeting}' } } },
    });
    const r = await cli(['call', 'echo', '--args', '{"text":"ok"}', '--server', 'local'], { MCP_INPUT_greeting: 'hi' }, dir);
    assert.deepEqual([r.code, r.out], [0, 'ok\n']);
    const missing = await cli(['call', 'echo', '--server', 'local'], { MCP_INPUT_greeting: undefined }, dir);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /needs the input "greeting": set MCP_INPUT_greeting/);
  });

  test('an unknown server name exits 1 and lists the known ones', async () => {
    const dir = workspace({ servers: { local: serverDef } });
    const r = await cli(['tools', '--server', 'other'], {}, dir);
    assert.equal(r.code, 1);
    assert.match(r.err, /no server named "other" .* \(servers: local\)/);
  });
});

describe('--url', () => {
  let server: RunningHttpServer;
  before(async () => {
    server = await startHttpFixture('era2025-server.ts', '--http');
  });
  after(() => server.stop());

  test('lists and calls over Streamable HTTP', async () => {
    const r = await cli(['call', 'echo', '--args', '{"text":"remote"}', '--url', server.url]);
    assert.deepEqual([r.code, r.out], [0, 'remote\n']);
  });

  test('an unreachable URL exits 4', async () => {
    const r = await cli(['tools', '--url', `http://127.0.0.1:${server.port}/nothing-here`]);
    assert.equal(r.code, 4);
  });
});

test('the mcp-host process exits with the documented code', () => {
  const r = spawnSync(process.execPath, [...cliArgv(), 'call', 'fail', ...FIXTURE], { cwd: repoRoot, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 5);
  assert.match(r.stderr, /the tool failed on purpose/);
});

test('Ctrl-C cancels the call in flight and exits 130', async () => {
  const child = spawn(process.execPath, [...cliArgv(), 'call', 'slow', '--args', '{"steps":100,"delayMs":100}', '--verbose', ...FIXTURE], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let interruptedAt = 0;
  child.stderr.on('data', (d) => {
    err += d;
    if (!interruptedAt && /progress 1\/100/.test(err)) {
      interruptedAt = Date.now();
      child.kill('SIGINT');
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  assert.equal(code, 130);
  assert.match(err, /was cancelled/);
  // measured from Ctrl-C, not from the start (compiling the CLI on a loaded machine takes seconds)
  assert.ok(Date.now() - interruptedAt < 8_000, 'it did not wait for the 10 s call');
});

describe('hostile server text in the terminal', () => {
  const ESC = '\u001b';

  test('tools: control characters are shown, not sent, and a 2 MB description is cut to one short line', async () => {
    const r = await cli(['tools', ...HOSTILE]);
    assert.equal(r.code, 0, r.err);
    assert.ok(!r.out.includes(ESC), 'no escape byte reaches the terminal');
    assert.match(r.out, /^markup_form {2}\(<img .*\\x1b\[31mre…\) {2}— <img .*\\x1b\[31mred\\x1b\[0m$/m);
    assert.ok(
      r.out.split('\n').every((line) => line.length <= 400),
      'every line is short',
    );
    assert.ok(r.out.length < 10_000, `${r.out.length} characters printed`);
    assert.match(r.out, /^deep_tool {2}— x{100,}…$/m);
  });

  test('call: result text, resource names and elicitation text are printed terminal-safe', async () => {
    const dir = tempDir('mcp-cli-hostile-');
    writeFileSync(join(dir, 'accept.json'), JSON.stringify({ action: 'accept' }));
    const r = await cli(['call', 'markup_form', '--elicit', `@${join(dir, 'accept.json')}`, ...HOSTILE]);
    assert.equal(r.code, 0, r.err);
    assert.ok(!r.out.includes(ESC) && !r.err.includes(ESC), 'no escape byte reaches the terminal');
    assert.match(r.out, /\*\*bold\*\* \[link\]\(javascript:alert\(3\)\) \\x1b\[31mred\\x1b\[0m/);
    assert.match(r.out, /\[resource link file:\/\/\/x "<img .*\\x1b\[31mred/);
  });

  test('a name from a server stays on one line: its line breaks (LF, CR, U+2028, U+2029) are shown escaped, no output line is forged', async () => {
    const r = await cli(['call', 'forged_names', ...HOSTILE]);
    assert.equal(r.code, 0, r.err);
    const lines = (r.out + r.err).split(/\r\n|[\n\r\u2028\u2029]/);
    assert.ok(!lines.some((line) => line.startsWith('saved ')), `no line of its own: ${JSON.stringify(r.out)}`);
    assert.equal(
      r.out,
      'two files\n' +
        '[resource link demo://notes\\nsaved /root/.ssh/authorized_keys "notes.txt\\nsaved /root/.ssh/authorized_keys"]\n' +
        '[resource link demo://photo "photo.png\\r\\nsaved /etc/passwd\\u2028saved /etc/shadow\\u2029saved /etc/hosts"]\n',
    );
  });

  test('error messages are redacted and terminal-safe; --verbose logs are too', async () => {
    const message = `bad data:image/png;base64,${PNG_BASE64} ${ESC}[2J`;
    const r = await cli(['call', 'fail_with', '--args', JSON.stringify({ message }), '--verbose', ...RECORDING], { MCP_HOST_LOG_LEVEL: 'trace' });
    assert.equal(r.code, 5);
    assert.match(r.err, /mcp-host: tool "fail_with" failed: bad data:image\/png;base64,\[70 bytes\] \\x1b\[2J\n/);
    assert.ok(!r.err.includes(PNG_BASE64.slice(0, 24)), 'no payload on stderr');
    assert.ok(!r.err.includes(ESC), 'no escape byte on stderr');
  });
});

describe('prompts (server-everything)', () => {
  test('prompt prints each message under its role; --json prints the prompts/get answer', async () => {
    const r = await cli(['prompt', 'args-prompt', '--args', '{"city":"Lisbon"}', ...EVERYTHING]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, "user:\nWhat's weather in Lisbon?\n");
    const json = await cli(['prompt', 'args-prompt', '--args', '{"city":"Lisbon","state":"PT"}', '--json', ...EVERYTHING]);
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(JSON.parse(json.out).messages[0], { role: 'user', content: { type: 'text', text: "What's weather in Lisbon, PT?" } });
  });

  test('a missing required argument, a non-string one and an unknown prompt exit 1 naming them, before anything is asked', async () => {
    const missing = await cli(['prompt', 'args-prompt', ...EVERYTHING]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /--args: the prompt "args-prompt" needs "city" \(Name of the city\)/);
    const number = await cli(['prompt', 'args-prompt', '--args', '{"city":7}', ...EVERYTHING]);
    assert.equal(number.code, 1);
    assert.match(number.err, /prompt arguments are strings \("city" is 7\)/);
    const unknown = await cli(['prompt', 'nope', ...EVERYTHING]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /has no prompt "nope" \(prompts: simple-prompt, args-prompt/);
  });
});
