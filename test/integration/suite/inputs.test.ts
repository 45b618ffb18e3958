import * as assert from 'node:assert/strict';
import { api, resultText, workspaceFile } from './helpers';

describe('server inputs', () => {
  after(async () => {
    const host = await api();
    await host.servers.stop('demo-with-token');
    await host.inputs.clear('demo-with-token');
  });

  it('keeps a password input in SecretStorage, not in workspace state', async () => {
    const host = await api();
    await host.inputs.set('demo-with-token', 'demo-token', 's3cret-token');
    assert.equal(await host.inputs.storedIn('demo-with-token', 'demo-token'), 'secrets');
  });

  it('starts a server that uses a stored input without asking for it again', async () => {
    const host = await api();
    // a prompt would block start() until the test times out
    await host.servers.start('demo-with-token');
    const view = await host.callTool('demo-with-token', 'describe_file', {}, { file: [workspaceFile('notes.txt')] });
    assert.match(resultText(view), /Type: text\/plain/);
  });

  it('forgets the input when cleared', async () => {
    const host = await api();
    await host.inputs.clear('demo-with-token');
    assert.equal(await host.inputs.storedIn('demo-with-token', 'demo-token'), undefined);
  });
});
