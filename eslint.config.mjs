// `npm run lint`: typescript-eslint's recommended rules plus the house rules that review kept
// asking for (lines ≤120, no console output outside the CLI's own writers). Formatting itself is
// Prettier's (.prettierrc.json); `eslint-config-prettier` is not needed because nothing here
// enables a stylistic rule Prettier owns, except max-len, which also catches long strings and comments.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'node_modules/**', '.awf-test-*/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-console': 'error',
    },
  },
  {
    // Plain Node scripts, benches and CommonJS configs.
    files: ['**/*.cjs', '**/*.mjs', '**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', AbortController: 'readonly', performance: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-console': 'off' },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
