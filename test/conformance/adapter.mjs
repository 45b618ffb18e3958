// The conformance suites' client command: maps the scenario (MCP_CONFORMANCE_SCENARIO) and the facts it
// hands a client (MCP_CONFORMANCE_CONTEXT) onto documented `mcp-host` options, then runs the CLI (in this
// process) on the server URL the runner appends. Secrets go through env:NAME sources, never argv.
//   auth/*            call test-tool, signing in (a stand-in $BROWSER follows the approving redirects)
//   tools_call        call add_numbers; json-schema-2020-12-preservation: echo a tool's inputSchema as listed
//   context.toolCalls call each listed tool with its arguments
//   sep-2640-client-no-prefetch   list the skills (and nothing more: no file is read ahead of need)
//   sep-2640-client-verify-*      list the skills, load each (its SKILL.md, verified), and only for a loaded one
//                                 read its other files, as a model acting on the skill would
//   anything else     list the tools, then call each one (questions answered "accept" with no fields); a
//                     tool's own error (exit 5) is the server's answer for the suite's checks to judge
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { run } = createRequire(import.meta.url)(join(here, '../../dist/cli.js'));
const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const env = { ...process.env, BROWSER: `"${process.execPath}" "${join(here, 'browser.mjs')}"` };
delete env.MCP_CONFORMANCE_CONTEXT;
const acceptEmpty = `@${join(here, 'accept-empty.json')}`;

const cli = (args, stdout = process.stdout) =>
  run([...args, '--no-token-store', '--verbose', '--url', serverUrl], {
    stdout,
    stderr: process.stderr,
    env,
    cwd: process.cwd(),
    interactive: false,
  });

/**
 * auth/basic-cimd names this client by a fixed document URL on a host that does not resolve; the CLI offers a
 * document URL as its client id only once it fetched this client's document there. So the adapter publishes
 * the repository's example document at that one URL, as a publisher would (answering the CLI's fetch of it,
 * in this process); every other request goes out unchanged.
 */
function publishClientMetadata(documentUrl) {
  const doc = { ...JSON.parse(readFileSync(join(here, '../../docs/oauth-client-metadata.json'), 'utf8')), client_id: documentUrl };
  const networkFetch = globalThis.fetch;
  globalThis.fetch = (input, init) =>
    String(input instanceof Request ? input.url : input) === documentUrl
      ? Promise.resolve(new Response(JSON.stringify(doc), { status: 200, headers: { 'content-type': 'application/json' } }))
      : networkFetch(input, init);
  return documentUrl;
}

function authArgs() {
  const args = scenario.startsWith('auth/client-credentials') ? ['tools', '--grant', 'client_credentials'] : ['call', 'test-tool'];
  const secret = (name, value) => {
    env[name] = value;
    return `env:${name}`;
  };
  if (context.client_id) args.push('--client-id', context.client_id);
  if (context.client_secret) args.push('--client-secret', secret('CONFORMANCE_CLIENT_SECRET', context.client_secret));
  if (context.issuer) args.push('--issuer', context.issuer);
  if (context.private_key_pem) {
    args.push('--private-key', secret('CONFORMANCE_PRIVATE_KEY', context.private_key_pem), '--signing-alg', context.signing_algorithm ?? 'ES256');
  }
  if (context.valid_jwt) args.push('--grant', 'jwt_bearer', '--assertion', secret('CONFORMANCE_ASSERTION', context.valid_jwt));
  if (context.idp_id_token) {
    args.push(
      '--grant',
      'enterprise',
      '--idp-id-token',
      secret('CONFORMANCE_IDP_ID_TOKEN', context.idp_id_token),
      '--idp-client-id',
      context.idp_client_id,
      '--idp-token-endpoint',
      context.idp_token_endpoint,
    );
    if (context.idp_issuer) args.push('--idp-issuer', context.idp_issuer);
  }
  if (scenario === 'auth/basic-cimd') args.push('--client-metadata-url', publishClientMetadata('https://conformance-test.local/client-metadata.json'));
  return [...args, '--sign-in'];
}

async function listSkills() {
  let text = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      text += chunk;
      done();
    },
  });
  const code = await cli(['skills', '--json'], sink);
  return code === 0 ? JSON.parse(text) : [];
}

async function actOnSkills() {
  let worst = 0;
  for (const skill of await listSkills()) {
    const loaded = await cli(
      ['skill', 'get', skill.uri],
      new Writable({
        write(_c, _e, done) {
          done();
        },
      }),
    );
    worst = Math.max(worst, loaded);
    if (loaded !== 0 || !Array.isArray(skill.resources)) continue;
    for (const file of skill.resources.filter((f) => f.uri !== skill.uri)) worst = Math.max(worst, await cli(['skill', 'read', skill.uri, file.uri]));
  }
  return worst;
}

async function listTools() {
  let text = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      text += chunk;
      done();
    },
  });
  const code = await cli(['tools', '--json'], sink);
  return code === 0 ? JSON.parse(text) : [];
}

let code = 0;
if (scenario.startsWith('auth/')) {
  code = await cli(authArgs());
} else if (scenario === 'tools_call') {
  code = await cli(['call', 'add_numbers', '--args', '{"a":5,"b":3}']);
} else if (scenario === 'json-schema-2020-12-preservation') {
  const focal = (await listTools()).find((t) => t.name === 'json_schema_2020_12_tool');
  code = await cli(['call', 'json_schema_echo', '--args', JSON.stringify({ schema: focal?.inputSchema ?? {} })]);
} else if (scenario === 'sep-2640-client-no-prefetch') {
  code = await cli(['skills']);
} else if (scenario.startsWith('sep-2640-client-verify-')) {
  code = await actOnSkills();
} else if (Array.isArray(context.toolCalls)) {
  for (const call of context.toolCalls) {
    code = Math.max(code, await cli(['call', call.name, '--args', JSON.stringify(call.arguments ?? {}), '--elicit', acceptEmpty]));
  }
} else {
  const tools = await listTools();
  for (const tool of tools) {
    const exit = await cli(['call', tool.name, '--elicit', acceptEmpty]);
    if (exit !== 5) code = Math.max(code, exit);
  }
}
process.exitCode = code;
setTimeout(() => process.exit(code), 50).unref();
