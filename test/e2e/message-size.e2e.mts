import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { chooseFromWorkspace, runAndSend, runToolFromPalette } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

const FILE_SIZE = Math.round(4.5 * 1024 * 1024);
const MAX_MESSAGE_CHARS = 8 * 1024;

interface Seen {
  toExtension: boolean;
  chars: number;
  kind: string;
}

test('no message to or from the webview carries more than 8 KB while a 4.5 MiB file is attached and sent', async () => {
  await withWorkbench('message-size', {}, async (wb) => {
    writeFileSync(join(wb.folder, 'big.bin'), randomBytes(FILE_SIZE));
    const panel = await runToolFromPalette(wb, 'Describe a file');

    // The outer webview frame relays: workbench -> outer over a MessagePort, outer -> inner by postMessage,
    // inner -> outer by a function call, outer -> workbench over the MessagePort. So the webview's messages
    // are recorded where they leave the outer frame, and the extension's where they reach the inner one.
    const outer = await (await wb.page.locator('iframe.webview.ready').filter({ visible: true }).first().elementHandle())?.contentFrame();
    const inner = await (await outer?.$('iframe#active-frame'))?.contentFrame();
    assert.ok(outer && inner, 'the webview frames');
    await outer.evaluate(() => {
      const seen: Seen[] = [];
      (window as unknown as { mcpHostSeen: Seen[] }).mcpHostSeen = seen;
      const post = MessagePort.prototype.postMessage;
      MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, transfer?: Transferable[]) {
        const channel = typeof message === 'object' && message !== null && 'channel' in message ? String(message.channel) : typeof message;
        seen.push({ toExtension: true, chars: JSON.stringify(message)?.length ?? 0, kind: channel });
        return (post as (m: unknown, t: Transferable[]) => void).call(this, message, transfer ?? []);
      } as typeof post;
    });
    await inner.evaluate(() => {
      const seen: Seen[] = [];
      (window as unknown as { mcpHostSeen: Seen[] }).mcpHostSeen = seen;
      window.addEventListener(
        'message',
        (event) => {
          const data: unknown = event.data;
          const type = typeof data === 'object' && data !== null && 'type' in data ? String(data.type) : typeof data;
          seen.push({ toExtension: false, chars: JSON.stringify(data)?.length ?? 0, kind: type });
        },
        true,
      );
    });

    await chooseFromWorkspace(wb, panel, 'File', 'big.bin');
    await panel.getByRole('list', { name: 'Chosen files for File' }).getByText('big.bin').waitFor();
    await wb.shot('big-file-chosen');
    const text = await runAndSend(wb, panel, { timeoutMs: 60_000 });
    assert.match(text, new RegExp(`${FILE_SIZE} bytes`));

    const read = () => (window as unknown as { mcpHostSeen: Seen[] }).mcpHostSeen;
    const seen = [...(await outer.evaluate(read)), ...(await inner.evaluate(read))];
    writeFileSync(join(wb.artifacts, 'messages.json'), JSON.stringify(seen, null, 1));
    const kinds = (toExtension: boolean) => new Set(seen.filter((m) => m.toExtension === toExtension).map((m) => m.kind));
    assert.ok(kinds(true).has('onmessage'), `the webview's messages were seen (${[...kinds(true)].join(', ')})`);
    assert.ok(kinds(false).has('fileSelected') && kinds(false).has('result'), `the extension's messages were seen (${[...kinds(false)].join(', ')})`);
    const largest = seen.reduce((a, b) => (b.chars > a.chars ? b : a));
    assert.ok(largest.chars < MAX_MESSAGE_CHARS, `largest message: ${largest.chars} chars ('${largest.kind}')`);
  });
});
