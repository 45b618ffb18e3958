import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { findFileSlots } from '../../../src/core/files';
import { pointer } from '../../../src/core/forms';
import { FileChoices } from '../../../src/core/run';
import { handleFileMessage } from '../../../src/extension/panels/fileSelections';
import { inlineLimitsFromSettings } from '../../../src/extension/settings';
import type { WebviewHost } from '../../../src/extension/panels/webviewHost';
import type { HostNotification } from '../../../src/shared/protocol';
import { waitFor, workspaceFile } from './helpers';

describe('file pickers', () => {
  it('a second pick or a remove sent while the workspace picker is open is ignored; once it closes, messages count again', async () => {
    const tool = {
      name: 'read',
      inputSchema: { type: 'object', properties: { doc: { type: 'string', format: 'uri', 'x-mcp-file': { accept: ['text/plain'] } } } },
    };
    const slots = findFileSlots(tool).slots;
    const field = pointer(slots[0]!.path);
    const files = new FileChoices(slots, () => inlineLimitsFromSettings('stdio'));
    assert.equal((await files.add(field, [workspaceFile('notes.txt')])).ok, true);
    // handleFileMessage only posts to the panel; the real quick pick is what the guard protects
    const posted: HostNotification[] = [];
    const panel = {
      post: (m: HostNotification) => {
        posted.push(m);
      },
    } as unknown as WebviewHost;

    let firstSettled = false;
    const first = handleFileMessage(panel, files, { type: 'pickFile', field, source: 'workspace' }).finally(() => {
      firstSettled = true;
    });
    // a double click: the second message arrives while the first picker is opening
    const second = handleFileMessage(panel, files, { type: 'pickFile', field, source: 'workspace' });
    const remove = handleFileMessage(panel, files, { type: 'removeFile', field, index: 0 });
    const within = (p: Promise<void>, what: string) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} waited for a picker of its own`)), 3000))]);
    await within(second, 'the second pick');
    await within(remove, 'the remove');
    assert.equal(firstSettled, false, 'the first picker is still open');
    assert.deepEqual(posted, [], 'nothing changed while the picker was open');
    assert.equal(files.summaries()[field]?.length, 1, 'the chosen file is still there');

    // dismiss the picker (it may still be opening: keep closing until the first pick ends)
    await waitFor('the first picker to close', async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return firstSettled || undefined;
    });
    await first;
    assert.deepEqual(posted, [], 'a dismissed picker changes nothing');

    await handleFileMessage(panel, files, { type: 'removeFile', field, index: 0 });
    assert.deepEqual(posted, [{ type: 'fileSelected', field, files: [] }]);
  });
});
