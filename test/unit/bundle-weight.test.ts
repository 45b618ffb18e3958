// What the extension parses on activation: its entry (dist/extension.js, Node built-ins only) and the extension
// itself (dist/main.js). dist/main.js must leave the MCP SDK (with zod) to the connection
// bundle and the large libraries (mime-db, Ajv) to dist/libraries.js, both loaded on first use. A static import
// of either from the extension's side would bring them back without failing anything else. The vscode API is
// taken into the bundle once: a copy of it per importing module was half of the extension's own activation time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

test('the extension bundle loads the MCP SDK, zod, mime-db, Ajv (with re2js) and the path matchers on demand, not on activation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-bundle-weight-'));
  try {
    for (const only of ['extension', 'main', 'libraries']) {
      const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--production', '--only', only, '--outdir', dir], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    }
    const entry = readFileSync(join(dir, 'dist/extension.js'), 'utf8');
    const entryRequires = [...entry.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    assert.deepEqual(
      entryRequires.filter((r) => !r!.startsWith('node:')),
      [],
      'the entry requires Node built-ins only',
    );
    assert.ok(statSync(join(dir, 'dist/extension.js')).size < 4 * 1024, 'the entry is small');
    const extension = readFileSync(join(dir, 'dist/main.js'), 'utf8');
    assert.ok(extension.includes('require("./connection.js")'), 'the connection bundle is required on demand');
    assert.ok(extension.includes('require("./libraries.js")'), 'the libraries bundle is required on demand');
    // Bringing servers in and out (registry browser, bundle install, import, export) loads with its commands' first use.
    assert.ok(extension.includes('require("./carry.js")'), 'the carry bundle is required on demand');
    assert.ok(!extension.includes('mcpHost.registryInstall'), 'the registry browser is not in dist/main.js');
    assert.ok(!extension.includes('mcpRegistryServer'), "the MCP view's registry section is not in dist/main.js (its rows load with carry.js)");
    for (const [what, marker] of [
      ['the MCP SDK', 'server/discover'],
      ['zod', 'ZodError'],
      ['mime-db', 'application/vnd.ms-excel'],
      ['Ajv', 'must NOT have additional properties'],
      ['minimatch', 'nocomment'],
      ['ignore', 'IGNORE_TEST_WIN32'],
      ['re2js', 'unsupported Perl syntax'],
    ]) {
      assert.ok(!extension.includes(marker!), `${what} is in dist/main.js (found "${marker}")`);
    }
    // esbuild would otherwise copy the whole API object into a namespace of its own in each module importing it
    const vscodeRequires = extension.match(/require\("vscode"\)/g) ?? [];
    assert.equal(vscodeRequires.length, 1, 'the vscode API is required and copied once, not once per module');
    assert.ok(!extension.includes('__toESM(require("vscode"))'), 'the vscode API is not wrapped per module');
    const libraries = readFileSync(join(dir, 'dist/libraries.js'), 'utf8');
    for (const marker of ['application/vnd.ms-excel', 'must NOT have additional properties', 'nocomment', 'IGNORE_TEST_WIN32', 'unsupported Perl syntax']) {
      assert.ok(libraries.includes(marker), `dist/libraries.js holds mime-db, Ajv, minimatch, ignore and re2js (no "${marker}")`);
    }
    // Room to grow, but not by a library: the SDK alone is over 300 KB minified. The extension's own code is about
    // 350 KB (sandbox, dev mode, secure values, bundles, discovery, history joined it); what a feature needs only once
    // it is used goes to a bundle of its own, as replay.js does.
    const size = statSync(join(dir, 'dist/main.js')).size;
    assert.ok(size < 384 * 1024, `dist/main.js is ${size} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// What the extension ships (its entry, main.js and the four on-demand bundles) is bounded as a whole, so moving code
// from one bundle to another does not pass: each library is shipped once, and what is never read is not shipped.
test("the extension's bundles carry each library once and none of what is never read", () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-bundle-weight-'));
  const shipped = ['extension', 'main', 'connection', 'libraries', 'replay', 'carry'];
  try {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--production', '--only', shipped.join(','), '--outdir', dir], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const text = (name: string) => readFileSync(join(dir, `dist/${name}.js`), 'utf8');
    const connection = text('connection');
    // the SDK's Node shims would bring a copy of Ajv of their own; the host's validator (dist/libraries.js) is the SDK's
    assert.ok(!connection.includes('must NOT have additional properties'), 'dist/connection.js carries a copy of Ajv');
    assert.ok(!connection.includes('Ungültige'), "dist/connection.js carries zod's error messages in other languages than English");
    assert.ok(connection.includes('require("./libraries.js")'), 'dist/connection.js takes Ajv from dist/libraries.js');
    assert.ok(!text('libraries').includes('compressible'), 'dist/libraries.js carries the parts of mime-db that mime-types never reads');
    for (const name of ['replay', 'carry']) {
      const bundle = text(name);
      assert.ok(bundle.includes('require("./main.js").sharedModules'), `dist/${name}.js takes the modules it shares with dist/main.js from it`);
      assert.ok(!bundle.includes('CloseBraceExpected'), `dist/${name}.js carries a copy of the JSONC parser dist/main.js has`);
    }
    // esbuild escapes other characters in strings, not in regular expressions: one there makes Node decode the whole
    // bundle to two-byte text (twice the memory, slower to decode and to scan) instead of one-byte
    for (const name of shipped) {
      const at = text(name).search(/[\u0080-\uffff]/);
      assert.equal(at, -1, `dist/${name}.js holds a character other than ASCII: ${JSON.stringify(text(name).slice(Math.max(0, at - 40), at + 10))}`);
    }
    const total = shipped.reduce((sum, name) => sum + statSync(join(dir, `dist/${name}.js`)).size, 0);
    assert.ok(total <= 1.5 * 1024 * 1024, `the extension's bundles are ${total} bytes together, over 1.5 MiB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
