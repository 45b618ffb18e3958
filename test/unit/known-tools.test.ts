import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KNOWN_TOOLS_KEY, KNOWN_TOOLS_LIMITS, KnownTools, toKnownTools, withKnownTools } from '../../src/extension/servers/knownTools';
import { describeNotStarted, describeStartQuestions, statusBarText } from '../../src/extension/servers/serverDescriptions';

/** A Memento as VS Code keeps it: values stored as JSON. */
class JsonMemento {
  readonly values = new Map<string, string>();
  writes = 0;
  get<T>(key: string, defaultValue: T): T {
    const v = this.values.get(key);
    return v === undefined ? defaultValue : (JSON.parse(v) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes += 1;
    this.values.set(key, JSON.stringify(value));
  }
}

test('known tools keep names, titles and one line of description: no schema, no _meta, nothing too long', () => {
  const kept = toKnownTools([
    {
      name: 'describe_file',
      title: 'Describe a file',
      description: 'Tells you what a file is.\nSecond line',
      inputSchema: { type: 'object', properties: { token: { default: 's3cr3t' } } },
      _meta: { x: 1 },
    } as never,
    { name: 'x'.repeat(KNOWN_TOOLS_LIMITS.nameChars + 1) },
    { name: 'annotated', annotations: { title: 'From annotations' }, description: 'd'.repeat(500) },
  ]);
  assert.deepEqual(kept[0], { name: 'describe_file', title: 'Describe a file', description: 'Tells you what a file is.' });
  assert.equal(kept.length, 2, 'a name longer than the limit is left out');
  assert.equal(kept[1]!.title, 'From annotations');
  assert.equal(kept[1]!.description!.length, KNOWN_TOOLS_LIMITS.descriptionChars);
  assert.ok(!JSON.stringify(kept).includes('s3cr3t'));
  const many = toKnownTools(Array.from({ length: 500 }, (_, i) => ({ name: `t${i}` })));
  assert.equal(many.length, KNOWN_TOOLS_LIMITS.toolsPerDefinition);
  // Long titles and descriptions on every tool: the definition's characters are bounded, not just its count.
  const wordy = toKnownTools(Array.from({ length: 100 }, (_, i) => ({ name: `tool_${i}`, title: 't'.repeat(1000), description: 'd'.repeat(1000) })));
  assert.ok(wordy.length < 100 && wordy.length > 0);
  assert.ok(
    JSON.stringify(wordy).length <= KNOWN_TOOLS_LIMITS.charsPerDefinition + wordy.length + 1,
    "within the per-definition budget (with the array's commas)",
  );
  assert.deepEqual(
    toKnownTools([{ name: 'odd', title: 42, description: { html: '<b>' } } as never]),
    [{ name: 'odd' }],
    'fields of the wrong type are left out',
  );
});

test('known tools are bounded to the definitions seen last, and an unchanged list writes nothing', async () => {
  let now = 1_000;
  const memento = new JsonMemento();
  const known = new KnownTools(memento, () => now);
  for (let i = 0; i < KNOWN_TOOLS_LIMITS.definitions + 5; i++) {
    now += 1;
    await known.remember(`hash${i}`, [{ name: `tool${i}` }]);
  }
  const record = memento.get<Record<string, unknown>>(KNOWN_TOOLS_KEY, {});
  assert.equal(Object.keys(record).length, KNOWN_TOOLS_LIMITS.definitions);
  assert.deepEqual(known.of('hash0'), [], 'the oldest definitions are forgotten');
  assert.deepEqual(known.of(`hash${KNOWN_TOOLS_LIMITS.definitions + 4}`), [{ name: `tool${KNOWN_TOOLS_LIMITS.definitions + 4}` }]);

  const writes = memento.writes;
  await known.remember(`hash${KNOWN_TOOLS_LIMITS.definitions + 4}`, [{ name: `tool${KNOWN_TOOLS_LIMITS.definitions + 4}` }]);
  assert.equal(memento.writes, writes, 'the same tools again: no write');
  await known.remember(`hash${KNOWN_TOOLS_LIMITS.definitions + 4}`, [{ name: 'renamed' }]);
  assert.equal(memento.writes, writes + 1);
  assert.deepEqual(known.of(`hash${KNOWN_TOOLS_LIMITS.definitions + 4}`), [{ name: 'renamed' }]);

  // Seen again a day later: its age is renewed, so it outlives definitions seen since.
  const record2 = withKnownTools({ a: { seenAt: 0, tools: [] }, b: { seenAt: 10, tools: [] } }, 'a', [], 2 * 24 * 3600 * 1000);
  assert.deepEqual(Object.keys(record2), ['a', 'b']);
  // A stored value of the wrong shape reads as nothing known.
  await memento.update(KNOWN_TOOLS_KEY, ['not', 'a', 'record']);
  assert.deepEqual(known.of('a'), []);
});

test('the status bar counts the servers waiting for trust; Start rows say what starting asks', () => {
  const stopped = { kind: 'stopped' } as const;
  const look = statusBarText([stopped, stopped, stopped], { names: ['demo', 'files', 'keyed'], restricted: false })!;
  assert.equal(look.text, '$(plug) 0 $(workspace-untrusted) 3 need your trust');
  assert.match(look.tooltip, /Waiting for your trust: demo, files, keyed/);
  assert.equal(statusBarText([stopped], { names: ['demo'], restricted: false })!.text, '$(plug) 0 $(workspace-untrusted) 1 needs your trust');
  assert.match(statusBarText([stopped], { names: ['demo'], restricted: true })!.tooltip, /Restricted Mode/);
  assert.equal(statusBarText([stopped])!.text, '$(plug) 0', 'nothing waiting: the count alone');

  assert.equal(describeStartQuestions({ trust: true, restricted: false, inputs: false }), 'asks for your trust');
  assert.equal(describeStartQuestions({ trust: true, restricted: false, inputs: true }), 'asks for your trust, then its inputs');
  assert.equal(describeStartQuestions({ trust: false, restricted: false, inputs: true }), 'asks for its inputs');
  assert.equal(describeStartQuestions({ trust: false, restricted: false, inputs: false }), undefined);
  assert.match(describeStartQuestions({ trust: false, restricted: true, inputs: true })!, /Restricted Mode/);
  assert.equal(describeNotStarted({ trust: true, restricted: false, inputs: true }), 'not trusted yet, inputs needed');
  assert.equal(describeNotStarted({ trust: false, restricted: false, inputs: false }), undefined);
});
