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
      // Prettier keeps code within 120 columns; this catches comments too. Long string literals
      // (error messages, hints) stay whole so that they can be found with grep.
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-console': 'error',
      // A lazy `require()` is how the proxy's start loads only what its config needs (gRPC, the
      // OTel SDK, the MCP client: docs/performance.md, "Rules that keep the start fast").
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Plain Node scripts, benches and configs: ES modules (.mjs) and CommonJS (.cjs, .js).
    files: ['**/*.cjs', '**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        ['require', 'module', '__dirname', 'Buffer', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval',
          'setImmediate', 'URL', 'AbortController', 'TextEncoder', 'TextDecoder', 'structuredClone', 'fetch'].map((g) => [g, 'readonly']),
      ),
    },
    rules: { 'no-console': 'off' },
  },
  { files: ['**/*.cjs', '**/*.js'], languageOptions: { sourceType: 'commonjs' } },
  // The bundle plugin replaces this placeholder's first occurrence in the stub's source text.
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
  {
    // Assertions probe parsed JSON (spans, audit lines, reports) field by field: `any` is its honest type.
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests, benches and build scripts print on purpose; the plugin SDK writes go-plugin's
    // handshake line to stdout, which is that protocol's channel.
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**', 'scripts/**', 'src/sdk/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // The web dashboard: ES modules run by the browser (served as they are, no build step).
    files: ['dashboard/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        ['document', 'location', 'fetch', 'EventSource', 'Event', 'URLSearchParams', 'addEventListener',
          'removeEventListener', 'dispatchEvent', 'setTimeout', 'clearTimeout'].map((g) => [g, 'readonly']),
      ),
    },
  },
);
