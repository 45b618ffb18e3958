import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor } from './helpers';

async function logOf(server: string): Promise<string> {
  const host = await api();
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files.push(path);
    }
  };
  await walk(host.paths.logFolder.fsPath);
  // One file per channel, named after it ("MCP: <server>").
  const own = files.find((f) => basename(f).includes(server));
  return own ? fsp.readFile(own, 'utf8') : '';
}

describe('client features', () => {
  after(async () => {
    const host = await api();
    await Promise.all([host.servers.stop('everything'), host.servers.stop('paged')]);
  });

  it('lists all 1,000 tools of a server that pages them, in the Servers view too', async () => {
    const host = await api();
    await host.servers.start('paged');
    assert.equal(host.servers.tools('paged').length, 1000);
    const server = host.tree.children().find((n) => n.kind === 'server' && n.server === 'paged');
    assert.ok(server);
    const [toolsGroup] = host.tree.children(server);
    assert.equal(host.tree.children(toolsGroup).length, 1000);
  });

  it("writes server-everything's simulated log messages to its output channel, asked from the channel's level up", async () => {
    const host = await api();
    await host.servers.start('everything');
    await waitFor('toggle-simulated-logging', () => host.servers.tools('everything').some((t) => t.name === 'toggle-simulated-logging') || undefined);
    const started = await host.callTool('everything', 'toggle-simulated-logging', {});
    assert.equal(started.isError, false);
    try {
      // One message at once, then one every 5 s at a random level; those below the channel's level (info) are not sent.
      const log = await waitFor(
        'a simulated log message in the channel',
        async () => {
          const text = await logOf('everything');
          return /\[server\] (Info|Notice|Warning|Error|Critical|Alert|Emergency)[- ]level/i.test(text) ? text : undefined;
        },
        40_000,
      );
      assert.match(log, /asked the server for log messages from info up/);
      assert.doesNotMatch(log, /Debug-level message/, 'debug messages were not asked for');
    } finally {
      await host.callTool('everything', 'toggle-simulated-logging', {});
    }
  });

  it('offers the workspace folders as roots (server-everything get-roots-list)', async () => {
    const host = await api();
    await host.servers.start('everything');
    const folder = vscode.workspace.workspaceFolders![0];
    const text = await waitFor('the roots', async () => {
      const view = await host.callTool('everything', 'get-roots-list', {});
      const t = view.items.map((i) => (i.kind === 'text' ? i.text : '')).join('\n');
      return t.includes(folder!.uri.toString()) ? t : undefined;
    });
    assert.ok(text.includes(folder!.name));
  });
});

describe('resources in editors', () => {
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await api()).servers.stop('everything');
  });

  it('opens a resource read-only under mcp-host-resource:, refreshes it on updates while open, and unsubscribes on close', async () => {
    const host = await api();
    await host.servers.start('everything');
    const uri = 'demo://resource/dynamic/text/1';
    await vscode.commands.executeCommand('mcpHost.readResource', 'everything', uri);
    const doc = await waitFor('the resource document', () =>
      vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'mcp-host-resource' && Buffer.from(d.uri.query, 'base64url').toString().includes(uri)),
    );
    assert.equal(vscode.window.activeTextEditor?.document, doc, 'shown in the editor');
    assert.match(doc.getText(), /Resource 1/);
    await waitFor('the subscription', async () => ((await logOf('everything')).includes(`subscribed to ${uri}`) ? true : undefined));
    const first = doc.getText();
    await host.callTool('everything', 'toggle-subscriber-updates', {});
    try {
      // Each read says the time (to the second); updates come every 5 s.
      await waitFor('the document refreshed by an update', () => (doc.getText() !== first ? true : undefined), 30_000);
    } finally {
      await host.callTool('everything', 'toggle-subscriber-updates', {});
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('the unsubscription', async () => ((await logOf('everything')).includes(`unsubscribed from ${uri}`) ? true : undefined));
  });
});

