#!/usr/bin/env node
// After tsc: bundles the compiled CLI into one file, dist/awf.cjs, which dist/main.js loads. One
// file parses and loads about twice as fast as the thousands of files under node_modules it
// replaces (docs/performance.md, the start-up rows). Each *.worker.js is bundled next to it, since
// a worker thread starts from a file. Bundling the tsc output, not the sources: esbuild cannot
// emit decorator metadata, which Nest's constructor injection needs.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

/**
 * nest-commander requires these at load for features awf does not use (@QuestionSet prompts,
 * `usePlugins`, Fig completion specs); bundled, they would cost ~90 ms at every start and inline
 * TypeScript and prettier. Each becomes a module whose functions (the ones nest-commander calls)
 * throw when used.
 */
const UNUSED = ['inquirer', 'cosmiconfig', '@fig/complete-commander'];

/**
 * Packages left in node_modules, required when first used: a native addon, Nest's optional peers,
 * and what only some commands or settings load (the MCP SDK and zod, gRPC, OpenTelemetry, and
 * @nestjs/swagger for `awf serve`, whose docs page is swagger-ui-dist's files in node_modules).
 * Bundled, their 2.5 MB of source would be parsed at every start: parsing, not running, is what
 * a big bundle costs (~35 ms a MB here).
 */
const EXTERNAL = [
  'better-sqlite3',
  // PostgreSQL's driver (--history). Kysely, the history's query builder, is bundled: `awf run` opens
  // the history at every run, and its 280 files from node_modules cost ~50 ms more there
  // (docs/performance.md, the start-up row of `awf run`); bundled, it is parsed, not run, elsewhere.
  'pg',
  // The queue (`--queue`, `awf worker`): required only when a command opens one.
  'bullmq',
  'ioredis',
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@nestjs/platform-express',
  '@nestjs/swagger',
  '@modelcontextprotocol/*',
  '@agentclientprotocol/*', // ESM only, 2.5 MB: required (Node's require of ES modules) by acp-serve alone
  'zod',
  '@grpc/*',
  'protobufjs',
  '@opentelemetry/*',
  'ajv',
  // `awf diagram -o`'s images (WebAssembly, a native module, a PDF writer and its fonts).
  '@hpcc-js/wasm-graphviz',
  '@resvg/resvg-js',
  'pdfkit',
  'svg-to-pdfkit',
  // `awf tui` alone: Ink is an ES module with top-level await (imported, never required), and
  // React stays beside it so that the views and Ink share one React.
  'ink',
  'react',
];

/**
 * @nestjs/core requires these when the packages are installed, to wire microservices and
 * websockets into an app (~140 ms); awf's containers are application contexts that use neither
 * (@nestjs/microservices is there for plugins written as Nest microservices, which run in their own
 * processes). In the bundle they are "not installed", which Nest handles as when they are absent.
 */
const ABSENT = ['@nestjs/microservices/microservices-module', '@nestjs/websockets/socket-module'];

const unused = {
  name: 'unused-packages',
  setup(b) {
    const absent = new RegExp(`^(${ABSENT.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter: absent }, (args) => ({ path: args.path, namespace: 'absent' }));
    b.onLoad({ filter: /.*/, namespace: 'absent' }, (args) => ({
      contents: `throw Object.assign(new Error("Cannot find module '${args.path}'"), { code: 'MODULE_NOT_FOUND' });`,
    }));
    const filter = new RegExp(`^(${UNUSED.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'unused' }));
    b.onLoad({ filter: /.*/, namespace: 'unused' }, (args) => ({
      contents: `const unused = () => { throw new Error(${JSON.stringify(`${args.path} is not part of awf`)}); };
module.exports = { prompt: unused, createPromptModule: unused, cosmiconfig: unused, addCompletionSpecCommand: unused };`,
    }));
  },
};

/** Optional peers that are not installed (kafkajs, mqtt…) stay plain requires, failing as without a bundle. */
const optionalPeers = {
  name: 'optional-peers',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'optional-peers') return undefined;
      const { kind, resolveDir, importer } = args;
      const found = await b.resolve(args.path, { kind, resolveDir, importer, pluginData: 'optional-peers' });
      return found.errors.length ? { path: args.path, external: true } : found;
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true, // a smaller file reads and parses faster; the source map keeps stacks readable
  keepNames: true, // Nest and commander print class names
  legalComments: 'none',
  logLevel: 'error',
  sourcemap: 'linked',
  external: EXTERNAL,
  plugins: [unused, optionalPeers],
};

const started = Date.now();
// `awf --version` prints the commit and the build date (AWF's three lines); outside git, "unknown".
const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
writeFileSync(
  join(DIST, 'build-info.json'),
  `${JSON.stringify({ commit: commit.status === 0 ? commit.stdout.trim() : 'unknown', built: new Date().toISOString() })}\n`,
);
await build({ ...common, entryPoints: [join(DIST, 'interfaces/cli/cli-main.js')], outfile: join(DIST, 'awf.cjs') });
const workers = readdirSync(DIST, { recursive: true }).filter((f) => f.endsWith('.worker.js') && f.includes('/'));
for (const worker of workers)
  await build({ ...common, entryPoints: [join(DIST, worker)], outfile: join(DIST, basename(worker)) });
const mb = (statSync(join(DIST, 'awf.cjs')).size / 1e6).toFixed(1);
console.error(`build-bundle: dist/awf.cjs ${mb} MB in ${Date.now() - started} ms`);
