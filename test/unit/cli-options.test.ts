// Every option of the option table has an effect on every command that lists it. The pairs come from the
// table itself (src/cli/options.ts), so a new option, or a command newly given one, is covered at once: the
// test fails until the option has a probe here. Each pair runs the real command twice against real servers,
// with and without the option (anything the option needs goes to both runs), and what can be seen differs:
// the exit code, stdout, stderr, what the server received, or what the sign-in asked the browser to open.
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { authStoreKey, FileTokenStore } from '../../src/core/auth';
import { OPTIONS, type CommandName } from '../../src/cli/options';
import { runCli, type CliRun } from '../fixtures/cli';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauthFixture';
import { fixturePath, repoRoot, startEverythingHttp, startObjectStore, type RunningHttpServer, fixtureArgv } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

type Target = 'everything' | 'paged' | 'recording' | 'oauth' | 'transfer' | 'skills';

interface Probe {
  /** What the run with the option adds. */
  with: string[];
  /** What both runs carry (what the option needs to show). */
  context?: string[];
  /** Instead of the command's usual operands. */
  operands?: Partial<Record<CommandName, string[]>>;
  /** The server (default: server-everything over HTTP, its requests recorded), or one for some commands. */
  target?: Target | Partial<Record<CommandName, Target>>;
  /** Instead of a TARGET: these arguments (for --server, --url, --config). */
  targetArgs?: (url: string, command: CommandName) => { with: string[]; without: string[] };
  /** Files the probe needs, written before each run. */
  setup?: (url: string, command: CommandName) => Promise<unknown> | unknown;
  /** The config folder (the token store): `signed-in` holds tokens for the sign-in server (default: empty). */
  home?: 'signed-in' | 'logout';
}

