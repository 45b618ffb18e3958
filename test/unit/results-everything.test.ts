// Result views of server-everything's real tools: structured output (draft-07 schema), resources,
// images, annotations, progress and cancellation; its prompts as forms and results.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CallCancelledError, ServerConnection } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { buildForm, promptArgumentsSchema } from '../../src/core/forms';
import { promptResultView, resolveSave, resourceContentsView, toResultView } from '../../src/core/results';
import { inlineLimitsFor } from '../../src/core/files';
import { FileChoices, runTool } from '../../src/core/run';
import { everythingStdio } from '../fixtures/servers';

const log = new Logger(() => undefined, 'error');
const conn = new ServerConnection(everythingStdio(), { log });
before(() => conn.start());
after(() => conn.stop());

const toolNamed = (name: string) => {
  const tool = conn.tools.find((t) => t.name === name);
  assert.ok(tool, `server-everything has ${name}`);
  return tool;
};

test('structured output with a draft-07 output schema is validated: valid as sent, invalid when it breaks the schema', async () => {
  const tool = toolNamed('get-structured-content');
  assert.match(String((tool.outputSchema as { $schema?: string }).$schema), /draft-07/);
  const result = await conn.callTool('get-structured-content', { location: 'Chicago' });
  const view = toResultView(result, tool);
  assert.equal(view.structured!.status, 'valid');
  assert.match(view.structured!.json!, /"conditions": "Light rain \/ drizzle"/);

  const broken = toResultView({ ...result, structuredContent: { temperature: 'hot', conditions: 'x' } }, tool).structured!;
  assert.equal(broken.status, 'invalid');
  assert.deepEqual(broken.errors!.sort(), ['/humidity: Required.', '/temperature: Must be a number.']);
  assert.match(broken.json!, /"hot"/);
  assert.equal(toResultView({ content: result.content }, tool).structured!.status, 'missing');
});

test('resource links are listed and read on demand; embedded resources can be saved', async () => {
  const links = toResultView(await conn.callTool('get-resource-links', { count: 2 }));
  const linkItems = links.items.filter((i) => i.kind === 'resourceLink');
  assert.equal(linkItems.length, 2);
  const first = linkItems[0]!;
  assert.ok(first.kind === 'resourceLink' && first.uri.startsWith('demo://'));
  const read = resourceContentsView(await conn.readResource(first.uri));
  assert.ok(read.length >= 1);
  assert.ok(['resourceText', 'resourceBlob'].includes(read[0]!.kind));

  const result = await conn.callTool('get-resource-reference', { resourceType: 'Blob', resourceId: 2 });
  const blob = toResultView(result).items.find((i) => i.kind === 'resourceBlob');
  assert.ok(blob && blob.kind === 'resourceBlob' && blob.size > 0 && blob.save);
  const saved = resolveSave(result, blob.save!);
  assert.ok(saved.kind === 'bytes' && saved.bytes.length === blob.size);
});

test('images and annotations come through for display', async () => {
  const view = toResultView(await conn.callTool('get-annotated-message', { messageType: 'success', includeImage: true }));
  assert.deepEqual(view.items[0], { kind: 'text', text: 'Operation completed successfully', annotations: { audience: ['user'], priority: 0.7 } });
  const image = view.items.find((i) => i.kind === 'image');
  assert.ok(image && image.kind === 'image' && image.mimeType === 'image/png' && image.data && image.size > 0);
});

test('a long-running operation reports progress, and cancelling it reads as cancelled, not failed', async () => {
  const reports: number[] = [];
  const result = await conn.callTool('trigger-long-running-operation', { duration: 0.5, steps: 5 }, { onProgress: (p) => reports.push(p.progress) });
  assert.match(
    toResultView(result)
      .items.map((i) => (i.kind === 'text' ? i.text : ''))
      .join(),
    /completed/i,
  );
  assert.ok(reports.length >= 3, `${reports.length} progress reports`);

  const abort = new AbortController();
  const pending = conn.callTool('trigger-long-running-operation', { duration: 5, steps: 5 }, { signal: abort.signal, onProgress: () => abort.abort() });
  await assert.rejects(pending, (e: Error) => e instanceof CallCancelledError);
});

test("prompts: the arguments become a form (required ones marked), and prompts/get shows as a result with each message's role", async () => {
  const prompt = conn.prompts.find((p) => p.name === 'args-prompt');
  assert.ok(prompt, 'server-everything has args-prompt');
  const form = buildForm(promptArgumentsSchema(prompt.arguments));
  assert.deepEqual(
    form.fields.map((f) => [f.id, f.kind, f.required, f.description]),
    [
      ['/city', 'string', true, 'Name of the city'],
      ['/state', 'string', false, undefined],
    ],
  );

  const asked = promptResultView(await conn.getPrompt('args-prompt', { city: 'Lisbon' }));
  assert.deepEqual(
    asked.view.items.map((i) => [i.role, i.kind === 'text' ? i.text : i.kind]),
    [['user', "What's weather in Lisbon?"]],
  );

  // an embedded resource in a message: shown and savable from the prompt's own content
  const { result, view } = promptResultView(await conn.getPrompt('resource-prompt', { resourceType: 'Blob', resourceId: '2' }));
  const resource = view.items.find((i) => i.kind === 'resourceBlob');
  assert.ok(resource && resource.kind === 'resourceBlob' && resource.save, `items: ${view.items.map((i) => i.kind).join(', ')}`);
  assert.equal(resource.role, 'user');
  const source = resolveSave(result, resource.save);
  assert.ok(source.kind === 'bytes' && source.bytes.length === resource.size);
});

test("the host's own secrets a server echoes back are masked in the result view the tool panel and the CLI show", async () => {
  const secret = 'input-secret-7f3a9c2e';
  const echoing = new ServerConnection({ ...everythingStdio(), secrets: [secret] }, { log: new Logger(() => undefined, 'error') });
  await echoing.start();
  try {
    const tool = echoing.tools.find((t) => t.name === 'echo')!;
    const { result, view } = await runTool(
      echoing,
      { tool, input: { json: { message: `the secret is ${secret}` } }, files: new FileChoices([], () => inlineLimitsFor('stdio')) },
      {
        elicitation: { form: () => Promise.reject(new Error('no form expected')), url: () => Promise.reject(new Error('no URL expected')) },
        encode: { workspaceRoots: [], serverIsLocalStdio: true },
        timeoutMs: 30_000,
      },
    );
    assert.match(JSON.stringify(result), new RegExp(secret), 'the server did echo it');
    assert.ok(!JSON.stringify(view).includes(secret), JSON.stringify(view));
    assert.match(JSON.stringify(view), /the secret is \*{8}/);
  } finally {
    await echoing.stop();
  }
});
