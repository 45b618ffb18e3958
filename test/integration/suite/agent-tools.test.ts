// The language model tools chat agents use, called through vscode.lm.invokeTool against the demo server behind a
// recording proxy: a workspace image reaches describe_file byte for byte after the confirmation (answered in the
// workbench's dialog, which names the file, its size and type, the tool and the server); refused paths say why and
// the server receives nothing.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor, workspaceFile, workspaceRoot } from './helpers';

const SERVER = 'demo-recorded';
const recordFile = () => join(workspaceRoot().fsPath, '../../../.artifacts/integration/agent-calls.jsonl');

async function recorded(): Promise<Record<string, unknown>[]> {
  const text = await fsp.readFile(recordFile(), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
}

function call(args: Record<string, unknown>, tool = 'describe_file'): Thenable<vscode.LanguageModelToolResult> {
  return vscode.lm.invokeTool('mcpHost_callTool', { input: { server: SERVER, tool, arguments: args }, toolInvocationToken: undefined });
}

describe('files for agents (language model tools)', function () {
  this.timeout(60_000);
  const made: string[] = [];

  before(async () => {
    await fsp.rm(recordFile(), { force: true });
    const root = workspaceRoot().fsPath;
    await fsp.writeFile(join(root, '.env'), 'API_TOKEN=do-not-send\n');
    made.push(join(root, '.env'));
    await fsp.symlink(join(root, '..', 'run.mjs'), join(root, 'link-out.txt'));
    made.push(join(root, 'link-out.txt'));
  });

  after(async () => {
    for (const path of made) await fsp.rm(path, { force: true });
    await (await api()).servers.stop(SERVER);
  });

  it('are registered, and the mcpHost tool set names them', async () => {
    await api();
    const names = vscode.lm.tools.map((t) => t.name);
    assert.ok(names.includes('mcpHost_listTools') && names.includes('mcpHost_callTool'), names.join(', '));
    const contributes = vscode.extensions.getExtension('mcp-host.mcp-host')!.packageJSON.contributes as {
      languageModelTools: { name: string; toolReferenceName: string }[];
      languageModelToolSets: { name: string; tools: string[] }[];
    };
    const set = contributes.languageModelToolSets.find((s) => s.name === 'mcpHost');
    // A tool set lists tools by their reference names.
    assert.deepEqual(
      set?.tools,
      contributes.languageModelTools.map((t) => t.toolReferenceName),
    );
  });

  it('list the tools with file arguments as workspace paths', async () => {
    const result = await vscode.lm.invokeTool('mcpHost_listTools', { input: { server: SERVER }, toolInvocationToken: undefined });
    const text = textOf(result);
    const listed = JSON.parse(text.slice(text.indexOf('\n') + 1)) as {
      tools: { tool: string; inputSchema: { properties: Record<string, { type: string; description: string; format?: string }> } }[];
    };
    const describe = listed.tools.find((t) => t.tool === 'describe_file');
    assert.ok(describe, text);
    const file = describe.inputSchema.properties.file!;
    assert.equal(file.type, 'string');
    assert.equal(file.format, undefined);
    assert.match(file.description, /Path of a file in the workspace.*Accepts any file; at most 5 MiB per file\./);
    assert.doesNotMatch(text, /x-mcp-file/);
  });

  it('refuse a path outside the workspace, a .. path, a link pointing out, .env and an over-limit file, naming why; the server receives nothing', async () => {
    const refusals: [Record<string, unknown>, string, RegExp][] = [
      [{ file: join(workspaceRoot().fsPath, '..', 'run.mjs') }, 'describe_file', /is outside the workspace folders/],
      [{ file: '../run.mjs' }, 'describe_file', /contains "\.\."/],
      [{ file: 'link-out.txt' }, 'describe_file', /symbolic link that leads outside the workspace/],
      [{ file: '.env' }, 'describe_file', /\.env looks like a file of secrets/],
      [{ attachment: 'large-photo.png', note: 'too big' }, 'attach_note', /attachment: large-photo\.png .*64 KiB/],
      [{ file: 'data:text/plain;base64,aGVsbG8=' }, 'describe_file', /not a URI/],
    ];
    for (const [args, tool, why] of refusals) {
      await assert.rejects(Promise.resolve(call(args, tool)), (e: Error) => {
        assert.match(e.message, why);
        assert.match(e.message, /nothing was sent/);
        return true;
      });
    }
    assert.deepEqual(await recorded(), [], 'the server received no call');
  });

  it('refuse an excluded server, and are withdrawn when the setting turns them off', async () => {
    const agents = vscode.workspace.getConfiguration('mcpHost.agents');
    await agents.update('excludedServers', [SERVER], vscode.ConfigurationTarget.Global);
    try {
      await assert.rejects(Promise.resolve(call({ file: 'photo.png' })), /excluded from agents \(setting mcpHost\.agents\.excludedServers\)/);
    } finally {
      await agents.update('excludedServers', undefined, vscode.ConfigurationTarget.Global);
    }
    await agents.update('enabled', false, vscode.ConfigurationTarget.Global);
    try {
      // Unregistered (and hidden by the contribution's `when`): VS Code has nothing to run.
      await assert.rejects(Promise.resolve(call({ file: 'photo.png' })), (e: Error) => !/Refused/.test(e.message) || assert.fail(e.message));
    } finally {
      await agents.update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the tools registered again', () =>
      Promise.resolve(call({ file: '../x' })).then(
        () => undefined,
        (e: Error) => /contains "\.\."/.test(e.message) || undefined,
      ),
    );
    assert.deepEqual(await recorded(), [], 'the server received no call');
  });

  it('send a workspace image to describe_file with the right bytes once the user confirmed the file, its size and type, the tool and the server', async () => {
    const bytes = await fsp.readFile(workspaceFile('photo.png'));
    // The test workbench answers VS Code's confirmation itself (yes); what it asked is checked here.
    const result = await call({ file: 'photo.png' });
    const asked = (await api()).agents.lastConfirmation();
    assert.equal(asked?.title, `Run "describe_file" on "${SERVER}" with 1 file?`);
    assert.match(
      asked?.message ?? '',
      /Send this file to the tool "describe_file" on the MCP server "demo-recorded":\n\n• photo\.png \(image\/png, 7 KiB\) as 'file'/,
    );
    const text = textOf(result);
    assert.match(text, /Type: image\/png/);
    assert.match(text, /7214 bytes/);
    const calls = await recorded();
    assert.equal(calls.length, 1);
    const sent = (calls[0]!.arguments as { file: { sha256: string } }).file;
    assert.equal(sent.sha256, createHash('sha256').update(bytes).digest('hex'));
  });
});

// An agent's request end to end at the API level, as a chat agent runs it: the deterministic test model is offered
// the MCP Host tools, calls mcpHost_callTool, the call runs through VS Code's tool service, and its result goes back.
describe('files for agents: an agent request on the test model', function () {
  this.timeout(60_000);

  before(async function () {
    if (typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider !== 'function') this.skip();
    await fsp.rm(recordFile(), { force: true });
  });

  after(async () => (await api()).servers.stop(SERVER));

  it('makes the model call the bridge, which sends the workspace image, and reads the result back', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'mcp-host-test', family: 'test-echo' });
    assert.ok(model, 'the test model is registered');
    const tools: vscode.LanguageModelChatTool[] = vscode.lm.tools
      .filter((t) => t.name.startsWith('mcpHost_'))
      .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    const ask = vscode.LanguageModelChatMessage.User(
      `Describe photo.png: call mcpHost_callTool ${JSON.stringify({ server: SERVER, tool: 'describe_file', arguments: { file: 'photo.png' } })}`,
    );
    const messages = [ask];
    let answer = '';
    for (let turn = 0; turn < 3; turn++) {
      const calls: vscode.LanguageModelToolCallPart[] = [];
      answer = '';
      for await (const part of (await model.sendRequest(messages, { tools })).stream) {
        if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
        else if (part instanceof vscode.LanguageModelTextPart) answer += part.value;
      }
      if (calls.length === 0) break;
      messages.push(vscode.LanguageModelChatMessage.Assistant(calls));
      const results = [];
      for (const c of calls) {
        const result = await vscode.lm.invokeTool(c.name, { input: c.input, toolInvocationToken: undefined });
        results.push(new vscode.LanguageModelToolResultPart(c.callId, result.content));
      }
      messages.push(vscode.LanguageModelChatMessage.User(results));
    }
    assert.match(answer, /^Tool call-\d+ returned: Type: image\/png/);
    assert.match(answer, /7214 bytes/);
    const calls = await recorded();
    assert.equal(calls.length, 1);
    const bytes = await fsp.readFile(workspaceFile('photo.png'));
    assert.equal((calls[0]!.arguments as { file: { sha256: string } }).file.sha256, createHash('sha256').update(bytes).digest('hex'));
  });
});