describe('tasks', () => {
  after(async () => (await api()).servers.stop('everything'));

  it("runs server-everything's simulate-research-query as a task, with its status in the Tasks view", async () => {
    const host = await api();
    await host.servers.start('everything');
    await waitFor('simulate-research-query', () => host.servers.tools('everything').some((t) => t.name === 'simulate-research-query') || undefined);
    const seen = new Set<string>();
    const pending = host.callTool('everything', 'simulate-research-query', { topic: 'tides' });
    const watcher = setInterval(() => {
      for (const task of host.tasksView.children()) seen.add(String(host.tasksView.item(task).description));
    }, 100);
    const view = await pending.finally(() => clearInterval(watcher));
    assert.match(view.items.map((i) => (i.kind === 'text' ? i.text : '')).join(''), /# Research Report: tides/);
    assert.ok(
      [...seen].some((d) => /^working — (Gathering sources|Analyzing content)/.test(d)),
      [...seen].join(' | '),
    );
    const [done] = host.tasks();
    assert.equal(done!.status, 'completed');
    assert.equal(host.tasksView.item(done!).contextValue, 'mcpTask.done');
  });

  it('cancels a running task from its row (tasks/cancel), and a restart ends the tasks of the old connection', async () => {
    const host = await api();
    const pending = host.callTool('everything', 'simulate-research-query', { topic: 'storms' });
    const running = await waitFor('a running task', () => host.tasks().find((t) => t.tool === 'simulate-research-query' && t.endedAt === undefined));
    assert.equal(host.tasksView.item(running).contextValue, 'mcpTask.running');
    await vscode.commands.executeCommand('mcpHost.cancelTask', running);
    await assert.rejects(pending);
    assert.equal(running.status, 'cancelled');

    // The call fails while the restart runs: its failure is expected from the start, not left unhandled until then.
    const again = assert.rejects(host.callTool('everything', 'simulate-research-query', { topic: 'waves' }), (e: Error) => {
      // the state it names is the one that made it fail, never "not running (running)"
      assert.doesNotMatch(e.message, /\(running\)/);
      return true;
    });
    const second = await waitFor('another running task', () => host.tasks().find((t) => t !== running && t.endedAt === undefined));
    await host.servers.restart('everything');
    await again;
    assert.match(second.statusMessage ?? '', /a task ends with the connection that started it/);
  });
});

describe('tasks of a 2026-07-28 server (Tasks extension)', () => {
  const settings = () => vscode.workspace.getConfiguration('mcpHost.tasks');
  after(async () => {
    await settings().update('optionalToolsAsTasks', undefined, vscode.ConfigurationTarget.Global);
    await (await api()).servers.stop('tasks-2026');
  });

  it('runs a call the server makes a task with its status in the Tasks view, and cancels one from its row', async () => {
    const host = await api();
    await host.servers.start('tasks-2026');
    const seen = new Set<string>();
    const watcher = setInterval(() => {
      for (const task of host.tasksView.children()) if (task.server === 'tasks-2026') seen.add(String(host.tasksView.item(task).description));
    }, 50);
    const view = await host.callTool('tasks-2026', 'research', { topic: 'tides' }).finally(() => clearInterval(watcher));
    assert.match(view.items.map((i) => (i.kind === 'text' ? i.text : '')).join(''), /# Research Report: tides/);
    assert.ok(
      [...seen].some((d) => /^working — (Gathering sources|Analyzing content)/.test(d)),
      [...seen].join(' | '),
    );
    assert.equal(host.tasks().find((t) => t.server === 'tasks-2026')?.status, 'completed');

    const pending = host.callTool('tasks-2026', 'research', { topic: 'storms' });
    const running = await waitFor('a running task', () => host.tasks().find((t) => t.server === 'tasks-2026' && t.endedAt === undefined));
    assert.equal(host.tasksView.item(running).contextValue, 'mcpTask.running');
    await vscode.commands.executeCommand('mcpHost.cancelTask', running);
    await assert.rejects(pending);
    assert.equal(running.status, 'cancelled');
  });

  it('with optional tasks turned off, a call goes plainly; one the server refuses without a task is made again as one', async () => {
    const host = await api();
    await host.servers.start('tasks-2026');
    await settings().update('optionalToolsAsTasks', false, vscode.ConfigurationTarget.Global);
    const before = host.tasks().length;
    const quick = await host.callTool('tasks-2026', 'quick', {});
    assert.equal(quick.items.map((i) => (i.kind === 'text' ? i.text : '')).join(''), 'quick answer');
    assert.equal(host.tasks().length, before, 'no task for a plain call');
    const view = await host.callTool('tasks-2026', 'research', { topic: 'reefs' });
    assert.match(view.items.map((i) => (i.kind === 'text' ? i.text : '')).join(''), /# Research Report: reefs/);
    assert.equal(host.tasks().length, before + 1);
  });
});
