// eslint.config.js — the linter `npm test` runs (scripts/check-habits.sh): the recommended rules of
// ESLint, typescript-eslint and eslint-plugin-svelte over the page, its tests and the scripts. The
// few rules switched off say why.
import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

export default ts.config(
  { ignores: ['dist/**', 'build/**', 'build-wasm/**', 'public/wasm/**', 'node_modules/**', 'test-artifacts/**', 'web/src/generated/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      // the figures' registry holds figures of every view, document and settings type (FigureDef<any, …>)
      '@typescript-eslint/no-explicit-any': 'off',
      // `_` names a value read only for its place (a destructured field left out)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // {@html} is how the article's prose, rendered and escaped by lib/inline.ts, reaches the page
      'svelte/no-at-html-tags': 'off',
      // the Maps, Sets, Dates and URLSearchParams in components and stores are bookkeeping that
      // nothing renders: the state they feed lives in $state fields
      'svelte/prefer-svelte-reactivity': 'off',
      // {' '} keeps a space between inline elements that Svelte's whitespace handling would drop
      'svelte/no-useless-mustaches': 'off',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser } },
  },
);