describe('files for agents: the @mcp chat participant', function () {
  this.timeout(60_000);
  before(() => fsp.rm(recordFile(), { force: true }));
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await api()).servers.stop(SERVER);
  });

  /** Runs the participant's handler as chat calls it; the response's markdown is collected as text. */
  async function chat(command: string, prompt: string, files: string[] = []): Promise<string> {
    const references = files.map((f) => ({ id: 'vscode.file', value: vscode.Uri.file(workspaceFile(f)) }));
    const request = { command, prompt, references, toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest;
    let text = '';
    const stream = {
      markdown: (v: string | vscode.MarkdownString) => {
        text += typeof v === 'string' ? v : v.value;
      },
      progress: () => undefined,
    } as unknown as vscode.ChatResponseStream;
    await (await api()).agents.participant(request, { history: [] } as unknown as vscode.ChatContext, stream, new vscode.CancellationTokenSource().token);
    return text.replace(/\\(.)/g, '$1');
  }

  it("/tools lists a named server's tools with their file arguments", async () => {
    const text = await chat('tools', SERVER);
    assert.match(text, /describe_file \(files: file\)/);
    assert.match(text, /compare_images \(files: images\)/);
  });

  it("/run opens the tool's panel with the referenced file in its file argument; an unfit file is refused", async () => {
    const text = await chat('run', `describe_file on ${SERVER} #file:photo.png`, ['photo.png']);
    assert.match(text, /Opened describe_file on demo-recorded with file: photo\.png\. Check the form and press Run/);
    const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    await waitFor(
      `a "Describe a file (demo-recorded)" tab (tabs: ${labels().join(', ')})`,
      () => labels().some((l) => l.includes('Describe a file (demo-recorded)')) || undefined,
    );
    const refused = await chat('run', `attach_note on ${SERVER}`, ['large-photo.png']);
    assert.match(refused, /Refused \(the panel says why\): attachment: large-photo\.png/);
    assert.deepEqual(await recorded(), [], 'nothing is sent before the user presses Run');
  });
});

