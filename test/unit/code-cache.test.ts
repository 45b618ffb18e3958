// The extension's entry loads its bundle with a V8 code cache (src/extension/activation/codeCache.ts): the cache is taken on
// the next load, never for a changed bundle (even one of the same length, which V8 itself would accept), and a
// damaged or unwritable cache only costs the speed-up. Each load runs in a process of its own, as each extension
// host does: within one process V8 would reuse its in-memory compilation and never look at the cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const codeCache = join(__dirname, '..', '..', 'src', 'extension', 'activation', 'codeCache.ts');

interface Load {
  fromCache: boolean;
  cache: string;
  cacheBytes: number;
  answer: number;
  sibling: string;
  base: string;
  filename: string;
}

/** Loads the bundle in a new Node process, as the extension's entry does (a require of the folder), then saves its cache. */
function load(file: string, cacheDir: string | undefined, nodeFlags: string[] = []): Load {
  const script = `
    const { loadWithCodeCache } = require(${JSON.stringify(codeCache)});
    const { createRequire } = require('node:module');
    const { join, dirname } = require('node:path');
    const file = ${JSON.stringify(file)};
    const loaded = loadWithCodeCache(file, createRequire(join(dirname(file), 'entry.js')), ${JSON.stringify(cacheDir)});
    loaded.saveCache();
    const { answer, ...rest } = loaded.exports;
    console.log(JSON.stringify({ fromCache: loaded.fromCache, cache: loaded.cache, cacheBytes: loaded.cacheBytes, answer: answer(), ...rest }));`;
  const r = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Load;
}

function bundleDir(t: { after(fn: () => void): void }): { dir: string; file: string; cacheDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-code-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'sibling.js'), 'module.exports = "sibling";');
  const file = join(dir, 'main.js');
  writeBundle(file, 1);
  return { dir, file, cacheDir: join(dir, 'storage', 'code-cache') };
}

function writeBundle(file: string, answer: number): void {
  writeFileSync(
    file,
    [
      '"use strict";',
      `function answer() { return ${answer}; }`,
      'module.exports = { answer, sibling: require("./sibling.js"), base: require("node:path").basename(__dirname), filename: __filename };',
    ].join('\n'),
  );
}

test('a bundle loads as require would, and from its cache on the next load', (t) => {
  const { dir, file, cacheDir } = bundleDir(t);
  const first = load(file, cacheDir);
  assert.equal(first.fromCache, false);
  assert.equal(first.cache, 'absent', 'the first load finds no cache, and says so');
  assert.equal(first.answer, 1);
  assert.equal(first.sibling, 'sibling', "the bundle's siblings resolve from its folder");
  assert.equal(first.filename, file);
  assert.equal(first.base, basename(dir));
  assert.equal(readdirSync(cacheDir).length, 1);

  const second = load(file, cacheDir);
  assert.equal(second.fromCache, true, 'V8 took the cache');
  assert.equal(second.cache, 'accepted');
  assert.ok(second.cacheBytes > 0);
  assert.equal(second.answer, 1);
  assert.equal(readdirSync(cacheDir).length, 1);
});

test('a changed bundle of the same length is compiled afresh, and the old cache goes', (t) => {
  const { file, cacheDir } = bundleDir(t);
  load(file, cacheDir);
  const [oldCache] = readdirSync(cacheDir);
  writeBundle(file, 2);
  const updated = load(file, cacheDir);
  assert.equal(updated.fromCache, false);
  assert.equal(updated.answer, 2, 'the new code runs, not the cached one');
  const caches = readdirSync(cacheDir);
  assert.equal(caches.length, 1);
  assert.notEqual(caches[0], oldCache);
  assert.equal(load(file, cacheDir).fromCache, true);
});

test('a damaged cache is refused by V8 and replaced; without storage or with one that cannot be written the bundle still loads', (t) => {
  const { file, cacheDir } = bundleDir(t);
  load(file, cacheDir);
  const [name] = readdirSync(cacheDir);
  writeFileSync(join(cacheDir, name!), Buffer.alloc(4096, 7));
  const damaged = load(file, cacheDir);
  assert.equal(damaged.fromCache, false);
  assert.equal(damaged.cache, 'rejected', 'V8 refused it');
  assert.equal(damaged.answer, 1);
  assert.equal(load(file, cacheDir).fromCache, true, 'the damaged cache was replaced');

  writeFileSync(join(cacheDir, name!), '');
  assert.equal(load(file, cacheDir).cache, 'unreadable', 'an empty cache file is not given to V8');

  const noStorage = load(file, undefined);
  assert.equal(noStorage.fromCache, false);
  assert.equal(noStorage.cache, 'no storage');
  assert.equal(noStorage.answer, 1);

  // storage that cannot be written, even by root: a file where its folder should be
  const blocked = join(cacheDir, '..', 'blocked');
  writeFileSync(blocked, '');
  const unwritable = load(file, join(blocked, 'code-cache'));
  assert.equal(unwritable.fromCache, false);
  assert.equal(unwritable.answer, 1);
});

test('a cache taken after V8 dropped the bytecode of what activation ran does not replace the fuller one', (t) => {
  const { dir, file, cacheDir } = bundleDir(t);
  // functions that run once at load, as activation's do, then are never called again
  const fns = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i}; }`);
  writeFileSync(file, `"use strict";\n${fns.join('\n')}\n${fns.map((_, i) => `f${i}(1);`).join('')}\nmodule.exports = { answer: () => 1 };\n`);
  const script = `
    const { loadWithCodeCache } = require(${JSON.stringify(codeCache)});
    const { createRequire } = require('node:module');
    const { readdirSync, statSync } = require('node:fs');
    const { join } = require('node:path');
    const size = () => statSync(join(${JSON.stringify(cacheDir)}, readdirSync(${JSON.stringify(cacheDir)})[0])).size;
    const loaded = loadWithCodeCache(${JSON.stringify(file)}, createRequire(join(${JSON.stringify(dir)}, 'entry.js')), ${JSON.stringify(cacheDir)});
    loaded.saveCache();
    const first = size();
    global.gc(); global.gc();
    loaded.saveCache();
    console.log(JSON.stringify({ first, after: size() }));`;
  // --stress-flush-code: every collection drops the bytecode of functions not running, as several would
  const flags = ['--expose-gc', '--stress-flush-code'];
  const r = spawnSync(process.execPath, [...flags, '--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  const { first, after } = JSON.parse(r.stdout) as { first: number; after: number };
  assert.equal(after, first, 'the later, emptier cache was not written over the first');
  // (V8 takes a cache only under the flags it was made with)
  const next = load(file, cacheDir, flags);
  assert.equal(next.cache, 'accepted');
  assert.equal(next.cacheBytes, first);
});
