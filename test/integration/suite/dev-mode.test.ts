import * as assert from 'node:assert/strict';
import { promises as fsp, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { api, resultText, waitFor, workspaceRoot } from './helpers';

const SERVER = 'dev-watched';

/** The states SERVER goes through from now on (repeats dropped). */
async function recordStates(): Promise<{ states: string[]; dispose(): void }> {
  const host = await api();
  const states: string[] = [];
  const subscription = host.servers.onDidChange(() => {
    const kind = host.servers.list().find((s) => s.name === SERVER)?.state.kind ?? 'absent';
    if (states.at(-1) !== kind) states.push(kind);
  });
  return { states, dispose: () => subscription.dispose() };
}

describe('dev mode', () => {
  const folder = () => join(workspaceRoot().fsPath, 'dev-mode-server');
  const source = () => join(folder(), 'server.mjs');
  const configFile = () => vscode.Uri.joinPath(workspaceRoot(), '.vscode/mcp.json').fsPath;
  let original = '';
  let fixture = '';

  before(async () => {
    original = await fsp.readFile(configFile(), 'utf8');
    fixture = await fsp.readFile(join(workspaceRoot().fsPath, '../../fixtures/dev-server.mjs'), 'utf8');
    await fsp.mkdir(join(folder(), 'notes'), { recursive: true });
    await fsp.writeFile(source(), fixture);
    // (the file watcher reports a change a moment late: these writes must not reach the watch made below)
    await new Promise((r) => setTimeout(r, 2000));
  });

  after(async () => {
    await fsp.writeFile(configFile(), original);
    await (await api()).servers.reload();
    await fsp.rm(folder(), { recursive: true, force: true });
  });

  async function version(): Promise<string> {
    return resultText(await (await api()).callTool(SERVER, 'version', {}));
  }

  /** Whether the server runs the source with this VERSION (a restart under way answers no). */
  async function runs(v: string): Promise<boolean> {
    const host = await api();
    if (host.servers.list().find((s) => s.name === SERVER)?.state.kind !== 'running') return false;
    return version().then(
      (text) => text.startsWith(`version ${v} `),
      () => false,
    );
  }

  /** Saves the source unchanged until the server restarts (a new pid), then lets the watcher's late reports pass. */
  async function watchIsLive(): Promise<void> {
    const before = await version();
    for (let attempt = 1; ; attempt++) {
      await fsp.writeFile(source(), await fsp.readFile(source()));
      try {
        await waitFor('a restart after a save', async () => (await runs('v1')) && (await version()) !== before, 5_000);
        break;
      } catch (e) {
        if (attempt >= 6) throw e;
      }
    }
    await new Promise((r) => setTimeout(r, 1500));
  }

  /** The server's source with another VERSION. */
  const sourceAt = (version: string) => fixture.replace("const VERSION = 'v1';", `const VERSION = '${version}';`);
  /** Writes the server's source with another VERSION. */
  async function editSource(to: string): Promise<void> {
    await fsp.writeFile(source(), sourceAt(to));
  }

  it('starts a server with a dev block as soon as it is configured, and restarts it when a watched file changes', async function () {
    this.timeout(150_000);
    const host = await api();
    const entry = `"${SERVER}": {
      "type": "stdio",
      "command": "node",
      "args": ["\${workspaceFolder}/dev-mode-server/server.mjs"],
      "dev": { "watch": ["dev-mode-server/**/*.mjs", "dev-mode-server/notes/**", "!dev-mode-server/notes/scratch/**"] }
    },
    "demo": {`;
    const changed = original.replace('"demo": {', entry);
    assert.notEqual(changed, original);
    await fsp.writeFile(configFile(), changed);
    await host.servers.reload();
    // Nobody asked it to start.
    await waitFor(`${SERVER} running`, () => host.servers.list().find((s) => s.name === SERVER && s.state.kind === 'running'), 30_000);
    assert.match(await version(), /^version v1 \(pid \d+\)/);
    // VS Code's watcher goes live a moment after it is made (seconds on a busy machine), and a change before that is
    // not reported: the source is saved again, unchanged, until a restart shows the watch is live.
    await watchIsLive();

    // A call in flight when the source changes ends, saying why; the new source runs within a few seconds.
    const recorder = await recordStates();
    try {
      const waiting = host.callTool(SERVER, 'wait', { seconds: 30 });
      const outcome = waiting.then(
        () => 'answered',
        (e: Error) => e.message,
      );
      await new Promise((r) => setTimeout(r, 500));
      const edited = Date.now();
      await editSource('v2');
      assert.match(await outcome, /^tool "wait" ended: the server was restarted: dev-mode-server\/server\.mjs changed \(dev\.watch\)$/);
      await waitFor('v2 running', () => runs('v2'), 30_000);
      const took = Date.now() - edited;
      console.log(`dev mode: the edited source ran ${took} ms after the edit`);
      assert.ok(took < 5000, `restarted in ${took} ms`);
      assert.deepEqual(recorder.states, ['stopped', 'starting', 'running'], recorder.states.join(' -> '));

      // Several saves in a burst (one after the other, as a build writes its files) make one restart. (Written with
      // no wait between them: on a busy machine, this extension host's awaited writes can fall more than the debounce
      // apart, which is two bursts.)
      recorder.states.length = 0;
      for (const v of ['v3', 'v4', 'v5', 'v6']) writeFileSync(source(), sourceAt(v));
      await waitFor('v6 running', () => runs('v6'), 30_000);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(recorder.states.filter((s) => s === 'starting').length, 1, recorder.states.join(' -> '));

      // A file an exclude names does not restart it; one the other include names does.
      recorder.states.length = 0;
      await fsp.mkdir(join(folder(), 'notes/scratch'), { recursive: true });
      await fsp.writeFile(join(folder(), 'notes/scratch/todo.txt'), 'later');
      await new Promise((r) => setTimeout(r, 2000));
      assert.deepEqual(recorder.states, [], 'an excluded file restarts nothing');
      await fsp.writeFile(join(folder(), 'notes/plan.txt'), 'now');
      await waitFor('a restart for notes/plan.txt', () => recorder.states.at(-1) === 'running' && recorder.states.includes('starting'), 15_000);
    } finally {
      recorder.dispose();
    }
  });

  it('a dev-mode server stopped by hand stays stopped when its files change', async function () {
    this.timeout(30_000);
    const host = await api();
    await host.servers.stop(SERVER);
    const recorder = await recordStates();
    try {
      await editSource('v7');
      await new Promise((r) => setTimeout(r, 2000));
      assert.deepEqual(recorder.states, []);
      assert.equal(host.servers.list().find((s) => s.name === SERVER)?.state.kind, 'stopped');
    } finally {
      recorder.dispose();
    }
  });

  it('dev.debug node: the server starts under the debugger, and a breakpoint in its tool handler stops the call', async function () {
    this.timeout(120_000);
    const host = await api();
    const debugged = join(folder(), '..', 'dev-mode-debug', 'server.mjs');
    await fsp.mkdir(join(debugged, '..'), { recursive: true });
    await fsp.writeFile(debugged, fixture);
    const line = fixture.split('\n').findIndex((l) => l.includes('const answer = `version'));
    assert.ok(line > 0);
    const breakpoint = new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(debugged), new vscode.Position(line, 0)));
    vscode.debug.addBreakpoints([breakpoint]);
    const sessions: string[] = [];
    const stops: Array<{ session: vscode.DebugSession; threadId: number }> = [];
    const subscriptions = [
      vscode.debug.onDidStartDebugSession((s) => sessions.push(s.name)),
      vscode.debug.registerDebugAdapterTrackerFactory('*', {
        createDebugAdapterTracker: (session) => ({
          onDidSendMessage: (m: { type?: string; event?: string; body?: { threadId?: number; reason?: string } }) => {
            if (m.type === 'event' && m.event === 'stopped' && m.body?.reason === 'breakpoint') stops.push({ session, threadId: m.body.threadId ?? 0 });
          },
        }),
      }),
    ];
    try {
      const entry = `"dev-debugged": {
      "type": "stdio",
      "command": "node",
      "args": ["\${workspaceFolder}/dev-mode-debug/server.mjs"],
      "dev": { "debug": { "type": "node" } }
    },
    "demo": {`;
      await fsp.writeFile(configFile(), (await fsp.readFile(configFile(), 'utf8')).replace('"demo": {', entry));
      await host.servers.reload();
      await waitFor('dev-debugged running', () => host.servers.list().find((s) => s.name === 'dev-debugged' && s.state.kind === 'running'), 60_000);
      assert.ok(sessions.includes('MCP: dev-debugged'), `debug sessions: ${sessions.join(', ')}`);

      const call = host.callTool('dev-debugged', 'version', {});
      const stop = await waitFor('the breakpoint hit', () => stops[0], 30_000);
      const trace = (await stop.session.customRequest('stackTrace', { threadId: stop.threadId, levels: 1 })) as {
        stackFrames: Array<{ name: string; line: number; source?: { path?: string } }>;
      };
      const top = trace.stackFrames[0]!;
      assert.equal(top.name, 'versionTool');
      assert.equal(top.line, line + 1);
      assert.match(top.source?.path ?? '', /dev-mode-debug[\\/]server\.mjs$/);
      await stop.session.customRequest('continue', { threadId: stop.threadId });
      assert.match(resultText(await call), /^version v1 \(pid \d+\)/);
    } finally {
      vscode.debug.removeBreakpoints([breakpoint]);
      for (const s of subscriptions) s.dispose();
      await host.servers.stop('dev-debugged').catch(() => undefined);
      await fsp.rm(join(debugged, '..'), { recursive: true, force: true });
    }
  });

  it('dev.debug debugpy without the Python Debugger extension: the start fails naming the extension', async function () {
    this.timeout(30_000);
    const host = await api();
    const entry = `"dev-debugpy": { "command": "python3", "args": ["server.py"], "dev": { "debug": { "type": "debugpy" } } },
    "demo": {`;
    await fsp.writeFile(configFile(), (await fsp.readFile(configFile(), 'utf8')).replace('"demo": {', entry));
    await host.servers.reload();
    await assert.rejects(host.servers.start('dev-debugpy'), /"dev\.debug" type "debugpy" needs the Python Debugger extension \(ms-python\.debugpy\)/);
    const state = host.servers.list().find((s) => s.name === 'dev-debugpy')?.state;
    assert.equal(state?.kind, 'error');
  });
});