// A tool's file outputs reach the workspace only when the user says so, and the model is told where they went. The
// "save?" notification and the save dialog are answered by standing in for the user (window.showInformationMessage,
// showSaveDialog, as the tool panel's Save tests do); the question, the write and the model's result are the extension's.
describe('files for agents: file outputs', function () {
  this.timeout(60_000);
  const window = vscode.window as { -readonly [K in keyof typeof vscode.window]: (typeof vscode.window)[K] };
  const original = { info: window.showInformationMessage, save: window.showSaveDialog };
  let answer: string | undefined;
  let saveTargets: (vscode.Uri | undefined)[] = [];
  const asked: string[] = [];
  const dialogs: string[] = [];
  const saveDir = () => join(workspaceRoot().fsPath, 'agent-saved');
  // What export_report makes for these arguments: a title line, then day,visits,signups rows.
  const REPORT = '# Agent report\nday,visits,signups\n1,37,7\n2,74,1\n3,10,8\n';

  before(async () => {
    await fsp.rm(recordFile(), { force: true });
    window.showInformationMessage = ((message: string, ...items: unknown[]) => {
      if (!message.includes('Save to the workspace?')) return original.info(message as never, ...(items as never[]));
      asked.push(`${message} [${items.join('|')}]`);
      return Promise.resolve(answer);
    }) as typeof window.showInformationMessage;
    window.showSaveDialog = ((options?: vscode.SaveDialogOptions) => {
      dialogs.push(options?.title ?? '');
      return Promise.resolve(saveTargets.shift());
    }) as typeof window.showSaveDialog;
  });

  after(async () => {
    window.showInformationMessage = original.info;
    window.showSaveDialog = original.save;
    await fsp.rm(saveDir(), { recursive: true, force: true });
    await (await api()).servers.stop(SERVER);
  });

  function exportReport(): Thenable<vscode.LanguageModelToolResult> {
    return call({ title: 'Agent report', rows: 3 }, 'export_report');
  }

  async function workspaceListing(): Promise<string[]> {
    return (await fsp.readdir(workspaceRoot().fsPath, { recursive: true })).map(String).sort();
  }

  it('declined: nothing is written, no save dialog opens, and the model is told the files are not in the workspace', async () => {
    const before = await workspaceListing();
    answer = undefined;
    asked.length = 0;
    dialogs.length = 0;
    const text = textOf(await exportReport());
    assert.deepEqual(asked, [`"export_report" on "${SERVER}" returned 2 files: Agent-report.csv, Agent-report.csv. Save to the workspace? [Save…]`]);
    assert.deepEqual(dialogs, [], "no save dialog without the user's say");
    assert.match(text, /Generated Agent-report\.csv \(3 rows, 55 bytes\)\./);
    assert.match(text, /The tool returned Agent-report\.csv, Agent-report\.csv; the user did not save them, so nothing was written to the workspace\./);
    assert.deepEqual(await workspaceListing(), before, 'no file was written');
    assert.equal((await recorded()).length, 1, 'the tool ran once');
  });

  it('accepted: each file goes where the user chose, with the right bytes, and the model is told that path (or that one was not saved)', async () => {
    answer = 'Save…';
    asked.length = 0;
    dialogs.length = 0;
    const target = join(saveDir(), 'report.csv');
    saveTargets = [vscode.Uri.file(target), undefined];
    const text = textOf(await exportReport());
    assert.equal(asked.length, 1);
    assert.deepEqual(dialogs, ['Save Agent-report.csv (55 bytes)', 'Save Agent-report.csv (55 bytes)']);
    assert.match(text, /The user saved Agent-report\.csv as agent-saved\/report\.csv\.\nThe user did not save Agent-report\.csv\./);
    assert.equal(await fsp.readFile(target, 'utf8'), REPORT);
    assert.deepEqual(await fsp.readdir(saveDir()), ['report.csv'], 'only the chosen file was written');
  });
});

