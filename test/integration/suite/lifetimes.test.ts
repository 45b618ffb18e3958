import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { api, startHostileHttpServer, waitFor } from './helpers';

/** The demo server processes this extension host started (stdio servers are its children, in groups of their own). */
function demoServerPids(): Set<number> {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8', maxBuffer: 8 * 1024 * 1024 });
  const pids = new Set<number>();
  for (const line of table.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    // `node …/demo-server.js` itself, not a server that wraps it (a recording proxy runs it as its own child)
    if (match && Number(match[2]) === process.pid && /^\S*node\s+\S*demo-server\.js$/.test(match[3]!.trim())) pids.add(Number(match[1]));
  }
  return pids;
}

/** The TCP sockets this extension host listens on (from /proc: its descriptors matched with the kernel's tables). */
function listeningSockets(): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    } catch {
      /* closed meanwhile */
    }
  }
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((row) => row.trim().split(/\s+/));
    // column 3: the state (0A = LISTEN), column 9: the socket's inode
    count += rows.filter((row) => row[3] === '0A' && inodes.has(row[9] ?? '')).length;
  }
  return count;
}

/** MCP: Run Tool… listens to the manager while its quick pick is open, and not after. */
async function openAndCloseRunToolPick(listenersBefore: number): Promise<void> {
  const host = await api();
  const picking = vscode.commands.executeCommand('mcpHost.runTool');
  await waitFor('the quick pick listening', () => host.lifetimes().changeListeners === listenersBefore + 1);
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  await picking;
  assert.equal(host.lifetimes().changeListeners, listenersBefore, 'the closed quick pick stopped listening');
}

describe('owned lifetimes', () => {
  /** Servers not running before this test: stopped after it (the quick pick starts every server it can). */
  let stoppedBefore: string[] = [];
  before(async () => {
    stoppedBefore = (await api()).servers
      .list()
      .filter((s) => s.state.kind !== 'running')
      .map((s) => s.name);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const host = await api();
    await Promise.all(stoppedBefore.map((name) => host.servers.stop(name).catch(() => undefined)));
  });

  it('50 tool panels opened and closed and a server started and stopped 50 times leave no listener, panel, connection or process', async function () {
    this.timeout(600_000);
    const host = await api();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await host.servers.stop('demo');
    // Other servers of the workspace run the same script: only the processes started from here on are demo's.
    const others = demoServerPids();
    const started = new Set<number>();
    const noteStarted = (): void => {
      for (const pid of demoServerPids()) if (!others.has(pid)) started.add(pid);
    };
    await host.servers.start('demo');
    noteStarted();
    // One panel and one quick pick first: what lives as long as a connection is in the baseline, and so are the
    // servers the quick pick starts in the background.
    await host.openTool('demo', 'describe_file');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('the first panel disposed', () => host.lifetimes().toolPanels === 0);
    await openAndCloseRunToolPick(host.lifetimes().changeListeners);
    await waitFor('no server starting', () => host.servers.list().every((s) => s.state.kind !== 'starting'), 60_000);
    const baseline = host.lifetimes();
    assert.equal(baseline.webviewPanels, 0);
    assert.ok(baseline.changeListeners > 0, 'the views listen to the manager');

    for (let i = 0; i < 50; i++) {
      await host.openTool('demo', i % 2 ? 'describe_file' : 'receipt_from_photo');
      await waitFor(`panel ${i} open`, () => host.lifetimes().toolPanels === 1);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await waitFor(`panel ${i} disposed`, () => host.lifetimes().toolPanels === 0 && host.lifetimes().webviewPanels === 0);
      if (i % 10 === 0) await openAndCloseRunToolPick(baseline.changeListeners);
    }
    assert.deepEqual(host.lifetimes(), baseline, 'after 50 panels');

    for (let i = 0; i < 50; i++) {
      if (i % 2) {
        await host.servers.restart('demo');
      } else {
        await host.servers.stop('demo');
        await host.servers.start('demo');
      }
      noteStarted();
    }
    assert.ok(started.size >= 50, `a new process per start (${started.size} seen)`);
    // A replaced connection took its listeners with it: the new one has the same ones as the first.
    assert.deepEqual(host.lifetimes(), baseline, 'after 50 starts');

    await host.servers.stop('demo');
    // Looked up in the process table again, not by PID alone: a busy machine reuses PIDs within the minute.
    const leftOver = () => {
      const now = demoServerPids();
      return [...started].filter((pid) => now.has(pid));
    };
    // A stop ends stdin, then SIGTERM and SIGKILL a grace period apart: generous on a loaded machine.
    const left = await waitFor('every demo process started here gone', () => (leftOver().length ? undefined : true), 60_000).catch(() => leftOver());
    const states = host.servers
      .list()
      .map((s) => `${s.name}: ${s.state.kind}`)
      .join(', ');
    assert.equal(left, true, `processes left: ${String(left)} (${states})`);
  });

  it('an HTTP server restarted 10 times keeps one sign-in redirect listener, and none once removed', async function () {
    this.timeout(180_000);
    const host = await api();
    const { base, fixture } = await startHostileHttpServer();
    const userConfig = host.paths.userConfig.fsPath;
    const saved = await fsp.readFile(userConfig, 'utf8').catch(() => undefined);
    try {
      const withoutIt = listeningSockets();
      await fsp.mkdir(dirname(userConfig), { recursive: true });
      await fsp.writeFile(userConfig, JSON.stringify({ servers: { 'well-behaved': { type: 'http', url: `${base}/ok/mcp` } } }));
      await host.servers.reload();
      await host.servers.start('well-behaved');
      const running = listeningSockets();
      const baseline = host.lifetimes();
      assert.ok(running > withoutIt, 'a started HTTP server has a loopback listener waiting for a sign-in redirect');
      for (let i = 0; i < 10; i++) await host.servers.restart('well-behaved');
      assert.equal(listeningSockets(), running, 'each replaced connection closed its listener');
      assert.deepEqual(host.lifetimes(), baseline);
      if (saved === undefined) await fsp.rm(userConfig, { force: true });
      else await fsp.writeFile(userConfig, saved);
      await host.servers.reload();
      await waitFor('the removed server gone', () => !host.servers.list().some((s) => s.name === 'well-behaved'));
      await waitFor('its listener closed', () => listeningSockets() === withoutIt, 10_000);
    } finally {
      if (saved === undefined) await fsp.rm(userConfig, { force: true });
      else await fsp.writeFile(userConfig, saved);
      await host.servers.reload();
      fixture.kill();
    }
  });
});
