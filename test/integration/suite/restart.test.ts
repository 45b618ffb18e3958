import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { api, waitFor, workspaceRoot } from './helpers';

/** The states `demo` goes through from now on (each change the manager announces, repeats dropped). */
async function recordStates(): Promise<{ states: string[]; dispose(): void }> {
  const host = await api();
  const states: string[] = [];
  const subscription = host.servers.onDidChange(() => {
    const kind = host.servers.list().find((s) => s.name === 'demo')?.state.kind ?? 'absent';
    if (states.at(-1) !== kind) states.push(kind);
  });
  return { states, dispose: () => subscription.dispose() };
}

const stdioEnv = (definition: unknown) => (definition as { env?: Record<string, string | null> }).env ?? {};

describe('restarts on changes', () => {
  const configFile = () => vscode.Uri.joinPath(workspaceRoot(), '.vscode/mcp.json').fsPath;
  after(async () => (await api()).servers.stop('demo'));

  it('restarts a running server with its new definition when its entry in mcp.json changes', async () => {
    const host = await api();
    await host.servers.start('demo');
    const original = await fsp.readFile(configFile(), 'utf8');
    const recorder = await recordStates();
    try {
      const changed = original.replace(
        '"args": ["${workspaceFolder}/../../../dist/demo-server.js"]\n    },',
        '"args": ["${workspaceFolder}/../../../dist/demo-server.js"],\n      "env": { "DEMO_MARK": "changed" }\n    },',
      );
      assert.notEqual(changed, original);
      await fsp.writeFile(configFile(), changed);
      const demo = await waitFor('demo running with the new env', () =>
        host.servers.list().find((s) => s.name === 'demo' && s.state.kind === 'running' && stdioEnv(s.definition).DEMO_MARK === 'changed'),
      );
      assert.ok(demo);
      assert.deepEqual(recorder.states.slice(-2), ['starting', 'running'], `states: ${recorder.states.join(' -> ')}`);
      assert.equal(host.servers.tools('demo').length, 6);
    } finally {
      recorder.dispose();
      await fsp.writeFile(configFile(), original);
      await host.servers.reload();
    }
    await waitFor('demo running with its original definition', () =>
      host.servers.list().find((s) => s.name === 'demo' && s.state.kind === 'running' && stdioEnv(s.definition).DEMO_MARK === undefined),
    );
  });

  it('restarts running servers when a setting their connection uses changes', async () => {
    const host = await api();
    await host.servers.start('demo');
    const config = () => vscode.workspace.getConfiguration('mcpHost');
    const recorder = await recordStates();
    try {
      await config().update('requestTimeoutSeconds', 123, vscode.ConfigurationTarget.Global);
      await waitFor('demo restarted', () => recorder.states.includes('starting') && recorder.states.at(-1) === 'running');
      assert.deepEqual(recorder.states.slice(-2), ['starting', 'running'], `states: ${recorder.states.join(' -> ')}`);
      await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
      await waitFor('demo restarted again', () => recorder.states.filter((s) => s === 'starting').length === 2 && recorder.states.at(-1) === 'running');
    } finally {
      recorder.dispose();
      await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
