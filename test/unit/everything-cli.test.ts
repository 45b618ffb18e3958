// server-everything, the reference server for client authors: with every capability the host declares, it lists
// every tool its source registers under those capabilities, and each listed tool runs end to end from the CLI.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { ServerConnection } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { runCli, type CliRun } from '../fixtures/cli';
import { everythingStdio, repoRoot } from '../fixtures/servers';

const toolsDir = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/tools');
const EVERYTHING = ['--', process.execPath, join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];

type Caps = Record<string, unknown> & {
  roots?: unknown;
  sampling?: unknown;
  elicitation?: { url?: unknown };
  tasks?: { requests?: { sampling?: { createMessage?: unknown }; elicitation?: { create?: unknown } } };
};

/**
 * Each tool of server-everything and the client capabilities its registration asks for, as its source
 * (dist/tools/*.js, `registerTools` and `registerConditionalTools`) has them.
 */
const REGISTERED: Record<string, (c: Caps) => boolean> = {
  echo: () => true,
  'get-annotated-message': () => true,
  'get-env': () => true,
  'get-resource-links': () => true,
  'get-resource-reference': () => true,
  'get-structured-content': () => true,
  'get-sum': () => true,
  'get-tiny-image': () => true,
  'gzip-file-as-resource': () => true,
  'toggle-simulated-logging': () => true,
  'toggle-subscriber-updates': () => true,
  'trigger-long-running-operation': () => true,
  'simulate-research-query': () => true,
  'get-roots-list': (c) => c.roots !== undefined,
  'trigger-elicitation-request': (c) => c.elicitation !== undefined,
  'trigger-url-elicitation': (c) => c.elicitation?.url !== undefined,
  'trigger-sampling-request': (c) => c.sampling !== undefined,
  'trigger-sampling-request-async': (c) => c.sampling !== undefined && c.tasks?.requests?.sampling?.createMessage !== undefined,
  'trigger-elicitation-request-async': (c) => c.elicitation !== undefined && c.tasks?.requests?.elicitation?.create !== undefined,
};

