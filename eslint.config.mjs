import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'test/extensions/*/dist/**', 'media/**', 'node_modules/**', '.cache/**', '.artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The rules that need the types: a promise nobody awaits or catches, a promise where a plain value is expected,
  // an assertion the compiler already knows.
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  // Layers (docs/DESIGN.md): shared <- core <- extension | cli; shared <- webview. The compiler checks each layer's
  // globals (tsconfig/*.json: no DOM in core, no Node in the webview); these rules check where imports point.
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', {
      paths: [{ name: 'vscode', message: 'src/shared is plain data and text, for both sides of the webview.' }],
      patterns: [
        { group: ['node:*', 'fs', 'path', 'child_process'], message: 'src/shared runs in the webview too: no Node.' },
        { group: ['**/core/**', '**/core', '**/extension/**', '**/webview/**', '**/cli/**'], message: 'src/shared imports only src/shared.' },
      ],
    }] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', {
      paths: [{ name: 'vscode', message: 'src/core stays plain Node.' }],
      patterns: [{ group: ['**/extension/**', '**/webview/**', '**/cli/**'], message: 'src/core is below the extension, the webview and the CLI.' }],
    }] },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', {
      paths: [{ name: 'vscode', message: 'the webview has no vscode API.' }],
      patterns: [
        { group: ['node:*', 'fs', 'path', 'child_process'], message: 'the webview runs in a browser: no Node.' },
        { group: ['**/core/**', '**/core', '**/extension/**', '**/cli/**'], message: 'the webview imports only src/shared.' },
      ],
    }] },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', {
      paths: [{ name: 'vscode', message: 'the CLI runs without VS Code.' }],
      patterns: [{ group: ['**/extension/**', '**/webview/**'], message: 'the CLI builds on src/core and src/shared only.' }],
    }] },
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', {
      patterns: [{ group: ['**/webview/**', '**/cli/**'], message: 'the extension talks to the webview through src/shared/protocol.ts only.' }],
    }] },
  },
);
