// `mcp-host --version`, `--help`, `COMMAND --help` and `help COMMAND`: what they print and their exit codes.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { USAGE } from '../../src/cli/main';
import { runCli } from '../fixtures/cli';
import { repoRoot } from '../fixtures/servers';

const cli = (argv: string[]) => runCli(argv);

const COMMANDS = [...USAGE.matchAll(/^ {2}mcp-host (\w+)/gm)].map((m) => m[1]);

test('--version and -V print the version of package.json and nothing else', async () => {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const r = await cli([flag]);
    assert.equal(r.code, 0);
    assert.equal(r.out, `${version}\n`);
    assert.equal(r.err, '');
  }
  // before a command too: no server is started
  assert.equal((await cli(['tools', '--version', '--', 'no-such-command'])).out, `${version}\n`);
});

test('--help lists every command and the exit codes, on stdout, exit 0', async () => {
  assert.deepEqual(COMMANDS.slice(0, 4), ['servers', 'tools', 'call', 'prompt']);
  for (const argv of [['--help'], ['-h'], ['help']]) {
    const r = await cli(argv);
    assert.equal(r.code, 0, argv.join(' '));
    assert.equal(r.err, '');
    for (const command of COMMANDS) assert.match(r.out, new RegExp(`mcp-host ${command} `));
    for (const code of ['0', '1', '4', '5', '130']) assert.match(r.out, new RegExp(`^ {2}${code} +\\S`, 'm'));
    assert.match(r.out, /mcp-host COMMAND --help/);
  }
});

test('COMMAND --help shows that command only, with its options, TARGET and exit codes; nothing is run', async () => {
  for (const command of COMMANDS) {
    const r = await cli([command!, '--help', '--', 'no-such-command']);
    assert.equal(r.code, 0, command);
    assert.match(r.out, new RegExp(`^usage:\\n {2}mcp-host ${command}`));
    const others = COMMANDS.filter((c) => c !== command);
    for (const other of others) assert.doesNotMatch(r.out, new RegExp(`mcp-host ${other} `));
    assert.match(r.out, /^exit codes:/m);
    assert.equal((await cli(['help', command!])).out, r.out);
  }
  const call = (await cli(['call', '--help'])).out;
  for (const option of ['--args JSON', '--file ARG=PATH', '--elicit', '--url-wait', '--timeout MS', '--json', '--verbose', '--no-binary-uploads']) {
    assert.ok(call.includes(option), `call --help names ${option}`);
  }
  assert.match(call, /^TARGET/m);
  assert.doesNotMatch((await cli(['servers', '--help'])).out, /^TARGET/m);
});

test("every option of a command's synopsis is explained in its help", async () => {
  for (const command of COMMANDS) {
    const help = (await cli([command!, '--help'])).out;
    const [synopsis, explained] = [help.slice(0, help.indexOf('\n\n')), help.slice(help.indexOf('\n\n'))];
    for (const [option] of synopsis.matchAll(/--[\w-]+/g)) {
      assert.match(explained, new RegExp(`^\\s+${option}\\b`, 'm'), `mcp-host ${command} --help explains ${option}`);
    }
  }
});

test('help for an unknown command is a usage error (exit 1) that names it', async () => {
  for (const argv of [
    ['frobnicate', '--help'],
    ['help', 'frobnicate'],
  ]) {
    const r = await cli(argv);
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(r.err, /unknown command "frobnicate"/);
  }
});
