// Runs the mocha suite in test/integration/suite inside a real VS Code extension host:
// bundles the tests, starts code-server with the smoke-test driver, opens the workbench in
// headless Chromium with a payload that loads this folder as the development extension (with the
// deterministic language model of test/extensions/test-model beside it) and the suite as its tests,
// and exits with the suite's exit code (reported through codeAutomationExit).
//   node test/integration/run.mjs [--grep <text>]
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { motionlessSettings, openBrowser, startCodeServer } from '../../scripts/code-server.mjs';
import { withTestModel } from '../extensions/test-model/build.mjs';
import { bundleSuite, workspace } from './bundle.mjs';
import { buildFixtureBundles } from '../../scripts/fixture-bundles.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const artifacts = join(root, '.artifacts/integration');
const RUN_TIMEOUT_MS = Number(process.env.MCP_HOST_INTEGRATION_TIMEOUT_MS ?? 10 * 60_000);

// What VS Code logs of an unhandled rejection or uncaught exception in the extension host, and the lines of the
// suite's own watch (index.ts): any of them fails the run, even one from before the suite's entry was loaded.
const HOST_PROBLEM = /rejected promise not handled within|(unhandled rejection|uncaught exception) in the extension host during/;
// The two problems index.ts causes on purpose to check its watch (and takes back out), as VS Code may log them.
const WATCH_CHECK = 'host watch check: a deliberate';
// The workbench's own start-up chatter (kept in .artifacts/integration/workbench.log, not printed).
const WORKBENCH_NOISE =
  /ENOTFOUND|\[lifecycle\]|connection token|Creating a socket|reconnection-grace-time|builtin extensions cache|Service Worker|AgentHost|AccountPolicyGate|authentication provider|^\s+at /;

function arg(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const started = Date.now();
  const grep = arg('--grep');
  // The fixture servers the workspace's mcp.json and the suite start run from their bundles (see fixture-bundles.mjs),
  // built here unless `npm test` built them for every stage.
  const [entry, extensions, fixtureBundles] = await Promise.all([
    bundleSuite(),
    withTestModel(root),
    process.env.MCP_HOST_FIXTURE_BUNDLES ?? buildFixtureBundles(),
  ]);
  mkdirSync(artifacts, { recursive: true });

  const server = await startCodeServer({
    workspace,
    settings: motionlessSettings,
    env: { MCP_HOST_FIXTURE_BUNDLES: fixtureBundles, ...(grep ? { MCP_HOST_TEST_GREP: grep } : {}) },
    logFile: join(artifacts, 'code-server.log'),
  });
  const browser = await openBrowser();
  let code = 1;
  const hostProblems = [];
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    let finish;
    const finished = new Promise((resolve) => (finish = resolve));
    await page.exposeFunction('codeAutomationExit', (exitCode) => finish(exitCode));
    const workbenchLog = createWriteStream(join(artifacts, 'workbench.log'));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      workbenchLog.write(`[${type}] ${line}\n`);
      if (line.includes(WATCH_CHECK)) return;
      if (HOST_PROBLEM.test(line)) hostProblems.push(line.split('\n')[0]);
      if (WORKBENCH_NOISE.test(line)) return;
      if (type === 'error') process.stderr.write(`${line}\n`);
      else process.stdout.write(`${line}\n`);
    });
    page.on('pageerror', (e) => process.stderr.write(`[workbench] ${e.message}\n`));

    const payload = [
      ['extensionDevelopmentPath', server.remoteUri(extensions)],
      ['extensionTestsPath', server.remoteUri(entry)],
    ];
    await page.goto(server.workbenchUrl(workspace, payload));
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), RUN_TIMEOUT_MS).unref());
    const result = await Promise.race([finished, timeout]);
    if (result === 'timeout') {
      await page.screenshot({ path: join(artifacts, 'timeout.png') }).catch(() => {});
      console.error(
        `\nintegration: no exit code from the extension host after ${RUN_TIMEOUT_MS / 1000} s ` +
          `(did the suite start? see ${join(artifacts, 'timeout.png')} and ${server.logFile})`,
      );
      code = 1;
    } else {
      code = Number(result);
      if (code === 0 && hostProblems.length > 0) {
        console.error(`\nintegration: the tests passed, but the extension host reported ${hostProblems.length} problem(s):\n  ${hostProblems.join('\n  ')}`);
        code = 1;
      }
      if (code !== 0) await page.screenshot({ path: join(artifacts, 'failure.png') }).catch(() => {});
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(`integration: exit code ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return code;
}

process.exitCode = await main().catch((e) => {
  console.error(e);
  return 1;
});
