import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'media/**', 'node_modules/**', '.cache/**', '.artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core stays plain Node.' }] }] },
  },
);
