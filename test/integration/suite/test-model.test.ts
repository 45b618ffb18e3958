import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

// The deterministic model of test/extensions/test-model, loaded beside the extension: the sampling
// and language-model-tool tests stand on it, so it is checked on its own first.
describe('test model', () => {
  before(function () {
    // VS Code before 1.104 (npm run test:electron -- --version 1.100.0) has no model provider API.
    if (typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider !== 'function') this.skip();
  });

  async function testModel(): Promise<vscode.LanguageModelChat> {
    const models = await vscode.lm.selectChatModels({ vendor: 'mcp-host-test', family: 'test-echo' });
    assert.equal(models.length, 1, 'vscode.lm.selectChatModels() finds the test model');
    return models[0]!;
  }

  async function answer(response: vscode.LanguageModelChatResponse): Promise<{ parts: string[]; calls: vscode.LanguageModelToolCallPart[] }> {
    const parts: string[] = [];
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) parts.push(part.value);
      else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    }
    return { parts, calls };
  }

  it('is found by vscode.lm.selectChatModels() and echoes the last user message, streamed in parts', async () => {
    const all = await vscode.lm.selectChatModels();
    assert.deepEqual(
      all
        .filter((m) => m.vendor === 'mcp-host-test')
        .map((m) => m.name)
        .sort(),
      ['Test Echo', 'Test Echo Mini'],
    );
    const model = await testModel();
    const response = await model.sendRequest([
      vscode.LanguageModelChatMessage.User('an earlier message'),
      vscode.LanguageModelChatMessage.Assistant('an earlier answer'),
      vscode.LanguageModelChatMessage.User('one two three four five six seven'),
    ]);
    const { parts, calls } = await answer(response);
    assert.equal(parts.join(''), 'test-echo: one two three four five six seven');
    assert.ok(parts.length >= 3, `streamed in ${parts.length} parts`);
    assert.deepEqual(calls, []);
  });

  it('calls an offered tool when asked, and reads its result back', async () => {
    const model = await testModel();
    const tools: vscode.LanguageModelChatTool[] = [{ name: 'get-sum', description: 'adds', inputSchema: { type: 'object' } }];
    const first = await answer(await model.sendRequest([vscode.LanguageModelChatMessage.User('please call get-sum {"a": 1, "b": 2}')], { tools }));
    assert.equal(first.calls.length, 1);
    assert.equal(first.calls[0]!.name, 'get-sum');
    assert.deepEqual(first.calls[0]!.input, { a: 1, b: 2 });

    const second = await answer(
      await model.sendRequest(
        [
          vscode.LanguageModelChatMessage.User('please call get-sum {"a": 1, "b": 2}'),
          vscode.LanguageModelChatMessage.Assistant([first.calls[0]!]),
          vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(first.calls[0]!.callId, [new vscode.LanguageModelTextPart('3')])]),
        ],
        { tools },
      ),
    );
    assert.equal(second.parts.join(''), `Tool ${first.calls[0]!.callId} returned: 3`);

    const unknown = await answer(await model.sendRequest([vscode.LanguageModelChatMessage.User('call nothing-here')], { tools }));
    assert.equal(unknown.parts.join(''), 'test-echo: no tool named nothing-here was offered.');
  });

  it('can be withdrawn and offered again', async () => {
    await vscode.commands.executeCommand('mcpHostTestModel.setAvailable', false);
    try {
      const models = await vscode.lm.selectChatModels({ vendor: 'mcp-host-test' });
      assert.deepEqual(models, []);
    } finally {
      await vscode.commands.executeCommand('mcpHostTestModel.setAvailable', true);
    }
    await testModel();
  });
});
