// The host's errors are recognised by their brand, whichever bundle made them: the extension, its connection bundle
// and its replay bundle each have their own copy of the classes. Every error class of src/ carries a brand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import ts from 'typescript';

const root = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.m?ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

interface ClassInfo {
  file: string;
  base?: string;
  brand?: string;
}

/** Every class of src/: what it extends, and the string its own `static brand` is set to. */
function classesOfSrc(): Map<string, ClassInfo> {
  const classes = new Map<string, ClassInfo>();
  for (const file of sourceFiles(join(root, 'src'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name) {
        const heritage = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
        const brand = node.members.find(
          (m): m is ts.PropertyDeclaration =>
            ts.isPropertyDeclaration(m) && m.name.getText(source) === 'brand' && !!m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword),
        );
        const name = node.name.text;
        assert.ok(!classes.has(name) || !heritage, `one class named ${name} in src/`);
        classes.set(name, {
          file: relative(root, file),
          base: heritage?.getText(source),
          brand: brand?.initializer && ts.isStringLiteral(brand.initializer) ? brand.initializer.text : undefined,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return classes;
}

test('every error class of src/ is a HostError with a brand of its own, its name', () => {
  const classes = classesOfSrc();
  const builtInErrors = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'AggregateError']);
  const isError = (name: string | undefined, seen = 0): boolean =>
    !!name && seen < 20 && (builtInErrors.has(name) || isError(classes.get(name)?.base, seen + 1));
  const errorClasses = [...classes].filter(([, c]) => isError(c.base));
  assert.ok(errorClasses.length >= 40, `the scan finds the error classes (${errorClasses.length})`);
  const problems: string[] = [];
  for (const [name, c] of errorClasses) {
    if (name === 'HostError') continue;
    if (builtInErrors.has(c.base!)) problems.push(`${c.file}: ${name} extends ${c.base}, not HostError (or one of its classes)`);
    if (c.brand !== name) problems.push(`${c.file}: ${name} declares ${c.brand === undefined ? 'no brand of its own' : `the brand '${c.brand}'`}`);
  }
  assert.deepEqual(problems, []);
  assert.equal(classes.get('HostError')?.file, join('src', 'core', 'errors.ts'));
});

type ErrorsModule = typeof import('../../src/core/errors');
type SignInErrorsModule = typeof import('../../src/core/connection/signInErrors');
type AuthTypesModule = typeof import('../../src/core/auth/types');

/** Separate minified bundles, as in the extension: each has its own copy of the classes, under other names. */
function bundles(): { a: ErrorsModule; b: ErrorsModule; signInErrors: SignInErrorsModule; auth: AuthTypesModule; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-errors-'));
  const build = (entry: string, out: string) =>
    esbuild.buildSync({
      entryPoints: [join(root, entry)],
      outfile: join(dir, out),
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'cjs',
      packages: 'external',
      logLevel: 'silent',
    });
  build('src/core/errors.ts', 'a.js');
  build('src/core/errors.ts', 'b.js');
  build('src/core/connection/signInErrors.ts', 'signInErrors.js');
  build('src/core/auth/types.ts', 'auth.js');
  /* eslint-disable @typescript-eslint/no-require-imports -- the bundles just built */
  return {
    a: require(join(dir, 'a.js')) as ErrorsModule,
    b: require(join(dir, 'b.js')) as ErrorsModule,
    signInErrors: require(join(dir, 'signInErrors.js')) as SignInErrorsModule,
    auth: require(join(dir, 'auth.js')) as AuthTypesModule,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

test("an error of one bundle is recognised by another bundle's class, by its brand alone", () => {
  const { a, b, signInErrors, auth, cleanup } = bundles();
  try {
    assert.notEqual(a.ServerRequestError, b.ServerRequestError, 'two copies of the class');
    const refused = new a.ServerRequestError('refused', -32602);
    assert.ok(refused instanceof b.ServerRequestError);
    assert.ok(refused instanceof b.HostError);
    assert.equal(refused instanceof b.CallTimeoutError, false);
    assert.equal(refused.name, 'ServerRequestError', 'its name, although the bundle renamed the class');
    assert.ok(new a.ArgumentsRefusedError({ '/a': 'Required.' }) instanceof b.InputRefusedError, 'a subclass is its base class in every bundle');
    assert.equal(new a.InputRefusedError('x') instanceof b.ArgumentsRefusedError, false, 'a base class is not its subclass');
    assert.ok(new b.CallCancelledError('stopped') instanceof b.CallCancelledError, 'the same bundle: by prototype too');

    assert.equal(signInErrors.signInKind(new auth.SignInCancelledError('no')), 'cancelled');
    assert.equal(signInErrors.signInKind(new auth.SignInTimedOutError('late')), 'cancelled');
    assert.equal(signInErrors.signInKind(new Error('wrapped', { cause: new auth.SignInRequiredError('sign in') })), 'required');
    assert.equal(signInErrors.signInKind(Object.assign(new Error('x'), { name: 'SignInFailedError' })), undefined, 'a name is not a brand');
  } finally {
    cleanup();
  }
});

test('nothing else passes for an error of the host', () => {
  const { a, cleanup } = bundles();
  try {
    assert.equal(Object.assign(new Error('x'), { name: 'CallCancelledError' }) instanceof a.CallCancelledError, false);
    const brands = Symbol.for('mcp-host.errorBrands');
    Object.defineProperty(Object.prototype, brands, { value: new Set(['CallCancelledError', 'HostError']), configurable: true });
    try {
      assert.equal({} instanceof a.CallCancelledError, false, 'a brand inherited from Object.prototype');
      assert.equal(new Error('x') instanceof a.HostError, false);
    } finally {
      delete (Object.prototype as Record<symbol, unknown>)[brands];
    }
    const forged = {};
    Object.defineProperty(forged, brands, { value: ['CallCancelledError'] });
    assert.equal(forged instanceof a.CallCancelledError, false, 'brands that are not a Set');
  } finally {
    cleanup();
  }
});
