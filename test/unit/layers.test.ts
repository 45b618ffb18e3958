import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const importsVscode = /(from\s+['"]vscode['"])|(require\(\s*['"]vscode['"]\s*\))|(import\(\s*['"]vscode['"]\s*\))/;

test('src/core never imports vscode', () => {
  const offenders = sources(join(__dirname, '../../src/core')).filter((f) => importsVscode.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders, []);
});

test('src/webview imports neither vscode nor Node built-ins', () => {
  const nodeImport = /from\s+['"](node:|fs['"]|path['"]|child_process['"])/;
  const offenders = sources(join(__dirname, '../../src/webview')).filter((f) => {
    const text = readFileSync(f, 'utf8');
    return importsVscode.test(text) || nodeImport.test(text);
  });
  assert.deepEqual(offenders, []);
});