// A result larger than mcpHost.agents.maxResultCharacters (default 20,000) from an unmodified third-party server
// (server-everything's echo): the model gets a bounded preview and a handle, mcpHost_readResult returns ranges of
// the original byte for byte (also where a range starts or ends inside a multi-byte character), and the user opens
// the whole as a read-only mcp-result: document. Nothing is written into the workspace.
describe('large results for agents', function () {
  this.timeout(120_000);
  const message = Array.from({ length: 4000 }, (_, i) => `line ${i} \u00e9\u20ac\ud83d\ude00 \u4e2d\u6587`).join('\n');
  const original = `Echo: ${message}`;
  const bytes = Buffer.from(original, 'utf8');

  after(async () => (await api()).servers.stop('everything'));

  function read(input: Record<string, unknown>): Promise<{ header: string; text: string }> {
    return Promise.resolve(vscode.lm.invokeTool('mcpHost_readResult', { input, toolInvocationToken: undefined })).then((r) => {
      const [header, text] = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : ''));
      return { header: header!, text: text! };
    });
  }

  it('come back as a bounded preview and a handle; range reads through the handle return exactly the original bytes', async () => {
    const listing = async () => (await fsp.readdir(workspaceRoot().fsPath, { recursive: true })).map(String).sort();
    const before = await listing();
    const result = await vscode.lm.invokeTool('mcpHost_callTool', {
      input: { server: 'everything', tool: 'echo', arguments: { message } },
      toolInvocationToken: undefined,
    });
    const preview = textOf(result);
    assert.ok(preview.length <= 20_000, `the preview has ${preview.length} characters`);
    const handle = /kept as handle "(r\d+)"/.exec(preview)?.[1];
    assert.ok(handle, preview.slice(0, 500));
    assert.match(
      preview,
      new RegExp(`\\[part 1: text, ${original.length.toLocaleString('en-US')} characters, [\\d.]+ KiB, 4,000 lines\\]\\nEcho: line 0 \u00e9\u20ac\ud83d\ude00`),
    );
    assert.ok(preview.includes('line 3999 \u00e9\u20ac\ud83d\ude00 \u4e2d\u6587'), 'the tail is shown');

    // A range starting inside the first emoji and ending inside a CJK character.
    const start = bytes.indexOf(Buffer.from('\ud83d\ude00')) + 2;
    const end = bytes.indexOf(Buffer.from('\u6587')) + 1;
    const range = await read({ handle, part: '1', startByte: start, endByte: end });
    const [, from, to] = /bytes (\d+)-(\d+) of (\d+)/.exec(range.header) ?? [];
    assert.equal(Number(from), start - 2, range.header);
    assert.equal(Number(to), end - 1, range.header);
    assert.deepEqual(Buffer.from(range.text, 'utf8'), bytes.subarray(start - 2, end - 1));

    // The whole, read on from each answer's end, is the original byte for byte.
    const chunks: Buffer[] = [];
    for (let at = 0, reads = 0; at < bytes.length; reads++) {
      assert.ok(reads < 50, 'the reads go on');
      const r = await read({ handle, startByte: at });
      chunks.push(Buffer.from(r.text, 'utf8'));
      at = Number(/bytes \d+-(\d+) of/.exec(r.header)?.[1]);
    }
    assert.deepEqual(Buffer.concat(chunks), bytes);
    assert.equal(
      (await read({ handle, startLine: 2, endLine: 3 })).text,
      'line 1 \u00e9\u20ac\ud83d\ude00 \u4e2d\u6587\nline 2 \u00e9\u20ac\ud83d\ude00 \u4e2d\u6587\n',
    );

    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(`mcp-result:/${handle}/part-1.txt`));
    assert.equal(doc.getText(), original);
    const given = await vscode.workspace.openTextDocument(vscode.Uri.parse(`mcp-result:/${handle}/model-preview.txt`));
    assert.equal(given.getText(), preview, 'the user can see what the model was given');
    await assert.rejects(read({ handle: 'r999' }), /No kept result has the handle "r999"/);
    await assert.rejects(read({ handle, startLine: 0 }), /"startLine" must be a whole number of at least 1/);
    assert.deepEqual(await listing(), before, 'nothing was written into the workspace');
  });

  it('over the panel\'s 1 MiB text cap: no "save?" question holds up the agent, and the user opens the whole (or what the model got) from a command', async () => {
    const window = vscode.window as { -readonly [K in keyof typeof vscode.window]: (typeof vscode.window)[K] };
    const original = { info: window.showInformationMessage, pick: window.showQuickPick };
    const asked: string[] = [];
    const offered: string[] = [];
    const big = `${'\u00e9\u20ac'.repeat(400_000)}\n${'tail '.repeat(1000)}`;
    window.showInformationMessage = ((message: string, ...items: unknown[]) => {
      asked.push(message);
      return original.info(message as never, ...(items as never[]));
    }) as typeof window.showInformationMessage;
    window.showQuickPick = ((items: readonly vscode.QuickPickItem[]) => {
      offered.push(...items.map((i) => i.label));
      return Promise.resolve(items.find((i) => i.label === 'Part 1'));
    }) as unknown as typeof window.showQuickPick;
    try {
      const result = await vscode.lm.invokeTool('mcpHost_callTool', {
        input: { server: 'everything', tool: 'echo', arguments: { message: big } },
        toolInvocationToken: undefined,
      });
      const preview = textOf(result);
      assert.ok(preview.length <= 20_000, `the preview has ${preview.length} characters`);
      const handle = /kept as handle "(r\d+)"/.exec(preview)?.[1];
      assert.ok(handle);
      assert.deepEqual(
        asked.filter((m) => m.includes('Save to the workspace?')),
        [],
        'the kept text is not offered as a file',
      );
      const editor = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('mcpHost.openAgentResult');
      assert.ok(offered.includes(`${handle}: echo on "everything"`) && offered.includes('What the model was given'), offered.join(' | '));
      assert.equal(editor?.document.uri.toString(), `mcp-result:/${handle}/part-1.txt`);
      assert.equal(editor?.document.getText(), `Echo: ${big}`);
    } finally {
      window.showInformationMessage = original.info;
      window.showQuickPick = original.pick;
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
