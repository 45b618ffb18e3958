// Sampling's host-side rules (src/core/sampling), shared by the CLI and the extension: media checked before
// anyone sees it, the 2025-11-25 rules for tools in sampling, the model preselected from the server's hints,
// and the answer's shape.
import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import { ServerConnection, type ConnectionOptions } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { preferredModel, SamplingDeclinedError, samplingRequestProblem, samplingResult, type SamplingRequest } from '../../src/core/sampling';
import { ReceivedTasks } from '../../src/core/tasks/received';
import { everythingStdio } from '../fixtures/servers';

const text = (t: string) => ({ type: 'text', text: t });

test('image and audio content needs a matching media type and base64 data before the panel shows it', () => {
  const withBlock = (block: object): SamplingRequest => ({ messages: [{ role: 'user', content: [text('see'), block] }], maxTokens: 10 });
  assert.equal(samplingRequestProblem(withBlock({ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' })), undefined);
  assert.equal(samplingRequestProblem(withBlock({ type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' })), undefined);
  assert.match(
    samplingRequestProblem(withBlock({ type: 'image', mimeType: 'text/html', data: 'PGI+' }))!,
    /message 1 has image content whose mimeType "text\/html" is not image\//,
  );
  assert.match(samplingRequestProblem(withBlock({ type: 'audio', mimeType: 'audio/wav', data: '<script>' }))!, /audio content whose data is not base64/);
  assert.match(
    samplingRequestProblem({ messages: [{ role: 'system', content: text('x') }], maxTokens: 10 })!,
    /message 1 has role "system", not user or assistant/,
  );
});

test('tools in sampling follow the 2025-11-25 rules: results answer the tool uses of the message just before', () => {
  const tools = [{ name: 'get-weather', inputSchema: { type: 'object' } }];
  const use = { type: 'tool_use', id: 'call-1', name: 'get-weather', input: { city: 'Oslo' } };
  const result = { type: 'tool_result', toolUseId: 'call-1', content: [text('rain')] };
  const ok: SamplingRequest = {
    messages: [
      { role: 'user', content: text('weather?') },
      { role: 'assistant', content: [use] },
      { role: 'user', content: [result] },
    ],
    maxTokens: 10,
    tools,
    toolChoice: { mode: 'auto' },
  };
  assert.equal(samplingRequestProblem(ok), undefined);
  const problem = (patch: Partial<SamplingRequest>) => samplingRequestProblem({ ...ok, ...patch });
  assert.match(problem({ tools: [{ name: 'x' }] })!, /tool x offered has no inputSchema/);
  assert.match(problem({ tools: [{ inputSchema: {} }] })!, /tool 1 offered has no name/);
  assert.match(problem({ toolChoice: { mode: 'always' } })!, /toolChoice.mode "always" is not auto, required or none/);
  assert.match(problem({ messages: [{ role: 'user', content: [use] }] })!, /message 1 has tool_use but is not the assistant's/);
  assert.match(
    problem({ messages: [ok.messages[0]!, ok.messages[1]!, { role: 'user', content: [result, text('and?')] }] })!,
    /message 3 mixes tool_result with other content/,
  );
  assert.match(
    problem({ messages: [ok.messages[0]!, { role: 'user', content: [result] }] })!,
    /message 2 answers tool use "call-1", which the message before did not ask for/,
  );
  assert.match(problem({ messages: [ok.messages[1]!, { role: 'assistant', content: [result] }] })!, /message 2 has tool_result but is not the user's/);
});

test("the model preselected is the first of the server's hints that a model matches, else the first model", () => {
  const models = [
    { id: 'gpt-4o', name: 'GPT-4o', family: 'gpt-4o', vendor: 'copilot' },
    { id: 'claude-sonnet-4', name: 'Claude Sonnet 4', family: 'claude-sonnet-4', vendor: 'copilot' },
    { id: 'test-echo-mini', name: 'Test Echo Mini', family: 'test-echo-mini', vendor: 'mcp-host-test' },
  ];
  assert.equal(preferredModel(models, { hints: [{ name: 'sonnet' }, { name: 'gpt' }] }), 1);
  assert.equal(preferredModel(models, { hints: [{ name: 'gemini' }, { name: 'MINI' }] }), 2);
  assert.equal(preferredModel(models, { hints: [{ name: 'gemini' }] }), 0);
  assert.equal(preferredModel(models, { hints: 'not a list' }), 0);
  assert.equal(preferredModel(models, undefined), 0);
  assert.equal(preferredModel([], { hints: [{ name: 'x' }] }), -1);
});

test('the answer is one text block, or the text and tool_use blocks with stopReason toolUse', () => {
  assert.deepEqual(samplingResult({ text: 'hi', toolUses: [], model: 'm' }), { role: 'assistant', content: text('hi'), model: 'm', stopReason: 'endTurn' });
  assert.equal(samplingResult({ text: 'hi', toolUses: [], model: 'm', truncated: true }).stopReason, 'maxTokens');
  assert.deepEqual(samplingResult({ text: '', toolUses: [{ id: 'c1', name: 'get-weather', input: { city: 'Oslo' } }], model: 'm' }), {
    role: 'assistant',
    model: 'm',
    stopReason: 'toolUse',
    content: [{ type: 'tool_use', id: 'c1', name: 'get-weather', input: { city: 'Oslo' } }],
  });
});

// The host as the receiver of task-augmented requests (2025-11-25): server-everything's async tools send their
// sampling and elicitation requests with `params.task` and poll tasks/get, then fetch tasks/result.
describe('sampling and elicitation received as tasks', () => {
  const everything = (handlers: Partial<ConnectionOptions>, taskRequests = true) => {
    const lines: string[] = [];
    const c = new ServerConnection(everythingStdio(), {
      log: new Logger((l, m) => lines.push(`[${l}] ${m}`), 'debug'),
      stopGraceMs: 1000,
      capabilities: { taskRequests },
      ...handlers,
    });
    return { c, lines };
  };
  const toolText = (r: { content?: unknown }) => (r.content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('\n');

  test('a sampling request sent as a task is answered with a task, polled, and its result fetched', async () => {
    let seen: SamplingRequest | undefined;
    const { c, lines } = everything({
      sampling: async (request) => {
        seen = request;
        await new Promise((r) => setTimeout(r, 1500)); // the server polls tasks/get meanwhile
        return samplingResult({ text: 'the answer', toolUses: [], model: 'test-model' });
      },
    });
    await c.start();
    try {
      assert.ok(
        c.tools.some((t) => t.name === 'trigger-sampling-request-async'),
        'offered once tasks.requests.sampling is declared',
      );
      const result = await c.callTool('trigger-sampling-request-async', { prompt: 'tides' });
      const text = toolText(result);
      assert.match(text, /\[COMPLETED\] Async sampling completed!/);
      assert.match(text, /Poll 1: working/);
      assert.match(text, /"text": "the answer"/);
      assert.equal(seen && 'task' in seen, false, 'the handler sees the request without its task');
      assert.ok(
        lines.some((l) => /received as a task\): completed/.test(l)),
        lines.join('\n'),
      );
    } finally {
      await c.stop();
    }
  });

  test('a declined request fails its task with the reason; an elicitation as a task gets the form answer', async () => {
    const { c } = everything({
      sampling: async () => {
        throw new SamplingDeclinedError('the user declined it');
      },
      elicitation: async () => ({ action: 'accept', content: { name: 'Ada', favoriteColor: 'Blue' } }),
    });
    await c.start();
    try {
      const declined = toolText(await c.callTool('trigger-sampling-request-async', { prompt: 'tides' }));
      assert.match(declined, /\[FAILED\] User rejected sampling request: the user declined it/);
      const elicited = toolText(await c.callTool('trigger-elicitation-request-async', {}));
      assert.match(elicited, /Ada/);
      assert.match(elicited, /Blue/);
    } finally {
      await c.stop();
    }
  });

  test('without the capability the async tools are not offered', async () => {
    const { c } = everything({ sampling: async () => samplingResult({ text: 'x', toolUses: [], model: 'm' }) }, false);
    await c.start();
    try {
      assert.ok(c.tools.some((t) => t.name === 'trigger-sampling-request'));
      assert.ok(!c.tools.some((t) => t.name === 'trigger-sampling-request-async'));
    } finally {
      await c.stop();
    }
  });
});

test('received tasks: unknown ids are refused by name, a cancelled task ends its tasks/result at once, a ttl bounds a task', async () => {
  const store = new ReceivedTasks();
  assert.throws(() => store.get('nope'), /Unknown task "nope": the host has no such task/);
  let signal: AbortSignal | undefined;
  const never = store.start('sampling/createMessage', 60_000, (s) => {
    signal = s;
    return new Promise(() => undefined);
  });
  assert.equal(never.status, 'working');
  const waiting = store.result(never.taskId);
  assert.equal(store.cancel(never.taskId).status, 'cancelled');
  assert.equal(signal?.aborted, true, 'the handler is told');
  await assert.rejects(waiting, /ended before its answer: cancelled/);
  const short = store.start('elicitation/create', 200, () => new Promise(() => undefined));
  // The store's timers do not hold the process open (a connection does).
  const alive = setInterval(() => undefined, 1000);
  await assert.rejects(store.result(short.taskId), /not done within its ttl of 0 s/).finally(() => clearInterval(alive));
  assert.equal(store.get(short.taskId).status, 'failed');
  assert.equal(store.list().tasks.length, 2);
  store.dispose();
});
