import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor, workspaceRoot } from './helpers';
import { fixtureArgv } from '../../fixtures/servers';

// A resource that is a file (SEP-2631 FileResourceContents) read through the extension's own command: the
// notification's Save… and Open, against the transfer fixture and a real object store. The notification and the
// save dialog are answered by standing in for the user (window.showInformationMessage, showSaveDialog); the
// download, its checks and the editor are the extension's.

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every object file the store holds (s3rver keeps each object as a `._S3rver_object` file). */
function storedObjects(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('._S3rver_object')) found.push(join(d, e.name));
    }
  };
  walk(dir);
  return found;
}

/** The files opened without saving (the extension's per-window folders in the temporary directory). */
function openedFiles(): string[] {
  return readdirSync(tmpdir())
    .filter((d) => d.startsWith('mcp-host-opened-'))
    .flatMap((d) => {
      try {
        return readdirSync(join(tmpdir(), d)).map((f) => join(tmpdir(), d, f));
      } catch {
        return [];
      }
    });
}

function tabUris(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .map((t) => (t.input as { uri?: vscode.Uri } | undefined)?.uri)
    .filter((u): u is vscode.Uri => u !== undefined)
    .map((u) => u.toString());
}

describe('a resource that is a file', () => {
  let store: ChildProcess;
  let storeDir: string;
  let saveDir: string;
  let savedUserConfig: string | undefined;
  const window = vscode.window as { -readonly [K in keyof typeof vscode.window]: (typeof vscode.window)[K] };
  const original = { info: window.showInformationMessage, error: window.showErrorMessage, save: window.showSaveDialog };
  let answer: string | undefined;
  let saveTo: vscode.Uri | undefined;
  const asked: string[] = [];
  const errors: string[] = [];

  before(async function () {
    this.timeout(60_000);
    const repo = join(workspaceRoot().fsPath, '../../..');
    // The store keeps its objects under its TMPDIR: a folder of this test's own, so the stored bytes can be compared.
    storeDir = mkdtempSync(join(tmpdir(), 'resource-file-store-'));
    saveDir = mkdtempSync(join(tmpdir(), 'resource-file-saved-'));
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
    // The transfer fixture as a server of the user's own configuration, with this store's address.
    const host = await api();
    const userConfig = host.paths.userConfig.fsPath;
    savedUserConfig = await readFile(userConfig, 'utf8').catch(() => undefined);
    await mkdir(dirname(userConfig), { recursive: true });
    await writeFile(
      userConfig,
      JSON.stringify({
        servers: {
          transfer: {
            type: 'stdio',
            command: 'node',
            args: [...fixtureArgv('transfer-server.ts'), '--era', '2025', '--store', `http://127.0.0.1:${/listening (\d+)/.exec(line)![1]}`],
          },
        },
      }),
    );
    await host.servers.reload();
    await waitFor('the transfer server listed', () => host.servers.list().some((s) => s.name === 'transfer'));
    window.showInformationMessage = ((message: string, ...items: unknown[]) => {
      if (!message.includes(' is a file: ')) return original.info(message as never, ...(items as never[]));
      asked.push(message);
      return Promise.resolve(answer);
    }) as typeof window.showInformationMessage;
    window.showErrorMessage = ((message: string, ...items: unknown[]) => {
      errors.push(message);
      return original.error(message as never, ...(items as never[]));
    }) as typeof window.showErrorMessage;
    window.showSaveDialog = (() => Promise.resolve(saveTo)) as typeof window.showSaveDialog;
  });

  after(async () => {
    window.showInformationMessage = original.info;
    window.showErrorMessage = original.error;
    window.showSaveDialog = original.save;
    const host = await api();
    await host.servers.stop('transfer').catch(() => undefined);
    const userConfig = host.paths.userConfig.fsPath;
    if (savedUserConfig === undefined) await rm(userConfig, { force: true });
    else await writeFile(userConfig, savedUserConfig);
    await host.servers.reload();
    store?.kill('SIGTERM');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(saveDir, { recursive: true, force: true });
    rmSync(storeDir, { recursive: true, force: true });
  });

  /** Reads the resource with the extension's command, the notification answered with `choice`; the new stored object. */
  async function read(uri: string, choice: string): Promise<string> {
    const before = new Set(storedObjects(storeDir));
    answer = choice;
    asked.length = 0;
    errors.length = 0;
    await vscode.commands.executeCommand('mcpHost.readResource', 'transfer', uri);
    assert.equal(asked.length, 1, `the user is asked once what to do with the file (asked: ${JSON.stringify(asked)}, errors: ${JSON.stringify(errors)})`);
    const added = storedObjects(storeDir).filter((f) => !before.has(f));
    assert.equal(added.length, 1, 'the server stored the file once');
    return added[0]!;
  }

  it('Open opens the verified download in an editor; a corrupted one is refused and nothing is opened or left', async function () {
    this.timeout(60_000);
    const object = await read('transfer://outputs/opened.bin?size=1000', 'Open');
    assert.deepEqual(errors, []);
    assert.match(asked[0]!, /transfer: transfer:\/\/outputs\/opened\.bin\?size=1000 is a file: opened\.bin, 1000 bytes\./);
    const shown = await waitFor('an editor showing opened.bin', () => tabUris().find((u) => u.includes('mcp-host-opened-') && u.endsWith('/opened.bin')));
    const opened = vscode.Uri.parse(shown).fsPath;
    const bytes = readFileSync(opened);
    assert.equal(bytes.length, 1000);
    assert.equal(sha256(bytes), sha256(readFileSync(object)), 'the opened file has the bytes the server stored');

    const tabsBefore = tabUris();
    await read('transfer://outputs/broken.bin?size=1000&corrupt=1', 'Open');
    assert.equal(errors.length, 1, `one error is shown (${JSON.stringify(errors)})`);
    assert.match(errors[0]!, /sha-256/);
    assert.deepEqual(tabUris(), tabsBefore, 'no editor opened for the corrupted file');
    assert.deepEqual(
      openedFiles().filter((f) => f.includes('broken')),
      [],
      'nothing is left of the corrupted download',
    );
  });

  it('Save… writes the verified download where the dialog says; a corrupted one leaves nothing there', async function () {
    this.timeout(60_000);
    saveTo = vscode.Uri.file(join(saveDir, 'kept.bin'));
    const object = await read('transfer://outputs/table.bin?size=300000', 'Save…');
    assert.deepEqual(errors, []);
    assert.deepEqual(readdirSync(saveDir), ['kept.bin']);
    const saved = readFileSync(join(saveDir, 'kept.bin'));
    assert.equal(saved.length, 300000);
    assert.equal(sha256(saved), sha256(readFileSync(object)), 'the saved file has the bytes the server stored');

    saveTo = vscode.Uri.file(join(saveDir, 'bad.bin'));
    await read('transfer://outputs/table.bin?size=1000&corrupt=1', 'Save…');
    assert.equal(errors.length, 1, `one error is shown (${JSON.stringify(errors)})`);
    assert.match(errors[0]!, /sha-256/);
    assert.deepEqual(readdirSync(saveDir), ['kept.bin'], 'nothing is left of the corrupted download');
    assert.equal(existsSync(join(saveDir, 'bad.bin')), false);
  });
});
