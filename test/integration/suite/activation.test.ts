import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { api, EXTENSION_ID, extension } from './helpers';

describe('activation', () => {
  it('activates by itself in a workspace that has .vscode/mcp.json', async () => {
    const ext = extension();
    // activationEvents has workspaceContains:.vscode/mcp.json: the host activated it before any test asked
    const deadline = Date.now() + 10_000;
    while (!ext.isActive && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(ext.isActive, true);
  });

  it('registers every command the manifest contributes', async () => {
    await api();
    const contributed: { command: string }[] = extension().packageJSON.contributes?.commands ?? [];
    assert.ok(contributed.length > 0, 'the manifest contributes commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `commands contributed by ${EXTENSION_ID} but not registered`);
  });

  it('reports how long its activation took', async () => {
    const { activationMs } = await api();
    assert.ok(activationMs > 0 && activationMs < 5000, `activationMs = ${activationMs}`);
  });

  it('writes the code cache of its bundle a few seconds after an activation without one', async function () {
    this.timeout(30_000);
    const { fromCodeCache, activation, paths } = await api();
    assert.equal(fromCodeCache, false, 'a new profile has no code cache yet');
    assert.equal(activation.codeCache, 'absent', 'and the activation says why it compiled');
    assert.ok(paths.codeCache, 'the global storage is on disk here');
    const written = () => existsSync(paths.codeCache!) && readdirSync(paths.codeCache!).some((f) => /^main\.js\.[0-9a-f]{32}\.cache$/.test(f));
    const deadline = Date.now() + 20_000;
    while (!written() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.ok(written(), `no cache of main.js in ${paths.codeCache}`);
  });
});
