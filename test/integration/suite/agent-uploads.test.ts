// A chat agent's call whose file goes by upload (SEP-2631): the upload is authorized before VS Code's confirmation,
// which names the host the bytes go to; the confirmed call sends them there, and the server reads back exactly the
// workspace file's bytes. Against the transfer fixture and a real object store (s3rver), through vscode.lm.invokeTool.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor, workspaceFile, workspaceRoot } from './helpers';
import { fixtureArgv } from '../../fixtures/servers';

describe("an agent's upload is authorized before its confirmation", () => {
  let store: ChildProcess;
  let storeDir: string;
  let storeHost: string;
  let savedUserConfig: string | undefined;
  const fileName = 'agent-upload.bin';
  const bytes = randomBytes(200_000);

  before(async function () {
    this.timeout(60_000);
    const repo = join(workspaceRoot().fsPath, '../../..');
    storeDir = mkdtempSync(join(tmpdir(), 'agent-upload-store-'));
    store = spawn('node', fixtureArgv('object-store.ts'), {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, TMPDIR: storeDir },
    });
    const line = await new Promise<string>((resolve, reject) => {
      let seen = '';
      store.stdout!.setEncoding('utf8').on('data', (d: string) => {
        seen += d;
        if (seen.includes('\n')) resolve(seen);
      });
      store.once('exit', (c) => reject(new Error(`object-store exited ${c}`)));
    });
    const port = /listening (\d+)/.exec(line)![1];
    storeHost = `127.0.0.1:${port}`;
    const host = await api();
    const userConfig = host.paths.userConfig.fsPath;
    savedUserConfig = await readFile(userConfig, 'utf8').catch(() => undefined);
    await mkdir(dirname(userConfig), { recursive: true });
    await writeFile(
      userConfig,
      JSON.stringify({
        servers: {
          'agent-transfer': {
            type: 'stdio',
            command: 'node',
            args: [...fixtureArgv('transfer-server.ts'), '--era', '2025', '--store', `http://${storeHost}`],
          },
        },
      }),
    );
    await host.servers.reload();
    await waitFor('the transfer server listed', () => host.servers.list().some((s) => s.name === 'agent-transfer'));
    writeFileSync(workspaceFile(fileName), bytes);
  });

  after(async () => {
    const host = await api();
    await host.servers.stop('agent-transfer').catch(() => undefined);
    const userConfig = host.paths.userConfig.fsPath;
    if (savedUserConfig === undefined) await rm(userConfig, { force: true });
    else await writeFile(userConfig, savedUserConfig);
    await host.servers.reload();
    store?.kill('SIGTERM');
    rmSync(workspaceFile(fileName), { force: true });
    rmSync(storeDir, { recursive: true, force: true });
  });

  it('names the upload host in the confirmation, then sends the workspace file there byte for byte', async function () {
    this.timeout(90_000);
    // The test workbench answers VS Code's confirmation itself (yes); what it asked is checked here.
    const result = await vscode.lm.invokeTool('mcpHost_callTool', {
      input: { server: 'agent-transfer', tool: 'inspect_upload', arguments: { doc: fileName } },
      toolInvocationToken: undefined,
    });
    const asked = (await api()).agents.lastConfirmation();
    assert.match(
      asked?.message ?? '',
      new RegExp(
        `Uploaded before the call, to the host the server named:\\n\\n• doc: agent-upload\\.bin \\(195 KiB\\) uploaded to ${storeHost.replace(/\./g, '\\.')}`,
      ),
    );
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
    const got = JSON.parse(/\{.*"sha256".*\}/s.exec(text)![0]) as { via: string; size: number; sha256: string };
    assert.equal(got.size, bytes.length);
    assert.ok([createHash('sha256').update(bytes).digest('hex'), createHash('sha256').update(bytes).digest('base64url')].includes(got.sha256), text);
  });
});