const dir = mkdtempSync(join(tmpdir(), 'everything-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const answers = join(dir, 'answers.json');
writeFileSync(answers, JSON.stringify({ action: 'accept', content: { name: 'Ada', check: true, integer: 7 } }));
// A sampling command that answers with what it was asked.
const SAMPLER =
  "node -e \"let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=JSON.parse(s);console.log(JSON.stringify({role:'assistant',model:'echo',content:{type:'text',text:'saw '+r.messages[0].content.text}}))})\"";

/** How each tool is run from the CLI, and what its answer must show. */
const RUNS: Record<string, { args: string[]; check: (r: CliRun) => void }> = {
  echo: { args: ['--args', '{"message":"hi there"}'], check: (r) => assert.equal(r.out, 'Echo: hi there\n') },
  'get-annotated-message': {
    args: ['--args', '{"messageType":"error","includeImage":true}'],
    check: (r) => assert.match(r.out, /^Error: Operation failed\n\[image image\/png, 3\.\d KiB\]/),
  },
  'get-env': {
    args: ['--args', '{}'],
    check: (r) => assert.equal((JSON.parse(r.out) as Record<string, string>).EVERYTHING_CLI_MARK, 'present'),
  },
  'get-resource-links': {
    args: ['--args', '{"count":3}'],
    check: (r) => assert.match(r.out, /3 resource links[\s\S]*\[resource link demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\) "Text Resource 2"\]/),
  },
  'get-resource-reference': {
    args: ['--args', '{"resourceType":"Text","resourceId":2}'],
    check: (r) => assert.match(r.out, /Resource 2: This is a plaintext resource[\s\S]*demo:\/\/resource\/dynamic\/text\/2/),
  },
  'get-structured-content': {
    args: ['--args', '{"location":"Chicago"}', '--json'],
    check: (r) =>
      assert.deepEqual((JSON.parse(r.out) as { structuredContent: unknown }).structuredContent, {
        temperature: 36,
        conditions: 'Light rain / drizzle',
        humidity: 82,
      }),
  },
  'get-sum': { args: ['--args', '{"a":2,"b":40}'], check: (r) => assert.equal(r.out, 'The sum of 2 and 40 is 42.\n') },
  'get-tiny-image': { args: [], check: (r) => assert.match(r.out, /\[image image\/png, 3\.\d KiB\]\nThe image above is the MCP logo/) },
  'gzip-file-as-resource': {
    args: ['--args', '{"name":"hello.gz","data":"data:text/plain;base64,aGVsbG8=","outputType":"resource"}', '--json'],
    check: (r) => {
      const block = (JSON.parse(r.out) as { content: { resource: { uri: string; mimeType: string; blob: string } }[] }).content[0]!.resource;
      assert.equal(block.uri, 'demo://resource/session/hello.gz');
      assert.equal(block.mimeType, 'application/gzip');
      assert.deepEqual([...Buffer.from(block.blob, 'base64').subarray(0, 2)], [0x1f, 0x8b], 'gzip magic');
    },
  },
  'toggle-simulated-logging': { args: [], check: (r) => assert.match(r.out, /^Started simulated, random-leveled logging/) },
  'toggle-subscriber-updates': { args: [], check: (r) => assert.match(r.out, /^Started simulated resource updated notifications/) },
  'trigger-long-running-operation': {
    args: ['--args', '{"duration":1,"steps":2}', '--verbose'],
    check: (r) => {
      assert.equal(r.out, 'Long running operation completed. Duration: 1 seconds, Steps: 2.\n');
      assert.match(r.err, /progress 1\/2/);
    },
  },
  'simulate-research-query': {
    args: ['--args', '{"topic":"tides"}'],
    check: (r) => {
      assert.match(r.out, /^# Research Report: tides/);
      assert.match(r.err, /^task \w+: working — Analyzing content/m);
    },
  },
  'get-roots-list': {
    args: [],
    check: (r) => assert.match(r.out, new RegExp(`URI: ${pathToFileURL(repoRoot).href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`)),
  },
  'trigger-elicitation-request': {
    args: ['--elicit', `@${answers}`],
    check: (r) => assert.match(r.out, /User provided the requested information![\s\S]*- Name: Ada\n- Agreed to terms: true\n- Favorite Integer: 7/),
  },
  'trigger-url-elicitation': {
    args: ['--args', '{"url":"https://example.com/verify"}', '--elicit', 'decline'],
    check: (r) => {
      assert.match(r.out, /User declined to open the URL/);
      assert.match(r.err, /URL: {4}https:\/\/example\.com\/verify/);
    },
  },
  'trigger-sampling-request': {
    args: ['--args', '{"prompt":"hi"}', '--sampling-command', SAMPLER],
    check: (r) => assert.match(r.out, /"text": "saw Resource trigger-sampling-request context: hi"/),
  },
  'trigger-sampling-request-async': {
    args: ['--args', '{"prompt":"hi"}', '--sampling-command', SAMPLER],
    check: (r) => assert.match(r.out, /saw Resource trigger-sampling-request-async context: hi/),
  },
  'trigger-elicitation-request-async': {
    args: ['--elicit', `@${answers}`],
    check: (r) => assert.match(r.out, /User provided the requested information![\s\S]*Ada/),
  },
};

test("the table of tools covers every tool server-everything's source registers", () => {
  const inSource = new Set<string>();
  for (const file of readdirSync(toolsDir).filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(join(toolsDir, file), 'utf8');
    for (const m of source.matchAll(/const name = "([^"]+)"|registerToolTask\("([^"]+)"/g)) inSource.add((m[1] ?? m[2])!);
  }
  assert.deepEqual([...inSource].sort(), Object.keys(REGISTERED).sort());
  assert.deepEqual(Object.keys(RUNS).sort(), Object.keys(REGISTERED).sort());
});

test('with every capability declared, server-everything lists every tool registered under them, and each runs from the CLI', async () => {
  const lines: string[] = [];
  const c = new ServerConnection(everythingStdio(), {
    log: new Logger((_level, m) => {
      if (m.includes('"method":"initialize"')) lines.push(m);
    }, 'trace'),
    stopGraceMs: 1000,
    roots: () => [{ uri: pathToFileURL(repoRoot).href, name: 'repo' }],
    elicitation: async () => ({ action: 'decline' }),
    sampling: async () => ({ role: 'assistant', model: 'none', content: { type: 'text', text: '' } }),
  });
  await c.start();
  let declared: Caps;
  let listed: string[];
  try {
    declared = (JSON.parse(lines[0]!.slice(lines[0]!.indexOf('{'))) as { params: { capabilities: Caps } }).params.capabilities;
    const expected = Object.keys(REGISTERED)
      .filter((name) => REGISTERED[name]!(declared))
      .sort();
    // The conditional tools arrive after the handshake, announced by list_changed.
    for (let i = 0; i < 50 && c.tools.length < expected.length; i++) await new Promise((r) => setTimeout(r, 100));
    listed = c.tools.map((t) => t.name).sort();
    assert.deepEqual(listed, expected, `declared: ${JSON.stringify(declared)}`);
    assert.ok(listed.length >= 17, 'roots, elicitation (form and url) and sampling are declared');
  } finally {
    await c.stop();
  }
  // Three at a time: each run starts its own server-everything.
  const queue = [...listed];
  await Promise.all(
    [1, 2, 3].map(async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        const r = await runCli(['call', name, ...RUNS[name]!.args, ...EVERYTHING], { EVERYTHING_CLI_MARK: 'present' }, repoRoot);
        assert.equal(r.code, 0, `${name}: ${r.err}`);
        RUNS[name]!.check(r);
      }
    }),
  );
});

