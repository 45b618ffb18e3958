// ui/update-model-context kept for the @mcp participant's next turn: one offer per app (the newest), bounded in
// size and in apps, an empty offer withdrawing the last, each given once.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { AppModelContexts, MODEL_CONTEXT_LIMITS } from '../../src/core/apps/modelContext';

test("an app keeps only its newest offer; the next turn takes every app's, once, oldest first", () => {
  const kept = new AppModelContexts();
  kept.keep('one', 'ui://a/app.html', 'first');
  kept.keep('two', 'ui://a/app.html', 'same URI, other server');
  kept.keep('one', 'ui://a/app.html', 'second');
  assert.deepEqual(kept.take(), [
    { server: 'two', app: 'ui://a/app.html', text: 'same URI, other server', cutChars: 0 },
    { server: 'one', app: 'ui://a/app.html', text: 'second', cutChars: 0 },
  ]);
  assert.deepEqual(kept.take(), []);
});

test("an empty offer withdraws the app's last one", () => {
  const kept = new AppModelContexts();
  kept.keep('one', 'ui://a/app.html', 'offered');
  kept.keep('one', 'ui://a/app.html', '  \n');
  assert.equal(kept.size, 0);
});

test('an offer is cut to the character limit, saying how much was left out; the oldest app goes past the app limit', () => {
  const kept = new AppModelContexts();
  kept.keep('big', 'ui://big/app.html', 'x'.repeat(MODEL_CONTEXT_LIMITS.chars + 123));
  for (let i = 0; i < MODEL_CONTEXT_LIMITS.apps; i++) kept.keep('s', `ui://app/${i}.html`, `offer ${i}`);
  const all = kept.take();
  assert.equal(all.length, MODEL_CONTEXT_LIMITS.apps);
  assert.ok(!all.some((k) => k.server === 'big'), 'the oldest offer went');
  const one = new AppModelContexts();
  one.keep('big', 'ui://big/app.html', 'x'.repeat(MODEL_CONTEXT_LIMITS.chars + 123));
  const [big] = one.take();
  assert.equal(big?.text.length, MODEL_CONTEXT_LIMITS.chars);
  assert.equal(big?.cutChars, 123);
});
