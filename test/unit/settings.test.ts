import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RESULT_CHARACTERS, SETTING_DEFAULTS } from '../../src/extension/settingDefaults';

const root = join(__dirname, '..', '..');

interface Declared {
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

function declaredSettings(): Map<string, Declared> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { configuration: unknown } };
  const sections = ([] as { properties: Record<string, Declared> }[]).concat(pkg.contributes.configuration as never);
  const declared = new Map<string, Declared>();
  for (const section of sections) {
    for (const [id, schema] of Object.entries(section.properties)) {
      assert.ok(id.startsWith('mcpHost.'), `${id} is in the extension's namespace`);
      assert.ok(!declared.has(id), `${id} is declared once`);
      declared.set(id.slice('mcpHost.'.length), schema);
    }
  }
  return declared;
}

test("package.json declares exactly the settings the code knows, each with the code's default", () => {
  const declared = declaredSettings();
  assert.deepEqual([...declared.keys()].sort(), Object.keys(SETTING_DEFAULTS).sort(), 'the same keys in package.json and settingDefaults.ts');
  for (const [key, schema] of declared) {
    assert.ok('default' in schema, `mcpHost.${key} declares its default`);
    assert.deepEqual(schema.default, SETTING_DEFAULTS[key as keyof typeof SETTING_DEFAULTS], `the default of mcpHost.${key}`);
  }
  const characters = declared.get('agents.maxResultCharacters');
  assert.deepEqual(
    [characters?.minimum, characters?.maximum],
    [RESULT_CHARACTERS.min, RESULT_CHARACTERS.max],
    'the bounds of mcpHost.agents.maxResultCharacters',
  );
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.m?ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

test('settings are read and watched only through src/extension/settings.ts', () => {
  const home = new Set(['src/extension/settings.ts', 'src/extension/settingDefaults.ts']);
  const strays: string[] = [];
  for (const file of sourceFiles(join(root, 'src'))) {
    const path = relative(root, file).split('\\').join('/');
    if (home.has(path)) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(getConfiguration|affectsConfiguration)\(\s*['"`]mcpHost\b[^)]*\)/g)) strays.push(`${path}: ${m[0]}`);
  }
  assert.deepEqual(strays, []);
});

test("every setting the code names (a key under one of the settings' sections) is declared", () => {
  const keys = [...declaredSettings().keys()];
  const sections = new Set(
    keys.flatMap((key) =>
      key
        .split('.')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('.')),
    ),
  );
  const firstSegments = new Set(keys.map((key) => key.split('.')[0]));
  const named: string[] = [];
  for (const file of sourceFiles(join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bmcpHost\.([A-Za-z]\w*(?:\.[A-Za-z]\w*)*)/g)) {
      if (firstSegments.has(m[1]!.split('.')[0])) named.push(m[1]!);
    }
  }
  assert.ok(named.length > 5, 'the code names settings');
  assert.deepEqual(
    named.filter((id) => !keys.includes(id) && !sections.has(id)),
    [],
  );
});
