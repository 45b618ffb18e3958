import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { api, startHostileHttpServer, waitFor } from './helpers';

const MB = 1024 * 1024;

/** The extension host's resident memory now, in bytes (this suite runs inside it). */
function rssBytes(): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return kb ? Number(kb) * 1024 : process.memoryUsage().rss;
}

describe('bounded against a hostile HTTP server', function () {
  this.timeout(60_000);
  let fixture: ChildProcess;
  let base = '';
  let userConfig = '';
  let savedUserConfig: string | undefined;
  const received = async () =>
    (await (await fetch(`${base}/_received`)).json()) as { received: Array<{ method: string; path: string }>; sent: Record<string, number> };

  before(async () => {
    ({ base, fixture } = await startHostileHttpServer());
    const host = await api();
    userConfig = host.paths.userConfig.fsPath;
    savedUserConfig = await fsp.readFile(userConfig, 'utf8').catch(() => undefined);
    await fsp.mkdir(dirname(userConfig), { recursive: true });
    await fsp.writeFile(
      userConfig,
      JSON.stringify({
        servers: {
          'no-delete': { type: 'http', url: `${base}/no-delete/mcp` },
          'huge-answer': { type: 'http', url: `${base}/huge-body/mcp` },
          deep: { type: 'http', url: `${base}/deep/mcp` },
        },
      }),
    );
    await host.servers.reload();
    await waitFor('the hostile servers listed', () => host.servers.list().some((s) => s.name === 'huge-answer'));
  });

  after(async () => {
    const host = await api();
    await Promise.all(['no-delete', 'huge-answer', 'deep'].map((name) => host.servers.stop(name).catch(() => undefined)));
    if (savedUserConfig === undefined) await fsp.rm(userConfig, { force: true });
    else await fsp.writeFile(userConfig, savedUserConfig);
    await host.servers.reload();
    fixture.kill();
  });

  it('stop and restart do not wait on a server that never answers the DELETE ending its session', async () => {
    const host = await api();
    await host.servers.start('no-delete');
    const deletes = async () => (await received()).received.filter((r) => r.method === 'DELETE' && r.path.startsWith('/no-delete')).length;
    const before = await deletes();

    let started = Date.now();
    await host.servers.restart('no-delete');
    const restartMs = Date.now() - started;
    assert.equal(host.servers.list().find((s) => s.name === 'no-delete')?.state.kind, 'running');
    assert.ok(restartMs < 15_000, `the restart took ${restartMs} ms`);
    assert.deepEqual(
      host.servers.tools('no-delete').map((t) => t.name),
      ['echo'],
    );

    started = Date.now();
    await host.servers.stop('no-delete');
    const stopMs = Date.now() - started;
    assert.equal(host.servers.list().find((s) => s.name === 'no-delete')?.state.kind, 'stopped');
    assert.ok(stopMs < 10_000, `the stop took ${stopMs} ms`);
    assert.equal(await deletes(), before + 2, 'both session ends were asked for');
  });

  it('a tool nested 10,000 levels deep is refused alone, the MCP view saying why; structured content 5,000 deep is shown cut', async () => {
    const host = await api();
    await host.servers.start('deep');
    assert.equal(host.servers.list().find((s) => s.name === 'deep')?.state.kind, 'running');
    assert.deepEqual(
      host.servers.tools('deep').map((t) => t.name),
      ['echo'],
    );
    const server = host.tree.children().find((n) => n.kind === 'server' && n.server === 'deep');
    assert.ok(server);
    const [toolsGroup] = host.tree.children(server);
    const items = host.tree.children(toolsGroup).map((n) => host.tree.item(n));
    assert.deepEqual(
      items.map((i) => i.contextValue),
      ['mcpTool', 'mcpRefusedTool'],
    );
    assert.equal(items[1]!.label, 'deep');
    assert.equal(items[1]!.description, 'not offered');
    assert.match(String(items[1]!.tooltip), /^deep is not offered: its definition nests more than 512 levels deep, the host's limit$/);
    const view = await host.callTool('deep', 'echo', {});
    assert.equal(view.structured?.status, 'unchecked');
    assert.match(view.structured?.notes?.[0] ?? '', /nests more than 512 levels deep, the host's limit: it is shown cut at that depth/);
    assert.match(view.structured?.json ?? '', /\[nested more than 512 levels deep: cut here\]/);
  });

  it("a 400 MB answer is refused at the message limit: the extension host's memory stays bounded and the window responsive", async () => {
    const host = await api();
    await host.servers.start('huge-answer');
    const base = rssBytes();
    let peak = base;
    let lastTick = Date.now();
    let worstLag = 0;
    const sampler = setInterval(() => {
      const now = Date.now();
      worstLag = Math.max(worstLag, now - lastTick - 20);
      lastTick = now;
      peak = Math.max(peak, rssBytes());
    }, 20);
    let roundTrips = 0;
    let slowestRoundTrip = 0;
    let calling = true;
    // The workbench keeps answering while the answer streams in: command round trips through the window.
    const responsiveness = (async () => {
      while (calling) {
        const t = Date.now();
        await vscode.commands.getCommands(true);
        slowestRoundTrip = Math.max(slowestRoundTrip, Date.now() - t);
        roundTrips++;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      await assert.rejects(
        host.callTool('huge-answer', 'echo', {}),
        /the server sent an answer over 32 MiB, the message size limit; the connection was closed/,
      );
    } finally {
      calling = false;
      clearInterval(sampler);
      await responsiveness;
    }
    const growth = peak - base;
    console.log(
      `huge answer: RSS grew by ${(growth / MB).toFixed(0)} MB, event loop lag at most ${worstLag} ms, ${roundTrips} command round trips (slowest ${slowestRoundTrip} ms)`,
    );
    assert.ok(growth < 400 * MB, `the extension host grew by ${(growth / MB).toFixed(0)} MB`);
    assert.ok(worstLag < 3000, `the extension host's event loop stalled for ${worstLag} ms`);
    assert.ok(roundTrips > 0 && slowestRoundTrip < 5000, `slowest command round trip ${slowestRoundTrip} ms`);
    const sent = (await received()).sent['huge-body'] ?? 0;
    assert.ok(sent < 200 * MB, `the fixture sent ${(sent / MB).toFixed(0)} MB`);
    await waitFor('the server marked as stopped unexpectedly', () => host.servers.list().find((s) => s.name === 'huge-answer')?.state.kind === 'crashed');
  });
});