test('tools lists what call can reach: with the same options every command declares the same capabilities', async () => {
  const conditional = Object.keys(REGISTERED).filter((name) => !REGISTERED[name]!({}));
  const toolArgs: Record<string, string[]> = {
    'trigger-url-elicitation': ['--args', '{"url":"https://example.com/verify"}'],
    'trigger-sampling-request': ['--args', '{"prompt":"hi"}'],
    'trigger-sampling-request-async': ['--args', '{"prompt":"hi"}'],
  };
  const optionSets = [[], ['--elicit', 'decline'], ['--sampling-command', SAMPLER], ['--elicit', 'decline', '--sampling-command', SAMPLER]];
  for (const options of optionSets) {
    const listing = await runCli(['tools', '--json', ...options, ...EVERYTHING]);
    assert.equal(listing.code, 0, listing.err);
    const listed = new Set((JSON.parse(listing.out) as { name: string }[]).map((t) => t.name));
    // Elicitation and sampling are declared only when they can be served, so they are listed only then.
    assert.equal(listed.has('trigger-elicitation-request'), options.includes('--elicit'), `tools ${options.join(' ')}`);
    assert.equal(listed.has('trigger-url-elicitation'), options.includes('--elicit'), `tools ${options.join(' ')}`);
    assert.equal(listed.has('trigger-sampling-request'), options.includes('--sampling-command'), `tools ${options.join(' ')}`);
    const queue = [...conditional];
    await Promise.all(
      [1, 2, 3].map(async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
          const r = await runCli(['call', name, ...(toolArgs[name] ?? []), '--timeout', '60000', ...options, ...EVERYTHING]);
          const missing = /has no tool/.test(r.err);
          assert.equal(missing, !listed.has(name), `call ${name} ${options.join(' ')}: listed ${listed.has(name)}, ${r.code} ${r.err}`);
        }
      }),
    );
  }
});
