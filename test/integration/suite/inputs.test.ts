import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { api, resultText, waitFor, workspaceFile, workspaceRoot } from './helpers';

const SECRET = 's3cret-token-7f2d9a';

/** Every file under a folder, recursively (an absent folder has none). */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await fsp.readdir(folder, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('server inputs', () => {
  after(async () => {
    const host = await api();
    await host.servers.stop('demo-with-token');
    await host.inputs.clear('demo-with-token');
  });

  it('keeps a password input in SecretStorage and another input in workspace state', async () => {
    const host = await api();
    await host.inputs.set('demo-with-token', 'demo-token', SECRET);
    await host.inputs.set('demo-with-token', 'demo-label', 'plain label');
    assert.equal(await host.inputs.storedIn('demo-with-token', 'demo-token'), 'secrets');
    assert.equal(await host.inputs.storedIn('demo-with-token', 'demo-label'), 'workspaceState');
  });

  it('starts a server that uses stored inputs without asking for them again', async () => {
    const host = await api();
    // a prompt would block start() until the test times out
    await host.servers.start('demo-with-token');
    const view = await host.callTool('demo-with-token', 'describe_file', {}, { file: [workspaceFile('notes.txt')] });
    assert.match(resultText(view), /Type: text\/plain/);
  });

  it('writes the secret to neither the config, the user settings nor any log', async () => {
    const host = await api();
    const configText = await fsp.readFile(vscode.Uri.joinPath(workspaceRoot(), '.vscode/mcp.json').fsPath, 'utf8');
    assert.match(configText, /\$\{input:demo-token\}/);
    assert.ok(!configText.includes(SECRET), 'mcp.json holds the secret');

    // <user data>/User/globalStorage/<extension>/mcp.json -> <user data>/User
    const userFolder = vscode.Uri.joinPath(host.paths.userConfig, '../../..').fsPath;
    for (const file of [join(userFolder, 'settings.json'), host.paths.userConfig.fsPath]) {
      const text = await fsp.readFile(file, 'utf8').catch(() => '');
      assert.ok(!text.includes(SECRET), `${file} holds the secret`);
    }

    // the server's channel has written its start; nothing the host logs holds the secret
    const logs = await waitFor('the demo-with-token log file', async () => {
      const files = await filesUnder(host.paths.logFolder.fsPath);
      const own = files.find((f) => f.includes('demo-with-token'));
      return own && (await fsp.readFile(own, 'utf8')).length > 0 ? files : undefined;
    });
    for (const file of logs) {
      assert.ok(!(await fsp.readFile(file, 'utf8')).includes(SECRET), `${file} holds the secret`);
    }
  });

  it('forgets the inputs when cleared', async () => {
    const host = await api();
    await host.inputs.clear('demo-with-token');
    assert.equal(await host.inputs.storedIn('demo-with-token', 'demo-token'), undefined);
    assert.equal(await host.inputs.storedIn('demo-with-token', 'demo-label'), undefined);
  });
});
