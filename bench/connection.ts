// Connection benchmark, against a bare SDK client measured in the same run on the same kind of server:
// 1. 500 sequential tools/call of a trivial tool on a stdio fixture: median round trip through
//    ServerConnection vs through a bare @modelcontextprotocol/client Client, each without and with
//    elicitation declared (like against like: a 2026-07-28 request carries the client's capabilities)
//    (goal: ratio <= 1.10);
// 2. the time to start the server, connect and list tools, both ways.
// Each client has its own server process; they take turns in blocks, so load drift hits all alike.
//
//   npx tsx bench/connection.ts

import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ServerConnection } from '../src/core/connection';
import { Logger } from '../src/core/log';
import { stdioFixture } from '../test/fixtures/servers';

const CALLS = 500;
const WARMUP = 50;
const BLOCK = 25;
const GOAL = 1.1;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x: number) => x.toFixed(x < 1 ? 3 : 1);

async function bench(fixture: string, label: string): Promise<boolean> {
  const server = stdioFixture(fixture);
  const quiet = new Logger(() => undefined, 'error');

  let t = performance.now();
  const plain = new ServerConnection(server, { log: quiet });
  await plain.start();
  const connectOurs = performance.now() - t;
  // The extension always declares elicitation, which puts the call on the pausable clock.
  const eliciting = new ServerConnection(server, { log: quiet, elicitation: async () => ({ action: 'cancel' }) });
  await eliciting.start();

  t = performance.now();
  const bare = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await bare.connect(new StdioClientTransport({ command: server.command, args: server.args, env: server.env, cwd: server.cwd, stderr: 'ignore' }));
  await bare.listTools();
  const connectBare = performance.now() - t;
  const bareEliciting = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {}, url: {} } } });
  bareEliciting.setRequestHandler('elicitation/create', { params: z.looseObject({}) }, async () => ({ action: 'cancel' as const }));
  await bareEliciting.connect(new StdioClientTransport({ command: server.command, args: server.args, env: server.env, cwd: server.cwd, stderr: 'ignore' }));

  const clients = [
    { name: 'plain', call: () => plain.callTool('echo', { text: 'x' }), times: [] as number[] },
    { name: 'eliciting', call: () => eliciting.callTool('echo', { text: 'x' }), times: [] as number[] },
    { name: 'bare', call: () => bare.callTool({ name: 'echo', arguments: { text: 'x' } }), times: [] as number[] },
    { name: 'bare eliciting', call: () => bareEliciting.callTool({ name: 'echo', arguments: { text: 'x' } }), times: [] as number[] },
  ];
  for (let i = 0; i < WARMUP; i++) for (const c of clients) await c.call();
  for (let done = 0, turn = 0; done < CALLS; done += BLOCK, turn++) {
    for (let k = 0; k < clients.length; k++) {
      const c = clients[(k + turn) % clients.length];
      for (let i = 0; i < BLOCK; i++) {
        const s = performance.now();
        await c.call();
        c.times.push(performance.now() - s);
      }
    }
  }
  await plain.stop();
  await eliciting.stop();
  await bare.close();
  await bareEliciting.close();

  const [ours, withElicitation, theirs, theirsEliciting] = clients.map((c) => median(c.times));
  const ratio = ours / theirs;
  const ratioEliciting = withElicitation / theirsEliciting;
  console.log(`connection.call (${label}) median ${ms(ours)} ms vs bare SDK ${ms(theirs)} ms ratio ${ratio.toFixed(2)} (goal ≤ ${GOAL.toFixed(2)}) over ${CALLS} calls`);
  console.log(`connection.call (${label}, elicitation declared) median ${ms(withElicitation)} ms vs bare SDK declaring it too ${ms(theirsEliciting)} ms ratio ${ratioEliciting.toFixed(2)} (goal ≤ ${GOAL.toFixed(2)})`);
  console.log(`connection.start+list (${label}) ${ms(connectOurs)} ms vs bare SDK connect+list ${ms(connectBare)} ms`);
  return ratio <= GOAL && ratioEliciting <= GOAL;
}

async function main() {
  const results = [
    await bench('era2025-server.ts', 'stdio, 2025-11-25 server'),
    await bench('era2026-server.ts', 'stdio, 2026-07-28 server'),
  ];
  if (results.some((ok) => !ok)) console.log('connection.call: over the goal in this run (the machine may be loaded; run again to confirm)');
}

void main().catch((e) => { console.error(e); process.exit(1); });
