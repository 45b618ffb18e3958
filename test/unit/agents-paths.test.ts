// Where an agent's path may lead (workspace folders only; no `..`, no link out, no hidden or secret files) and
// how its call is checked before a byte is read; the result parts a model gets back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { agentResultParts, describeAgentFiles, planAgentCall, resolveWorkspacePath, type WorkspaceFolderRules } from '../../src/core/agents';
import { inlineLimitsFor } from '../../src/core/files';
import { toResultView } from '../../src/core/results';
import { tempDir } from '../helpers/tempDirs';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function workspace(): { folder: WorkspaceFolderRules; outside: string } {
  const base = tempDir('agents-paths-');
  const root = join(base, 'project');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'images'), { recursive: true });
  mkdirSync(join(root, 'build'), { recursive: true });
  mkdirSync(join(root, 'hidden'), { recursive: true });
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'images/photo.png'), PNG);
  writeFileSync(join(root, 'notes.txt'), 'hello');
  writeFileSync(join(root, 'big.bin'), Buffer.alloc(2048));
  writeFileSync(join(root, '.env'), 'TOKEN=1');
  writeFileSync(join(root, '.env.example'), 'TOKEN=');
  writeFileSync(join(root, 'server.pem'), 'key');
  writeFileSync(join(root, 'build/out.txt'), 'built');
  writeFileSync(join(root, 'hidden/h.txt'), 'hidden');
  writeFileSync(join(root, 'sub/local.log'), 'log');
  writeFileSync(join(root, '.gitignore'), 'build/\n');
  writeFileSync(join(root, 'sub/.gitignore'), '*.log\n');
  writeFileSync(join(outside, 'secret.txt'), 'outside');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
  symlinkSync(join(root, 'notes.txt'), join(root, 'link-in.txt'));
  return { folder: { root, name: 'project', excludes: ['**/hidden'] }, outside };
}

test('paths inside the folder resolve (relative, absolute, through a link that stays inside)', async () => {
  const { folder } = workspace();
  const rel = await resolveWorkspacePath('photo', 'images/photo.png', [folder]);
  assert.ok(rel.ok);
  assert.equal(rel.relative, 'images/photo.png');
  const abs = await resolveWorkspacePath('photo', join(folder.root, 'notes.txt'), [folder]);
  assert.ok(abs.ok);
  const link = await resolveWorkspacePath('photo', 'link-in.txt', [folder]);
  assert.ok(link.ok);
  assert.equal(link.relative, 'notes.txt');
  assert.ok((await resolveWorkspacePath('photo', '.env.example', [folder])).ok, 'a template of secrets is no secret');
});

test('outside, .., ~, links out, hidden, gitignored and secret files are refused with the reason', async () => {
  const { folder, outside } = workspace();
  const refused = async (path: string) => {
    const r = await resolveWorkspacePath('photo', path, [folder]);
    assert.equal(r.ok, false, path);
    return (r as { reason: string }).reason;
  };
  assert.match(await refused(join(outside, 'secret.txt')), /^photo: ".*secret\.txt" is outside the workspace folders \(project\)/);
  assert.match(await refused('../outside/secret.txt'), /contains "\.\."/);
  assert.match(await refused('images/../notes.txt'), /contains "\.\."/);
  assert.match(await refused('~/notes.txt'), /home directory/);
  assert.match(await refused('link-out.txt'), /symbolic link that leads outside the workspace/);
  assert.match(await refused('.env'), /\.env looks like a file of secrets/);
  assert.match(await refused('server.pem'), /server\.pem looks like a file of secrets/);
  assert.match(await refused('hidden/h.txt'), /files\.exclude setting \("\*\*\/hidden"\)/);
  assert.match(await refused('build/out.txt'), /\.gitignore ignores it/);
  assert.match(await refused('sub/local.log'), /sub\/\.gitignore ignores it/);
  assert.match(await refused('missing.png'), /is not a file in the workspace folder \(project\)/);
  assert.match(await refused(''), /the path is empty/);
  assert.match(await refused('a\0b'), /NUL/);
});

