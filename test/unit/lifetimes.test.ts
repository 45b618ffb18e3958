// Owned lifetimes (src/core/events.ts): children disposed newest first and once, a late child disposed at once,
// listener counts that tests can trust, live counts per class.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Disposable, DisposableStore, Emitter, liveCount, toDisposable } from '../../src/core/events';

class Owner extends Disposable {
  constructor(readonly log: string[], readonly emitter: Emitter<number>) {
    super();
    this.register(toDisposable(() => log.push('first')));
    this.register(emitter.event((n) => log.push(`heard ${n}`)));
    this.register(toDisposable(() => log.push('last')));
  }
  adopt(name: string): void {
    this.register(toDisposable(() => this.log.push(name)));
  }
}

test('an owner disposes its children newest first, once, and a child given to it afterwards at once', () => {
  const log: string[] = [];
  const emitter = new Emitter<number>();
  const owner = new Owner(log, emitter);
  emitter.fire(1);
  assert.equal(emitter.listenerCount, 1);
  owner.dispose();
  owner.dispose();
  assert.deepEqual(log, ['heard 1', 'last', 'first']);
  assert.equal(emitter.listenerCount, 0, 'its listener is gone');
  emitter.fire(2);
  owner.adopt('late');
  assert.deepEqual(log, ['heard 1', 'last', 'first', 'late']);
});

test('live counts follow construction and dispose, per class', () => {
  const before = liveCount(Owner);
  const owners = Array.from({ length: 5 }, () => new Owner([], new Emitter()));
  assert.equal(liveCount(Owner), before + 5);
  for (const o of owners) o.dispose();
  owners[0]!.dispose();
  assert.equal(liveCount(Owner), before);
});

test('the same listener subscribed twice is two subscriptions, each ended by its own handle', () => {
  const emitter = new Emitter<void>();
  let heard = 0;
  const listener = () => { heard++; };
  const a = emitter.event(listener);
  const b = emitter.event(listener);
  emitter.fire();
  assert.equal(heard, 2);
  a.dispose();
  a.dispose();
  assert.equal(emitter.listenerCount, 1);
  emitter.fire();
  assert.equal(heard, 3);
  b.dispose();
  assert.equal(emitter.listenerCount, 0);
});

test('a store disposes the rest when one child throws, and `delete` disposes one child now', () => {
  const store = new DisposableStore();
  const log: string[] = [];
  const one = store.add(toDisposable(() => log.push('one')));
  store.add({ dispose: () => { throw new Error('boom'); } });
  store.add(toDisposable(() => log.push('three')));
  store.delete(one);
  assert.deepEqual(log, ['one']);
  store.dispose();
  assert.deepEqual(log, ['one', 'three']);
  assert.equal(store.size, 0);
});
