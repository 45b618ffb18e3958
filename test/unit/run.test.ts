// The one run pipeline (src/core/run) that the panel, the CLI and the extension's test API all call, against
// real fixture servers that record what arrives: form values are sent as the panel sends them, refusals
// happen before anything is sent, and a required URL goes through the injected UI.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { ServerConnection } from '../../src/core/connection';
import type { ElicitationUi, UrlElicitationRequest } from '../../src/core/elicitation';
import { ArgumentsRefusedError, InputRefusedError } from '../../src/core/errors';
import { findFileSlots, inlineLimitsFor } from '../../src/core/files';
import { buildForm, defaultValues, pointer } from '../../src/core/forms';
import { Logger } from '../../src/core/log';
import { FileChoices, runTool, type RunHooks } from '../../src/core/run';
import { stdioFixture } from '../fixtures/servers';

const work = mkdtempSync(join(tmpdir(), 'mcp-host-run-'));
after(() => rmSync(work, { recursive: true, force: true }));
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');

function fixtureFile(name: string, bytes: Buffer | string): string {
  const p = join(work, name);
  writeFileSync(p, bytes);
  return p;
}

function recordedLines(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const noUi: ElicitationUi = {
  form: () => Promise.reject(new Error('no form expected')),
  url: () => Promise.reject(new Error('no URL expected')),
};
const hooks = (extra: Partial<RunHooks> = {}): RunHooks => ({
  elicitation: noUi,
  encode: { workspaceRoots: [work], serverIsLocalStdio: true },
  timeoutMs: 30_000,
  ...extra,
});

describe('runTool against the file fixture', () => {
  const recordFile = join(work, 'file-calls.jsonl');
  let connection: ServerConnection;
  const tool = (name: string): Tool => connection.tools.find((t) => t.name === name)!;
  /** The form, its defaults and an empty file choice, the way the panel starts. */
  const formFor = (name: string, limits = inlineLimitsFor('stdio')) => {
    const slots = findFileSlots(tool(name)).slots;
    const form = buildForm(tool(name).inputSchema, slots);
    return {
      form,
      values: defaultValues(form),
      files: new FileChoices(slots, () => limits),
      field: (label: string) => pointer(slots.find((s) => s.label === label)!.path),
    };
  };

  before(async () => {
    const server = stdioFixture('file-server.ts');
    connection = new ServerConnection({ ...server, env: { ...server.env, FILE_FIXTURE_RECORD: recordFile } }, { log: new Logger(() => undefined) });
    await connection.start();
  });
  after(async () => connection?.stop());

  test('form values go out as the panel sends them: empty optionals dropped, the file encoded, its name in the companion', async () => {
    const { form, files, field } = formFor('named_note');
    assert.equal((await files.add(field('file'), [fixtureFile('notes.txt', 'hello\n')])).ok, true);
    const before = recordedLines(recordFile).length;
    const { view } = await runTool(connection, { tool: tool('named_note'), input: { form, values: { note: 'hi', file_name: '' } }, files }, hooks());
    assert.equal(view.isError, false);
    const sent = recordedLines(recordFile).slice(before);
    assert.equal(sent.length, 1);
    const args = (sent[0] as { arguments: Record<string, unknown> }).arguments;
    assert.equal(args.note, 'hi');
    assert.equal(args.file_name, 'notes.txt', 'the empty companion is filled with the file name');
    assert.match(String(args.file), /^data:text\/plain;base64,aGVsbG8K$/);
  });

  test('values the form refuses and a missing required file stop the run before anything is sent', async () => {
    const { form, values, files, field } = formFor('named_note');
    const before = recordedLines(recordFile).length;
    await assert.rejects(runTool(connection, { tool: tool('named_note'), input: { form, values }, files }, hooks()), (e: unknown) => {
      assert.ok(e instanceof ArgumentsRefusedError);
      assert.ok(e.errors['/note'], 'the missing note is named');
      assert.match(e.errors[field('file')] ?? '', /Choose a file/);
      return true;
    });
    assert.equal(recordedLines(recordFile).length, before);
  });

  test('files that fit one by one but not together are refused before any is read', async () => {
    const limits = inlineLimitsFor('stdio', { stdioMaxBytes: 900 });
    const { form, values, files, field } = formFor('gallery', limits);
    const a = fixtureFile('a.png', Buffer.concat([PNG, Buffer.alloc(600 - PNG.length)]));
    const b = fixtureFile('b.png', Buffer.concat([PNG, Buffer.alloc(600 - PNG.length)]));
    assert.equal((await files.add(field('images'), [a, b])).ok, true, 'each file alone is within the limit');
    const before = recordedLines(recordFile).length;
    await assert.rejects(runTool(connection, { tool: tool('gallery'), input: { form, values }, files }, hooks()), (e: unknown) => {
      assert.ok(e instanceof InputRefusedError);
      assert.match(e.message, /images: 2 files .* add up to/);
      return true;
    });
    assert.equal(recordedLines(recordFile).length, before);
  });
});

describe('runTool against the recording fixture', () => {
  const recordFile = join(work, 'recording-calls.jsonl');
  let connection: ServerConnection;

  before(async () => {
    const server = stdioFixture('recording-server.ts');
    // Elicitation declared, so the server's notifications/elicitation/complete is taken in.
    connection = new ServerConnection(
      { ...server, env: { ...server.env, RECORDING_FIXTURE_FILE: recordFile } },
      {
        log: new Logger(() => undefined),
        elicitation: async () => ({ action: 'cancel' }),
      },
    );
    await connection.start();
  });
  after(async () => connection?.stop());

  test('JSON arguments go out as given; a -32042 URL is offered through the injected UI and the call retried', async () => {
    const asked: UrlElicitationRequest[] = [];
    const ui: ElicitationUi = {
      ...noUi,
      url: async (request) => {
        asked.push(request);
        return 'accept';
      },
    };
    const tool = connection.tools.find((t) => t.name === 'needs_login')!;
    const { view } = await runTool(connection, { tool, input: { json: { extra: '' } } }, hooks({ elicitation: ui }));
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.elicitationId, 'login-1');
    assert.deepEqual(
      view.items.map((i) => (i.kind === 'text' ? i.text : i.kind)),
      ['signed in'],
    );
    const calls = recordedLines(recordFile).filter((r) => r.call === 'needs_login');
    assert.equal(calls.length, 2, 'called, then called again after the URL was done');
    assert.deepEqual(
      calls.map((c) => c.arguments),
      [{ extra: '' }, { extra: '' }],
    );
  });
});