test('a file the user picked may be hidden or secret-looking, never outside', async () => {
  const { folder } = workspace();
  assert.ok((await resolveWorkspacePath('f', '.env', [folder], { userPicked: true })).ok);
  assert.equal((await resolveWorkspacePath('f', 'link-out.txt', [folder], { userPicked: true })).ok, false);
});

test("with several folders a path may start with a folder's name", async () => {
  const a = workspace().folder;
  const b = { ...workspace().folder, name: 'second' };
  const r = await resolveWorkspacePath('f', 'second/notes.txt', [a, b]);
  assert.ok(r.ok);
  assert.equal(r.folder.name, 'second');
});

const describeTool: Tool = {
  name: 'describe',
  inputSchema: {
    type: 'object',
    properties: {
      file: { type: 'string', format: 'uri', 'x-mcp-file': { accept: ['image/png', 'text/plain', 'application/octet-stream'], maxSize: 1024 } },
      note: { type: 'string', maxLength: 5 },
    },
    required: ['file'],
  },
};

test('a call is checked before any read: limits, types and arguments refused by name; files described', async () => {
  const { folder } = workspace();
  const context = { folders: [folder], limits: () => inlineLimitsFor('stdio') };
  const ok = await planAgentCall(describeTool, { file: 'images/photo.png', note: 'hi' }, context);
  assert.ok(ok.ok, !ok.ok ? ok.reason : '');
  assert.deepEqual(describeAgentFiles(ok.plan), [`images/photo.png (image/png, ${PNG.length} bytes) as 'file'`]);
  assert.equal(ok.plan.values.note, 'hi');

  const reason = async (args: unknown) => {
    const r = await planAgentCall(describeTool, args, context);
    assert.equal(r.ok, false);
    return (r as { reason: string }).reason;
  };
  assert.match(await reason({ file: 'big.bin' }), /file: big\.bin .*1 KiB/);
  assert.match(await reason({ file: '.env' }), /looks like a file of secrets/);
  assert.match(await reason({ file: 'images/photo.png', note: 'too long' }), /Argument 'note':/);
  assert.match(await reason({ file: 'data:image/png;base64,AAAA' }), /not a URI/);
  const picked = await planAgentCall(describeTool, { file: '.env' }, { ...context, userPicked: new Set([join(folder.root, '.env')]) });
  assert.ok(picked.ok, !picked.ok ? picked.reason : '');
});

test('result parts: text, images as data when allowed, user-only content left out, structured content with its status', () => {
  const view = toResultView(
    {
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: PNG.toString('base64') },
        { type: 'text', text: 'for the user only', annotations: { audience: ['user'] } },
      ],
      structuredContent: { sum: 'three' },
    },
    { name: 't', outputSchema: { type: 'object', properties: { sum: { type: 'number' } } } },
  );
  const withMedia = agentResultParts(view, { media: true });
  assert.deepEqual(withMedia[0], { kind: 'text', text: 'hello' });
  assert.deepEqual(withMedia[1], { kind: 'data', mimeType: 'image/png', base64: PNG.toString('base64') });
  assert.equal(withMedia.length, 3);
  assert.match((withMedia[2] as { text: string }).text, /^Structured content \(does NOT match the tool's output schema\):\n[\s\S]*"three"[\s\S]*Problems:/);
  const textOnly = agentResultParts(view, { media: false });
  assert.match((textOnly[1] as { text: string }).text, /\[image: image\/png, 29 bytes; shown to the user, not passed to the model\]/);
  const error = agentResultParts(toResultView({ content: [{ type: 'text', text: 'bad' }], isError: true }), { media: true });
  assert.deepEqual(
    error.map((p) => (p as { text: string }).text),
    ['The tool reported an error:', 'bad'],
  );
});