const dir = tempDir('mcp-cli-options-');
const config = join(dir, 'mcp.json');
const samplingCommand = 'node -e "process.stdin.resume()"';
const unsetSecret = 'env:MCP_HOST_OPTIONS_TEST_UNSET';
const answers = join(dir, 'accept.json');
writeFileSync(answers, JSON.stringify({ action: 'accept' }));
const png = join(dir, 'dot.png');
writeFileSync(png, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64'));
// The browser records the URL it is given in the run's own file.
const browser = `"${process.execPath}" -e "require('fs').appendFileSync(process.env.OPTIONS_TEST_BROWSER_LOG, process.argv[1] + '\\n')"`;

/** How each option is made to show, for every command that lists it. */
const PROBES: Record<string, Probe> = {
  '--config': {
    with: [],
    targetArgs: (_url, command) =>
      command === 'servers'
        ? { with: ['--config', config], without: [] }
        : command === 'run'
          ? { with: ['--config', join(dir, 'none.json')], without: [] }
          : { with: ['--server', 'everything', '--config', config], without: ['--server', 'everything'] },
  },
  '--server': { with: [], targetArgs: () => ({ with: ['--server', 'everything', '--config', config], without: ['--config', config] }) },
  '--url': { with: [], targetArgs: (url) => ({ with: ['--url', url], without: [] }) },
  '--args': { with: ['--args', '{"department":"Sales"}'], operands: { call: ['get-sum', '--args', '{"a":1,"b":2}'] } },
  '--file': { with: ['--file', `file=${png}`] },
  '--secret': { with: ['--secret', 'message=env:MCP_HOST_OPTIONS_TEST_SET'] },
  '--record': { with: ['--record', join(dir, 'recorded-%RUN%.json')] },
  '--only': { with: ['--only', 'sum'] },
  '--junit': { with: ['--junit', join(dir, 'junit-%RUN%.xml')] },
  '--out': { with: ['--out', join(dir, 'out-%RUN%.txt')] },
  '--prompt': { with: ['--prompt', 'completable-prompt'], operands: { complete: ['department', 'S'] } },
  '--resource-template': { with: ['--resource-template', 'demo://resource/dynamic/text/{resourceId}'], operands: { complete: ['resourceId', '1'] } },
  '--json': { with: ['--json'], target: { task: 'paged', skill: 'skills' } },
  // The options every command that connects takes: what the server receives, or what is printed, changes.
  '--timeout': { with: ['--timeout', '1'] },
  '--verbose': { with: ['--verbose'] },
  '--log-level': { with: ['--log-level', 'debug'] },
  '--elicit': { with: ['--elicit', 'decline'] },
  '--sampling-command': { with: ['--sampling-command', samplingCommand] },
  '--no-binary-uploads': { with: ['--no-binary-uploads'], context: ['--elicit', 'decline'] },
  '--no-file-transfer': { with: ['--no-file-transfer'] },
  // Sign-in, against an MCP server behind oidc-provider: a secret source is read by every command (an unset one is refused).
  '--client-secret': {
    with: ['--client-secret', unsetSecret],
    context: ['--client-id', 'c', '--grant', 'client_credentials', '--no-token-store'],
    target: 'oauth',
  },
  '--private-key': {
    with: ['--private-key', unsetSecret],
    context: ['--client-id', 'c', '--grant', 'client_credentials', '--no-token-store'],
    target: 'oauth',
  },
  '--assertion': { with: ['--assertion', unsetSecret], context: ['--grant', 'jwt_bearer', '--no-token-store'], target: 'oauth' },
  '--idp-id-token': { with: ['--idp-id-token', unsetSecret], context: ['--grant', 'enterprise', '--no-token-store'], target: 'oauth' },
  '--idp-client-secret': { with: ['--idp-client-secret', unsetSecret], context: ['--grant', 'client_credentials', '--no-token-store'], target: 'oauth' },
  '--grant': { with: ['--grant', 'client_credentials'], context: ['--assertion', 'env:MCP_HOST_OPTIONS_TEST_SET', '--no-token-store'], target: 'oauth' },
  // Stored tokens are used by every command that connects; --no-token-store leaves them aside (and logout too).
  '--no-token-store': {
    with: ['--no-token-store'],
    target: 'oauth',
    home: 'signed-in',
    operands: { call: ['whoami'], prompt: ['any'], resource: ['read', 'any://x'] },
    setup: (url, command) =>
      command === 'logout' && new FileTokenStore(join(dir, 'logout', 'mcp-host', 'tokens.json')).set(authStoreKey(url), JSON.stringify({ issuers: {} })),
  },
};

/**
 * Options whose effect needs a server or a wait this test does not have; the tests named prove them. A new
 * option must get a probe above or a line here.
 */
const PROVEN_ELSEWHERE: Record<string, string> = {
  '--inline-max': 'files-transfer.test.ts: with no transferModes a file over the inline size is uploaded; --inline-max moves the line',
  '--url-wait': 'elicitation-cli.test.ts: -32042 with no completion notification: the CLI retries after --url-wait seconds',
  '--max-download': 'bounded.test.ts: a file output served as fast as it goes is stopped at --max-download, naming it',
  '--sign-in-timeout': 'auth-cimd.test.ts: a sign-in that never comes back ends at its stated bound',
  '--save-files': 'files-transfer.test.ts: a resource that is a file is saved with --save-files or --out; files-cli/transfer: call --save-files',
  '--expect-current': 'replay-cli.test.ts: call --record --expect-current saves the result as the expectation that run checks',
  '--parallel': 'replay-cli.test.ts: run --parallel 2 runs both calls of a file (this test sees no difference in what is printed)',
  '--no-wait': 'tasks-cli.test.ts and client-features-cli.test.ts: --no-wait prints the task id',
  '--no-optional-tasks': 'tasks-cli.test.ts: --no-optional-tasks calls an optional-task tool plainly',
  '--secure-args': 'secure-params-cli.test.ts: --secure-args reaches the server as secureArguments (and is refused for a tool without them)',
  '--secure-arg': 'secure-params-cli.test.ts: --secure-arg NAME=SOURCE from a value, env: and file: reaches the server as secureArguments',
  '--client-id': 'auth-cli.test.ts (pre-registered clients) and test/conformance (auth scenarios), through the same openConnection',
  '--signing-alg': 'test/conformance auth/private-key-jwt scenarios',
  '--issuer': 'auth-cli.test.ts and auth-hostile.test.ts: credentials go only to the configured issuer',
  '--scope': 'auth-cli.test.ts: step-up and --scope',
  '--idp-issuer': 'test/conformance auth/enterprise scenarios',
  '--idp-token-endpoint': 'test/conformance auth/enterprise scenarios',
  '--idp-client-id': 'test/conformance auth/enterprise scenarios',
  '--client-metadata-url': 'test/conformance auth/basic-cimd',
  '--sign-in': 'auth-cli.test.ts: --sign-in signs in without a terminal',
  '--registry': 'registry.test.ts: every registry command runs against the registry fixture named with --registry',
  '--limit': 'registry.test.ts: --limit 10 --pages 2 gives two pages of ten',
  '--pages': 'registry.test.ts: --pages 2 reads the second page; the loop fixture stops paging',
  '--server-version': 'registry.test.ts: show --server-version asks for that version',
  '--from': 'registry.test.ts: --from sse installs the SSE remote',
  '--as': 'registry.test.ts and carry.test.ts: --as names the entry written',
  '--arg': "registry.test.ts (a package argument) and carry.test.ts (a bundle's user_config)",
  '--env': 'registry.test.ts: --env K=env:NAME is written as ${env:NAME}',
  '--sha256': 'carry.test.ts: a wrong --sha256 refuses the bundle before anything is written',
  '--sandbox': 'sandbox-cli.test.ts: a refused read is printed with its entry; without bubblewrap the command exits 4',
};

/**
 * Pairs not run here, and why. `login` always signs in through the browser, and this test's browser only records
 * the URL: with a token store or without, both runs wait for the sign-in's time limit and end alike.
 * auth-cli.test.ts signs in with --no-token-store through a browser that completes.
 */
const NOT_RUN = new Set([
  'login --no-token-store',
  // The commands that find, install and carry servers connect to none: registry.test.ts and carry.test.ts run them.
  ...['registry', 'bundle', 'import', 'export'].map((c) => `${c} --config`),
  ...['registry', 'bundle', 'discover', 'import'].map((c) => `${c} --json`),
  'export --out',
]);

/** What each command is run with, unless the probe says otherwise. */
const OPERANDS: Record<CommandName, string[]> = {
  servers: [],
  tools: [],
  call: ['get-tiny-image'],
  prompt: ['simple-prompt'],
  resource: ['read', 'demo://resource/dynamic/text/1'],
  complete: ['--prompt', 'completable-prompt', 'name', ''],
  task: ['get', 'endless-1'],
  skills: [],
  skill: ['get', 'git-workflow'],
  login: [],
  logout: [],
  registry: ['search'],
  bundle: ['install'],
  discover: [],
  import: [],
  export: [],
  run: [join(dir, 'calls.json')],
};

let everything: RunningHttpServer;
let store: { url: string; stop(): Promise<void> };
let oauth: OAuthFixture;
let proxy: Server;
let proxyUrl: string;
/** What server-everything received in each run, by run: one line per JSON-RPC message, without its id. */
const received = new Map<string, string[]>();

/** A recording pass-through in front of server-everything: /run-N/mcp goes to its /mcp. */
function startProxy(upstream: URL): Promise<void> {
  proxy = createServer((req: IncomingMessage, res) => {
    const m = /^\/(run-\d+)(\/.*)$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.length) {
        for (const message of [JSON.parse(body.toString('utf8')) as unknown].flat() as Array<Record<string, unknown>>) {
          if (typeof message.method !== 'string' || message.method === 'notifications/cancelled') continue;
          const { id: _id, ...rest } = message;
          received.set(m[1]!, [...(received.get(m[1]!) ?? []), JSON.stringify(rest)]);
        }
      }
      const headers = { ...req.headers, host: upstream.host };
      const out = httpRequest({ host: upstream.hostname, port: upstream.port, path: m[2], method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      out.end(body);
    });
  });
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () => {
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

before(async () => {
  [everything, oauth, store] = await Promise.all([startEverythingHttp('streamableHttp'), startOAuthFixture(), startObjectStore(join(dir, 'store.log'))]);
  await startProxy(new URL(everything.url));
  writeFileSync(config, JSON.stringify({ servers: { everything: { type: 'http', url: `${proxyUrl}/run-0/mcp` } } }));
  // `run`'s saved calls, beside the mcp.json it reads by default.
  writeFileSync(
    join(dir, 'calls.json'),
    JSON.stringify({
      calls: [
        { name: 'sum', server: 'everything', tool: 'get-sum', arguments: { a: 1, b: 2 }, expect: { text: { contains: '3' } } },
        { name: 'image', server: 'everything', tool: 'get-tiny-image' },
      ],
    }),
  );
  const { generateKeyPairSync } = await import('node:crypto');
  writeFileSync(join(dir, 'key.pem'), generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  mkdirSync(join(dir, 'work'), { recursive: true });
  // Signed in once, through a browser that fills oidc-provider's pages: the tokens stay in `signed-in`.
  const login = await runCli(['login', '--url', oauth.url], {
    XDG_CONFIG_HOME: join(dir, 'signed-in'),
    BROWSER: `"${process.execPath}" "${fixturePath('oidc-browser.mjs')}"`,
    OIDC_BROWSER_USER: 'options',
  });
  assert.equal(login.code, 0, login.err);
});
after(async () => {
  proxy?.close();
  await Promise.all([everything?.stop(), oauth?.stop(), store?.stop()]);
});

let runs = 0;

/** One run of the CLI and everything seen of it, with what differs between identical runs taken out. */
async function observe(command: CommandName, probe: Probe, withOption: boolean): Promise<string> {
  const run = `run-${++runs}`;
  const url = `${proxyUrl}/${run}/mcp`;
  const target = (typeof probe.target === 'object' ? probe.target[command] : probe.target) ?? 'everything';
  const targetArgs = probe.targetArgs
    ? probe.targetArgs(url, command)[withOption ? 'with' : 'without']
    : command === 'servers' || command === 'run'
      ? []
      : target === 'everything'
        ? ['--url', url]
        : target === 'oauth'
          ? ['--url', oauth.url]
          : target === 'transfer'
            ? ['--', process.execPath, ...fixtureArgv('transfer-server.ts'), '--store', store.url, '--era', '2025']
            : [
                '--',
                process.execPath,
                ...fixtureArgv(target === 'paged' ? 'paged-server.ts' : target === 'skills' ? 'skills-server.ts' : 'recording-server.ts'),
              ];
  const option = withOption ? probe.with.map((a) => a.replace('%RUN%', run)) : [];
  const argv = [command, ...(probe.operands?.[command] ?? OPERANDS[command]), ...(probe.context ?? []), ...option, ...targetArgs];
  // The stdio form is last.
  const stdio = argv.indexOf('--');
  const ordered = stdio === -1 ? argv : [...argv.slice(0, stdio).filter((a) => a !== '--'), ...argv.slice(stdio)];
  const browserLog = join(dir, `browser-${run}.log`);
  await probe.setup?.(oauth.url, command);
  const home = command === 'logout' && probe.home ? 'logout' : (probe.home ?? 'config');
  const r: CliRun = await runCli(
    ordered,
    {
      XDG_CONFIG_HOME: join(dir, home),
      BROWSER: browser,
      OPTIONS_TEST_BROWSER_LOG: browserLog,
      MCP_HOST_OPTIONS_TEST_SET: 'set',
      MCP_HOST_LOG_LEVEL: undefined,
    },
    ['paged', 'recording', 'transfer', 'skills'].includes(target) ? repoRoot : join(dir, 'work'),
  );
  const seen = [
    `exit ${r.code}`,
    `stdout ${r.out}`,
    `stderr ${r.err}`,
    // The lists are asked for at once: the order they arrive in is not the CLI's.
    `server ${(received.get(run) ?? []).sort().join('\n')}`,
    `browser ${existsSync(browserLog) ? readFileSync(browserLog, 'utf8') : ''}`,
  ].join('\n');
  appendFileSync(join(dir, 'runs.log'), `${ordered.join(' ')}\n${seen}\n\n`);
  return seen
    .replaceAll(run, 'run')
    .replaceAll(oauth.url, 'OAUTH')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, 'UUID')
    .replace(/=[A-Za-z0-9_-]{20,}/g, '=RANDOM')
    .replace(/127\.0\.0\.1(%3A|:)\d+/g, '127.0.0.1:PORT')
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b|\b\d{1,2}:\d\d:\d\d( [AP]M)?/g, 'TIME')
    .replace(/"progressToken":\d+/g, '');
}

/** A run that takes longer than this is reported as hung. */
const RUN_BOUND_MS = 60_000;

function bounded(what: string, run: Promise<string>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    run,
    new Promise<string>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${RUN_BOUND_MS} ms`)), RUN_BOUND_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

test('every option of the table has a probe, and every command that lists it feels it', { timeout: 900_000 }, async () => {
  const missing = OPTIONS.map((o) => o.name).filter((name) => !PROBES[name] && !PROVEN_ELSEWHERE[name]);
  assert.deepEqual(missing, [], 'options without a probe in this test');
  const pairs = OPTIONS.filter((o) => PROBES[o.name])
    .flatMap((o) => o.commands.map((command) => ({ option: o.name, command })))
    .filter((pair) => !NOT_RUN.has(`${pair.command} ${pair.option}`));
  const failures: string[] = [];
  // The runs without the option, twice each (they must agree, or the probe proves nothing), shared by the probes that have the same.
  const baselines = new Map<string, Promise<string>>();
  const baseline = (command: CommandName, probe: Probe) => {
    const key = JSON.stringify([
      command,
      probe.operands?.[command],
      probe.context,
      probe.target,
      probe.home,
      probe.targetArgs?.('URL', command).without,
      !!probe.setup,
    ]);
    let seen = baselines.get(key);
    if (!seen) {
      seen = (async () => {
        const [first, second] = [await observe(command, probe, false), await observe(command, probe, false)];
        if (first !== second)
          throw new Error(`two runs without the option differ, the probe proves nothing:\n${first.slice(0, 1500)}\n---\n${second.slice(0, 1500)}`);
        return first;
      })();
      baselines.set(key, seen);
    }
    return seen;
  };
  const queue = [...pairs];
  await Promise.all(
    [1, 2, 3, 4, 5, 6].map(async () => {
      for (let pair = queue.shift(); pair !== undefined; pair = queue.shift()) {
        const probe = PROBES[pair.option]!;
        const what = `${pair.command} ${pair.option}`;
        try {
          const without = await bounded(what, baseline(pair.command, probe));
          const withOption = await bounded(what, observe(pair.command, probe, true));
          if (withOption === without) failures.push(`${what}: no effect\n${without.slice(0, 1500)}`);
        } catch (e) {
          failures.push(`${what}: ${(e as Error).message}`);
        }
      }
    }),
  );
  assert.deepEqual(failures, [], `${failures.length} of ${pairs.length} pairs`);
});
