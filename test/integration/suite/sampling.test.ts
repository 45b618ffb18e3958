import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, resultText, waitFor } from './helpers';

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
    assert.match(text, new RegExp(`"text": "${first.family}: Resource trigger-sampling-request context: tell me about tides"`));
    assert.match(text, new RegExp(`"model": "${first.id}"`));
    assert.match(text, /"stopReason": "endTurn"/);
  });

  it('answers a sampling request sent as a task (trigger-sampling-request-async) through the same model, polled to completion', async () => {
    await samplingTool();
    const [first] = await vscode.lm.selectChatModels();
    const view = await (await api()).callTool('everything', 'trigger-sampling-request-async', { prompt: 'waves' });
    const text = resultText(view);
    assert.match(text, /\[COMPLETED\] Async sampling completed!/);
    assert.match(text, /Task created: host-task-/);
    assert.ok(text.includes(`${first.family}: Resource trigger-sampling-request-async context: waves`), text);
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
