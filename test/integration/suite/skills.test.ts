// Skills served over MCP (SEP-2640) in the real extension host, against test/fixtures/skills-server.ts (which
// records every message it receives): the MCP view's Skills group lists them when expanded and reads no file;
// opening a skill shows its SKILL.md read-only (read then, and only it); mcpHost_readSkill lists them for chat;
// `@mcp /skill` loads one into the conversation, tagged with its server.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor, workspaceRoot } from './helpers';

const SERVER = 'skills';
const recordFile = () => join(workspaceRoot().fsPath, '../../../.artifacts/integration/skills-requests.jsonl');

async function reads(): Promise<string[]> {
  const text = await fsp.readFile(recordFile(), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method: string; params?: { uri?: string } })
    .filter((m) => m.method === 'resources/read')
    .map((m) => m.params?.uri ?? '');
}

describe('skills served over MCP', function () {
  this.timeout(60_000);

  before(async () => {
    await fsp.rm(recordFile(), { force: true });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await api()).servers.stop(SERVER);
  });

  it("the MCP view lists a server's skills when expanded (paths where names collide), reading no file", async () => {
    const host = await api();
    await host.servers.start(SERVER);
    const server = host.tree.children().find((n) => n.kind === 'server' && n.server === SERVER);
    assert.ok(server);
    const group = host.tree.children(server).find((g) => host.tree.item(g).contextValue === 'mcpGroup.skills');
    assert.ok(group, 'a Skills group');
    const skills = await waitFor('the skills listed', () => {
      const children = host.tree.children(group);
      return children.length ? children.map((n) => host.tree.item(n)) : undefined;
    });
    const labels = skills.map((i) => (typeof i.label === 'string' ? i.label : i.label?.label));
    assert.deepEqual(labels, ['git-workflow', 'pdf-processing', 'acme/billing/refunds', 'acme/support/refunds']);
    assert.equal(skills[1]!.description, 'Extract, fill, and assemble PDF documents');
    assert.deepEqual(skills[1]!.command?.arguments, [SERVER, 'skill://pdf-processing/SKILL.md']);
    assert.deepEqual(await reads(), [], 'listing reads no skill file');
  });

  it('opening a skill shows its verified SKILL.md read-only, reading only that file', async () => {
    await vscode.commands.executeCommand('mcpHost.openSkill', SERVER, 'skill://pdf-processing/SKILL.md');
    const editor = await waitFor("the skill's editor", () =>
      vscode.window.activeTextEditor?.document.uri.scheme === 'mcp-host-skill' ? vscode.window.activeTextEditor : undefined,
    );
    assert.match(editor.document.getText(), /^---\nname: pdf-processing\n/);
    assert.equal(editor.document.languageId, 'markdown');
    assert.match(editor.document.uri.path, /\/skills\/pdf-processing\/SKILL\.md$/);
    const edited = await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'x'));
    assert.equal(edited && editor.document.getText().startsWith('x---'), false, 'read-only');
    assert.deepEqual(await reads(), ['skill://pdf-processing/SKILL.md']);
  });

  it('mcpHost_readSkill lists the skills for chat, each with its server, and reads nothing more', async () => {
    const result = await vscode.lm.invokeTool('mcpHost_readSkill', { input: {}, toolInvocationToken: undefined });
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
    assert.match(text, /server "skills", skill "skill:\/\/acme\/billing\/refunds\/SKILL.md": acme\/billing\/refunds: Process refund requests/);
    assert.match(text, /untrusted/);
    assert.deepEqual(await reads(), ['skill://pdf-processing/SKILL.md']);
  });

  it('@mcp /skill loads a skill into the conversation, tagged with its server; a name two skills share is refused', async () => {
    const references: unknown[] = [];
    async function chat(prompt: string): Promise<string> {
      const request = { command: 'skill', prompt, references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest;
      let text = '';
      const stream = {
        markdown: (v: string | vscode.MarkdownString) => {
          text += typeof v === 'string' ? v : v.value;
        },
        reference: (r: unknown) => {
          references.push(r);
        },
        progress: () => undefined,
      } as unknown as vscode.ChatResponseStream;
      await (await api()).agents.participant(request, { history: [] } as unknown as vscode.ChatContext, stream, new vscode.CancellationTokenSource().token);
      return text.replace(/\\(.)/g, '$1');
    }
    const loaded = await chat('acme/billing/refunds on skills');
    assert.match(loaded, /The skill "refunds" \(skill:\/\/acme\/billing\/refunds\/SKILL.md\), served by the MCP server "skills"\. This is untrusted content/);
    assert.match(loaded, /name: refunds/);
    assert.equal(references.length, 1);
    assert.match(await chat('refunds on skills'), /2 skills are named "refunds": give one of their paths/);
    assert.deepEqual(await reads(), ['skill://pdf-processing/SKILL.md', 'skill://acme/billing/refunds/SKILL.md']);
  });
});
