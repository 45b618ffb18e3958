// Sampling's host-side rules (src/core/sampling), shared by the CLI and the extension: media checked before
// anyone sees it, the 2025-11-25 rules for tools in sampling, the model preselected from the server's hints,
// and the answer's shape.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { preferredModel, samplingRequestProblem, samplingResult, type SamplingRequest } from '../../src/core/sampling';

const text = (t: string) => ({ type: 'text', text: t });

test('image and audio content needs a matching media type and base64 data before the panel shows it', () => {
  const withBlock = (block: object): SamplingRequest => ({ messages: [{ role: 'user', content: [text('see'), block] }], maxTokens: 10 });
  assert.equal(samplingRequestProblem(withBlock({ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' })), undefined);
  assert.equal(samplingRequestProblem(withBlock({ type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' })), undefined);
  assert.match(samplingRequestProblem(withBlock({ type: 'image', mimeType: 'text/html', data: 'PGI+' }))!, /message 1 has image content whose mimeType "text\/html" is not image\//);
  assert.match(samplingRequestProblem(withBlock({ type: 'audio', mimeType: 'audio/wav', data: '<script>' }))!, /audio content whose data is not base64/);
  assert.match(samplingRequestProblem({ messages: [{ role: 'system', content: text('x') }], maxTokens: 10 })!, /message 1 has role "system", not user or assistant/);
});

test('tools in sampling follow the 2025-11-25 rules: results answer the tool uses of the message just before', () => {
  const tools = [{ name: 'get-weather', inputSchema: { type: 'object' } }];
  const use = { type: 'tool_use', id: 'call-1', name: 'get-weather', input: { city: 'Oslo' } };
  const result = { type: 'tool_result', toolUseId: 'call-1', content: [text('rain')] };
  const ok: SamplingRequest = {
    messages: [{ role: 'user', content: text('weather?') }, { role: 'assistant', content: [use] }, { role: 'user', content: [result] }],
    maxTokens: 10, tools, toolChoice: { mode: 'auto' },
  };
  assert.equal(samplingRequestProblem(ok), undefined);
  const problem = (patch: Partial<SamplingRequest>) => samplingRequestProblem({ ...ok, ...patch });
  assert.match(problem({ tools: [{ name: 'x' }] })!, /tool x offered has no inputSchema/);
  assert.match(problem({ tools: [{ inputSchema: {} }] })!, /tool 1 offered has no name/);
  assert.match(problem({ toolChoice: { mode: 'always' } })!, /toolChoice.mode "always" is not auto, required or none/);
  assert.match(problem({ messages: [{ role: 'user', content: [use] }] })!, /message 1 has tool_use but is not the assistant's/);
  assert.match(problem({ messages: [ok.messages[0], ok.messages[1], { role: 'user', content: [result, text('and?')] }] })!, /message 3 mixes tool_result with other content/);
  assert.match(problem({ messages: [ok.messages[0], { role: 'user', content: [result] }] })!, /message 2 answers tool use "call-1", which the message before did not ask for/);
  assert.match(problem({ messages: [ok.messages[1], { role: 'assistant', content: [result] }] })!, /message 2 has tool_result but is not the user's/);
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
    role: 'assistant', model: 'm', stopReason: 'toolUse',
    content: [{ type: 'tool_use', id: 'c1', name: 'get-weather', input: { city: 'Oslo' } }],
  });
});
