// A server that stops reading its stdin: the host's writes wait for the pipe to drain, all of them on one
// listener, and every one of those waits ends when the process goes away instead of hanging for ever.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StdioProcessTransport } from '../../src/core/connection/stdioTransport';
import { Logger } from '../../src/core/log';

test('writes to a server that never reads share one drain wait, and all of them fail when the server exits', async () => {
  const transport = new StdioProcessTransport(
    {
      name: 'deaf',
      transport: 'stdio',
      command: process.execPath,
      // never reads stdin; exits when told to through its own timer
      args: ['-e', 'setTimeout(() => process.exit(0), 1500)'],
      env: { ...process.env } as Record<string, string>,
    },
    new Logger(() => undefined, 'error'),
    200,
  );
  await transport.start();
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  try {
    const big = 'x'.repeat(64 * 1024);
    const sends = Array.from({ length: 200 }, (_, i) =>
      transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { i, big } }).then(
        () => 'sent',
        (e: Error) => e.message,
      ),
    );
    const outcomes = await Promise.race([
      Promise.all(sends),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a write still waits after the server exited')), 20_000)),
    ]);
    assert.ok(outcomes.includes('the server process is not running'), 'the blocked writes fail once the process is gone');
    assert.deepEqual(
      warnings.filter((w) => w === 'MaxListenersExceededWarning'),
      [],
    );
  } finally {
    process.off('warning', onWarning);
    await transport.close();
  }
});
