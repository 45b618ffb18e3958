// Large results for agents: a 50 MiB text result reaching a model through the language-model tools.
// 1. The model-facing step (the result's view, the bounded preview, and keeping the whole for range reads) vs
//    the baseline every host pays before it can show anything: parsing the tools/call answer (JSON.parse of
//    the 50 MiB message), medians of interleaved runs in the same process (goal: ratio <= 1.5: the step, which
//    makes the one UTF-8 copy range reads need, costs at most half again what receiving the result costs).
// 2. What reaches the model: the preview's characters (goal <= the default budget, 20,000).
// 3. Memory stays bounded: the growth of buffer memory after 12 different 50 MiB results were kept, after
//    garbage collection (goal <= the kept results' byte limit, 256 MiB, plus 16 MiB).
//
//   npx tsx bench/large-results.ts

import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { boundedAgentResultParts, KEPT_RESULT_LIMITS, KeptResults, toResultView } from './lib/shipped';
import { median, reportGoal } from './lib/goals';

const MiB = 1024 * 1024;
const SIZE = 50 * MiB;
const RUNS = Number(process.env.MCP_HOST_BENCH_RUNS ?? 7);
const MAX_CHARS = 20_000;
const KEPT = 12;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A tools/call answer of about `size` bytes of text: numbered lines with multi-byte characters. */
function message(size: number, seed: number): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < size; i++) {
    const line = `${seed}:${i} r\u00e9sum\u00e9 \u20ac${i % 997} \u4e2d\u6587 ${'x'.repeat(i % 60)}`;
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  }
  return JSON.stringify({ jsonrpc: '2.0', id: seed, result: { content: [{ type: 'text', text: lines.join('\n') }] } });
}

interface Answer {
  result: { content: unknown[] };
}

function toModel(result: Answer['result'], store: InstanceType<typeof KeptResults>): number {
  const view = toResultView(result);
  const { parts } = boundedAgentResultParts(result, view, {
    media: true,
    maxChars: MAX_CHARS,
    readTool: 'mcpHost_readResult',
    keep: (p) => store.keep('bench', p),
  });
  let chars = 0;
  for (const p of parts) if (p.kind === 'text') chars += p.text.length;
  return chars;
}

function main(): void {
  console.log(`large results: ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}, ${RUNS} runs of a ${SIZE / MiB} MiB text result`);
  const raw = message(SIZE, 0);
  const host: number[] = [];
  const baseline: number[] = [];
  let previewChars = 0;
  for (let i = 0; i < RUNS + 1; i++) {
    // The baseline and the host's step take turns going first, so load drift hits both alike.
    const order = i % 2 ? ['baseline', 'host'] : ['host', 'baseline'];
    for (const side of order) {
      gc();
      if (side === 'baseline') {
        const t0 = performance.now();
        const parsed = JSON.parse(raw) as Answer;
        const dt = performance.now() - t0;
        if (i > 0) baseline.push(dt);
        if (!parsed.result) throw new Error('no result');
      } else {
        const parsed = JSON.parse(raw) as Answer;
        const store = new KeptResults();
        gc();
        const t0 = performance.now();
        previewChars = toModel(parsed.result, store);
        const dt = performance.now() - t0;
        if (i > 0) host.push(dt);
        if (store.size !== 1) throw new Error('the result was not kept');
      }
    }
  }
  reportGoal({
    name: `${SIZE / MiB} MiB text result to a bounded preview + handle vs parsing its tools/call answer`,
    value: median(host) / median(baseline),
    goal: 1.5,
    unit: 'x',
    detail: `median ${median(host).toFixed(0)} ms vs ${median(baseline).toFixed(0)} ms, ${RUNS} runs`,
  });
  reportGoal({
    name: `characters of a ${SIZE / MiB} MiB text result given to the model`,
    value: previewChars / 1000,
    goal: MAX_CHARS / 1000,
    unit: 'K characters',
  });

  // Memory: many large results, each kept, within the store's byte limit.
  const store = new KeptResults();
  gc();
  const before = process.memoryUsage().arrayBuffers;
  for (let k = 1; k <= KEPT; k++) toModel((JSON.parse(message(SIZE, k)) as Answer).result, store);
  gc();
  const growth = (process.memoryUsage().arrayBuffers - before) / MiB;
  reportGoal({
    name: `buffer memory after ${KEPT} kept ${SIZE / MiB} MiB results`,
    value: growth,
    goal: KEPT_RESULT_LIMITS.bytes / MiB + 16,
    unit: 'MiB',
    detail: `${store.size} results kept, ${(store.totalBytes / MiB).toFixed(0)} MiB`,
  });
}

main();
