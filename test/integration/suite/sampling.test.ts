import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { api, resultText, waitFor, workspaceFile } from './helpers';

// Sampling through VS Code's language models, with the deterministic test model (test/extensions/test-model)
// as the only one installed. The approval panel is driven in e2e; here the user setting approves.
describe('sampling', () => {
  const sampling = () => vscode.workspace.getConfiguration('mcpHost.sampling');

  before(async function () {
    if (typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider !== 'function') this.skip();
    await sampling().update('autoApprove', ['everything'], vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await sampling().update('autoApprove', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('mcpHostTestModel.setAvailable', true);
    await (await api()).servers.stop('everything');
  });

  async function samplingTool(): Promise<void> {
    const host = await api();
    await host.servers.start('everything');
    await waitFor('trigger-sampling-request', () => host.servers.tools('everything').some((t) => t.name === 'trigger-sampling-request') || undefined);
  }

  it("answers server-everything's trigger-sampling-request with the test model's streamed answer", async () => {
    await samplingTool();
    const [first] = await vscode.lm.selectChatModels();
    const view = await (await api()).callTool('everything', 'trigger-sampling-request', { prompt: 'tell me about tides', maxTokens: 100 });
    const text = resultText(view);
    assert.equal(view.isError, false, text);
    // The model saw the server's message (the system prompt went first) and its whole answer came back.
    assert.match(text, new RegExp(`"text": "${first!.family}: Resource trigger-sampling-request context: tell me about tides"`));
    assert.match(text, new RegExp(`"model": "${first!.id}"`));
    assert.match(text, /"stopReason": "endTurn"/);
  });

  it('answers a sampling request sent as a task (trigger-sampling-request-async) through the same model, polled to completion', async () => {
    await samplingTool();
    const [first] = await vscode.lm.selectChatModels();
    const view = await (await api()).callTool('everything', 'trigger-sampling-request-async', { prompt: 'waves' });
    const text = resultText(view);
    assert.match(text, /\[COMPLETED\] Async sampling completed!/);
    assert.match(text, /Task created: host-task-/);
    assert.ok(text.includes(`${first!.family}: Resource trigger-sampling-request-async context: waves`), text);
  });

  describe('what the host receives (test/fixtures/sampling-server.ts sends the params it is given)', () => {
    before(async () => sampling().update('autoApprove', ['everything', 'sampling'], vscode.ConfigurationTarget.Global));
    after(async () => (await api()).servers.stop('sampling'));

    async function sample(params: object, bigText?: number): Promise<{ isError: boolean; text: string }> {
      const view = await (await api()).callTool('sampling', 'sample', { params: JSON.stringify(params), ...(bigText ? { bigText } : {}) });
      return { isError: view.isError, text: resultText(view) };
    }
    const user = (content: unknown) => ({ role: 'user', content });

    it("passes images to the model as data and preselects the model the server's hints name", async () => {
      const { isError, text } = await sample({
        messages: [
          user([
            { type: 'text', text: 'look: ' },
            { type: 'image', mimeType: 'image/png', data: readFileSync(workspaceFile('photo.png')).toString('base64') },
          ]),
        ],
        maxTokens: 50,
        modelPreferences: { hints: [{ name: 'claude' }, { name: 'MINI' }] },
      });
      assert.equal(isError, false, text);
      const answer = JSON.parse(text);
      assert.equal(answer.model, 'test-echo-mini');
      // VS Code may re-encode an image before a model gets it: its type and some bytes arrive.
      assert.match(answer.content.text, /^test-echo-mini: look: \[image\/png, [1-9]\d* bytes\]$/);
    });

    it('returns the tool calls the model makes as tool_use, and gives it the tool results back (2025-11-25 tools in sampling)', async () => {
      const tools = [{ name: 'get-weather', description: 'the weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }];
      const ask = user({ type: 'text', text: 'call get-weather {"city": "Oslo"}' });
      const first = await sample({ messages: [ask], maxTokens: 50, tools, toolChoice: { mode: 'auto' } });
      assert.equal(first.isError, false, first.text);
      const call = JSON.parse(first.text);
      assert.equal(call.stopReason, 'toolUse');
      assert.equal(call.content.length, 1);
      const [use] = call.content;
      assert.deepEqual({ type: use.type, name: use.name, input: use.input }, { type: 'tool_use', name: 'get-weather', input: { city: 'Oslo' } });

      const second = await sample({
        messages: [ask, { role: 'assistant', content: [use] }, user([{ type: 'tool_result', toolUseId: use.id, content: [{ type: 'text', text: 'rain' }] }])],
        maxTokens: 50,
        tools,
      });
      assert.equal(JSON.parse(second.text).content.text, `Tool ${use.id} returned: rain`);
    });

    it('refuses 10 MB of messages, maxTokens of 10^9 and an unknown content type with clear messages, and still answers after', async function () {
      this.timeout(60_000);
      const big = await sample({ maxTokens: 10 }, 10 * 1024 * 1024);
      assert.equal(big.isError, true);
      assert.match(big.text, /the sampling request's messages are \d+ bytes; the host accepts at most 4194304/);
      const huge = await sample({ messages: [user({ type: 'text', text: 'hi' })], maxTokens: 1e9 });
      assert.match(huge.text, /maxTokens 1000000000 is outside what the host allows \(1 to 1000000\)/);
      const odd = await sample({ messages: [user({ type: 'hologram', text: 'hi' })], maxTokens: 10 });
      assert.equal(odd.isError, true);
      assert.match(odd.text, /Sampling request refused by the host: message 1 has content of type "hologram", which the host cannot show/);
      const ok = await sample({ messages: [user({ type: 'text', text: 'still here?' })], maxTokens: 10 });
      assert.match(ok.text, /: still here\?/);
    });
  });

  it('declines with what to install when VS Code has no language model', async () => {
    await samplingTool();
    await vscode.commands.executeCommand('mcpHostTestModel.setAvailable', false);
    try {
      await waitFor('no model', async () => ((await vscode.lm.selectChatModels()).length === 0 ? true : undefined));
      const view = await (await api()).callTool('everything', 'trigger-sampling-request', { prompt: 'anyone there?' });
      const text = resultText(view);
      assert.equal(view.isError, true, text);
      assert.match(text, /User rejected sampling request: VS Code has no language model to answer with\. Install an extension that provides one/);
    } finally {
      await vscode.commands.executeCommand('mcpHostTestModel.setAvailable', true);
    }
  });
});
