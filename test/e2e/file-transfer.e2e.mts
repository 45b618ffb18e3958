// SEP-2631 in the real workbench: a large workspace file attached to an upload-only slot is authorized first, so
// the confirmation names the store's host (refusing it sends nothing); then it goes to a real object store
// (s3rver) with a progress notification; Cancel stops it (the tool is not called), sending again works and
// the tool reads the bytes back; a file output is saved from the result view and its bytes match its digest, and
// opened without saving (a verified copy in the window's own temporary folder); a file embedded as a resource
// (FileResourceContents) is saved and verified the same way.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { acceptSaveDialog, answerDialog, chooseFromWorkspace, dialog, newestResult, runToolFromPalette } from './steps.mjs';
import { root, withWorkbench } from './workbench.mjs';

/** Starts a fixture with tsx and waits for its "listening <port>" line. */
async function start(file: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/fixtures', file), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${file} did not start: ${seen}`)), 30_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      seen += chunk;
      const m = /listening (\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}: ${seen}`));
    });
  });
  return { child, port };
}

/** The files opened without saving: each in a `mcp-host-opened-*` folder of the temporary directory. */
function openedCopies(): string[] {
  return readdirSync(tmpdir())
    .filter((d) => d.startsWith('mcp-host-opened-'))
    .flatMap((d) => readdirSync(join(tmpdir(), d)).map((f) => join(tmpdir(), d, f)));
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGCONT');
    child.kill('SIGTERM');
  });
}

test('file transfer: a large file uploaded with progress, cancelled once, sent again; a file output saved and verified', async () => {
  const store = await start('object-store.ts', []);
  const storeUrl = `http://127.0.0.1:${store.port}`;
  const mcp = await start('transfer-server.ts', ['--http', '--store', storeUrl]);
  const servers = { transfer: { type: 'http' as const, url: `http://127.0.0.1:${mcp.port}/mcp` } };
  try {
    await withWorkbench('file-transfer', { servers }, async (wb) => {
      const size = 48 * 1024 * 1024;
      const bytes = randomBytes(size);
      writeFileSync(join(wb.folder, 'recording.bin'), bytes);
      const sha256 = createHash('sha256').update(bytes).digest('base64url');

      // 1. an upload-only slot, a 48 MiB file: the confirmation comes after the authorization and names where the
      // bytes go (random bytes may sniff as any type); Cancel there sends nothing
      const panel = await runToolFromPalette(wb, 'inspect_upload', 'transfer');
      await chooseFromWorkspace(wb, panel, 'doc', 'recording.bin');
      await panel.getByRole('list', { name: 'Chosen files for doc' }).getByText('recording.bin').waitFor();
      const storeHost = `127.0.0.1:${store.port}`;
      const uploadedTo = new RegExp(`doc: recording\\.bin \\(48 MiB, [^,()]+, uploaded to ${storeHost.replace(/\./g, '\\.')}\\)`);
      await panel.getByRole('button', { name: 'Run' }).click();
      await dialog(wb).waitFor({ timeout: 30_000 });
      assert.match(await dialog(wb).innerText(), uploadedTo);
      await answerDialog(wb, 'Cancel');
      await panel.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor({ timeout: 30_000 });
      assert.equal(await newestResult(panel).count(), 0, 'the tool was not called');

      // then Send, with the store paused so the progress notification stays; Cancel in the notification
      await panel.getByRole('button', { name: 'Run' }).click();
      process.kill(store.child.pid!, 'SIGSTOP');
      // toasts stay hidden in this headless window: the notification is read in the notification centre
      const toast = wb.page.locator('.notifications-center .notification-list-item', { hasText: 'Uploading recording.bin' });
      try {
        await dialog(wb).waitFor({ timeout: 30_000 });
        assert.match(await dialog(wb).innerText(), uploadedTo);
        await answerDialog(wb, 'Send');
        await wb.runCommand('Notifications: Show Notifications');
        // it says "starting" until the first bytes are on their way
        await toast.filter({ hasText: /of 48 MiB/ }).waitFor({ timeout: 30_000 });
        await wb.shot('upload-progress');
        await toast.getByRole('button', { name: 'Cancel' }).click();
        await panel.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor({ timeout: 30_000 });
        await wb.shot('upload-cancelled');
      } finally {
        process.kill(store.child.pid!, 'SIGCONT');
      }
      assert.equal(await newestResult(panel).count(), 0, 'the tool was not called');

      // 2. sent again: the tool reads the object back from the store
      await panel.getByRole('button', { name: 'Run' }).click();
      await answerDialog(wb, 'Send');
      const result = newestResult(panel).filter({ hasText: /"via"/ });
      await result.waitFor({ timeout: 120_000 });
      await wb.shot('upload-result');
      const text = await result.innerText();
      assert.match(text, /"via":\s*"upload"/);
      assert.match(text, new RegExp(`"size":\\s*${size}\\b`));
      assert.match(text, new RegExp(`"sha256":\\s*"${sha256}"`));

      // 3. a file output: listed with its name, size, type and digest; Save… downloads, verifies, saves
      const maker = await runToolFromPalette(wb, 'make_file', 'transfer');
      await maker.getByRole('button', { name: 'Run' }).click();
      const made = newestResult(maker).filter({ hasText: 'made report.bin' });
      await made.waitFor({ timeout: 30_000 });
      const item = made.locator('.file-output').filter({ hasText: 'report.bin' });
      assert.match(await item.innerText(), /report\.bin · 1 MiB · application\/octet-stream · sha-256 given/);
      assert.equal(await made.locator('.file-output').count(), 1, 'the content block and its structured copy are one item');
      // the digest sits one level deeper than the tree opens by itself
      await made
        .locator('details.structured summary')
        .filter({ hasText: /^\{2\}$/ })
        .click();
      await wb.shot('file-output');
      const digest = /value:\s*"([A-Za-z0-9_-]{43})"/.exec(await made.innerText())?.[1];
      assert.ok(digest, 'the structured content shows the digest');
      await item.getByRole('button', { name: /Save report\.bin/ }).click();
      await acceptSaveDialog(wb, 'report.bin');
      const saved = readFileSync(join(wb.folder, 'report.bin'));
      assert.equal(saved.length, 1024 * 1024);
      assert.equal(createHash('sha256').update(saved).digest('base64url'), digest);

      // 4. Open, without saving first: verified into the window's own temporary folder and shown in an editor
      const openedBefore = openedCopies();
      await item.getByRole('button', { name: /Open report\.bin/ }).click();
      await wb.page.locator('.tabs-container .tab', { hasText: 'report.bin' }).first().waitFor({ timeout: 30_000 });
      await wb.shot('file-output-opened');
      const opened = openedCopies().filter((p) => !openedBefore.includes(p));
      assert.equal(opened.length, 1, `one copy opened: ${opened.join(', ')}`);
      assert.equal(createHash('sha256').update(readFileSync(opened[0]!)).digest('base64url'), digest);

      // 5. a file embedded in the result as a resource (a FileResourceContents in a `resource` block): offered
      // like a file output, saved after the same checks
      const embedder = await runToolFromPalette(wb, 'make_resource_file', 'transfer');
      await embedder.getByLabel('name').fill('ledger.bin');
      await embedder.getByRole('button', { name: 'Run' }).click();
      const embedded = newestResult(embedder).filter({ hasText: 'made ledger.bin as a resource' });
      await embedded.waitFor({ timeout: 30_000 });
      const ledger = embedded.locator('.file-output').filter({ hasText: 'ledger.bin' });
      assert.match(await ledger.innerText(), /ledger\.bin · 1 MiB · application\/octet-stream · sha-256 given/);
      await wb.shot('embedded-file-output');
      const ledgerDigest = /sha-256 ([A-Za-z0-9_-]{43})\)/.exec(await embedded.innerText())?.[1];
      assert.ok(ledgerDigest, 'the server said the digest');
      await ledger.getByRole('button', { name: /Save ledger\.bin/ }).click();
      await acceptSaveDialog(wb, 'ledger.bin');
      const ledgerSaved = readFileSync(join(wb.folder, 'ledger.bin'));
      assert.equal(ledgerSaved.length, 1024 * 1024);
      assert.equal(createHash('sha256').update(ledgerSaved).digest('base64url'), ledgerDigest);
    });
  } finally {
    await stop(mcp.child);
    await stop(store.child);
  }
});
