// Lint rules: the recommended sets of ESLint and typescript-eslint, nothing exotic. Node globals
// everywhere; browser globals only for code that runs in a page.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'results/**',
      '.tmp/**',
      '**/*.html',
      'fixtures/k6-reference/k6-*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // CommonJS is what dependency-cruiser loads its config as (and the helper it requires).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['services/sandbox/web/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
