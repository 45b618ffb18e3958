import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, resultText, waitFor, workspaceFile } from './helpers';

describe('the demo server', () => {
  after(async () => (await api()).servers.stop('demo'));

  it('starts and lists its tools', async () => {
    const host = await api();
    await host.servers.start('demo');
    const state = host.servers.list().find((s) => s.name === 'demo')?.state;
    assert.equal(state?.kind, 'running');
    const tools = host.servers
      .tools('demo')
      .map((t) => t.name)
      .sort();
    assert.deepEqual(tools, ['attach_note', 'compare_images', 'describe_file', 'export_report', 'receipt_from_photo', 'slow_count']);
  });

  it('describes a workspace PNG put into a file slot: type, size and dimensions', async () => {
    const host = await api();
    const view = await host.callTool('demo', 'describe_file', {}, { file: [workspaceFile('photo.png')] });
    const text = resultText(view);
    assert.equal(view.isError, false, text);
    assert.match(text, /Type: image\/png/);
    assert.match(text, /7214 bytes/);
    assert.match(text, /64 × 48 pixels/);
  });

  it('refuses a file larger than the slot allows, naming the limit, before calling the tool', async () => {
    const host = await api();
    await assert.rejects(host.callTool('demo', 'attach_note', { note: 'too big' }, { attachment: [workspaceFile('large-photo.png')] }), (e: Error) =>
      /64 KiB|65,?536/.test(e.message),
    );
  });

  it('refuses a file whose type an image slot does not accept', async () => {
    const host = await api();
    await assert.rejects(
      host.callTool('demo', 'compare_images', {}, { images: [workspaceFile('notes.txt'), workspaceFile('photo.png')] }),
      (e: Error) => /notes\.txt is text\/plain; this tool accepts image\/png, image\/jpeg/.test(e.message) || assert.fail(e.message),
    );
  });

  it('opens the tool panel of a tool as an editor tab', async () => {
    const host = await api();
    await host.openTool('demo', 'describe_file');
    const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    await waitFor(`a "Describe a file" tab (tabs: ${labels().join(', ')})`, () => labels().some((l) => l.includes('Describe a file')) || undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('stops on request', async () => {
    const host = await api();
    await host.servers.stop('demo');
    assert.equal(host.servers.list().find((s) => s.name === 'demo')?.state.kind, 'stopped');
  });
});
