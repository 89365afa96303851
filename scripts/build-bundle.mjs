#!/usr/bin/env node
// After tsc: bundles the compiled CLI into dist/awf.cjs (what `awf` loads) and, when this
// Node can, builds a V8 startup snapshot of an eager bundle into dist/awf-mcp.blob for
// `awf mcp-serve` (see docs/adr/091-perf-bundle-and-snapshot.md and docs/performance.md).
// Bundling the tsc output, not the sources: esbuild cannot emit decorator metadata, which
// Nest's constructor injection needs. AWF_NO_SNAPSHOT=1 skips the snapshot.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import lazyRxjs from './bundle-plugins/lazy-rxjs-index.cjs';

const { RXJS_INDEX, lazyRxjsIndex } = lazyRxjs;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const stub = (name) => join(ROOT, 'scripts', 'bundle-stubs', name);

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: process.env.AWF_BUNDLE_MINIFY !== '0', // a smaller file reads and parses faster; the source map keeps stacks readable
  keepNames: true, // Nest and commander print class names; keep them readable
  legalComments: 'none',
  logLevel: 'error',
  sourcemap: 'linked',
  alias: {
    inquirer: stub('inquirer.cjs'),
    cosmiconfig: stub('cosmiconfig.cjs'),
    '@fig/complete-commander': stub('fig-complete-commander.cjs'),
    '@nestjs/microservices/microservices-module': stub('absent.cjs'),
    '@nestjs/websockets/socket-module': stub('absent.cjs'),
  },
  // Only NestFactory.createMicroservice requires it (never awf); left out, it would bring
  // gRPC and protobufjs into every start. Plugins use @grpc/grpc-js directly.
  external: ['@nestjs/microservices'],
  plugins: [optionalPeers()],
};

/**
 * Node 20 cannot load some built-ins while it builds a snapshot (`http` throws there, and
 * Nest's exception filter requires it at import). In the snapshot bundle they become
 * proxies that require the real module on first use, which happens only at run time.
 */
function lazyBuiltins(names = ['http', 'https', 'http2', 'async_hooks', 'perf_hooks', 'child_process', 'worker_threads', 'module']) {
  const filter = new RegExp(`^(node:)?(${names.join('|')})$`);
  return {
    name: 'lazy-builtins',
    setup(b) {
      b.onResolve({ filter }, (args) =>
        args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' });
      b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
        loader: 'js',
        contents: `let real; const load = () => (real ??= require('node:${args.path}'));
module.exports = new Proxy({}, { get: (_, k) => load()[k], set: (_, k, v) => { load()[k] = v; return true; }, has: (_, k) => k in load(), ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, k) => { const d = Object.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; } });`,
      }));
    },
  };
}

/**
 * The snapshot holds mcp-serve's direct path only (ADR 094): the other commands' modules, which
 * app.module.ts requires on demand, would otherwise be bundled (and deserialized at every start).
 */
function snapshotLeavesOutTheCli() {
  return {
    name: 'snapshot-leaves-out-the-cli',
    setup(b) {
      b.onResolve({ filter: /^\.\/(interfaces\/cli\/(serve-cli|cli)|infrastructure\/agents\/agents)\.module$/ }, (args) =>
        args.importer.endsWith(`${'/'}app.module.js`) ? { path: stub('not-in-snapshot.cjs') } : undefined);
    },
  };
}

/**
 * Packages that are not installed (Nest's and the microservice clients' optional peers:
 * kafkajs, mqtt, @nestjs/platform-express...) stay plain `require`s: they sit in try/catch
 * or behind `loadPackage`, so at run time they fail the same way as without a bundle.
 */
function optionalPeers() {
  return {
    name: 'optional-peers',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'optional-peers') return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'optional-peers' });
        return found.errors.length ? { path: args.path, external: true } : found;
      });
    },
  };
}

/**
 * Packages the serve path requires only when plugins (gRPC) or tracing (OpenTelemetry) are
 * configured. In the snapshot they would be source text that V8 deserializes at every start
 * (~0.7 MB of the bundle), so there each one stands for a require of a bundle next to the blob,
 * made on first use (ADR 097). The plain bundle and the tsc output require them as usual.
 */
const RUN_TIME_BUNDLES = {
  'awf-grpc.cjs': { packages: ['@grpc/grpc-js', '@grpc/proto-loader'] },
  'awf-otel.cjs': { packages: ['@opentelemetry/api', '@opentelemetry/resources', '@opentelemetry/sdk-trace-base', '@opentelemetry/sdk-trace-node'], shares: ['@opentelemetry/core'] },
  // Only the OTLP exporter needs these ~80 KB more; the file and console exporters never read
  // them. It takes the SDK packages it shares from awf-otel.cjs: one copy of each.
  'awf-otlp.cjs': { packages: ['@opentelemetry/exporter-trace-otlp-proto'], from: { 'awf-otel.cjs': ['@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/resources'] } },
};

/** A run-time bundle's entry: one getter per package, so only what is asked for runs. */
function runTimeBundleEntry({ packages, shares = [] }) {
  return `module.exports = {\n${[...packages, ...shares].map((p) => `  get ${JSON.stringify(p)}() { return require(${JSON.stringify(p)}); },`).join('\n')}\n};\n`;
}

/** In a run-time bundle: the packages it takes from another one, as requires of that file. */
function takenFrom(from = {}) {
  const where = new Map(Object.entries(from).flatMap(([file, packages]) => packages.map((p) => [p, file])));
  return {
    name: 'taken-from',
    setup(b) {
      if (where.size === 0) return;
      const filter = new RegExp(`^(${[...where.keys()].map((p) => p.replace(/[/.]/g, '\\$&')).join('|')})$`);
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'taken-from' }));
      b.onResolve({ filter: /^\.\/awf-\w+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: 'taken-from' }, (args) => ({
        loader: 'js',
        resolveDir: DIST,
        contents: `module.exports = require(${JSON.stringify(`./${where.get(args.path)}`)})[${JSON.stringify(args.path)}];`,
      }));
    },
  };
}

/** In the snapshot bundle: each package of RUN_TIME_BUNDLES becomes a require of its bundle. */
function loadedAtRunTime() {
  const where = new Map(Object.entries(RUN_TIME_BUNDLES).flatMap(([file, { packages }]) => packages.map((p) => [p, file])));
  const filter = new RegExp(`^(${[...where.keys()].map((p) => p.replace(/[/.]/g, '\\$&')).join('|')})$`);
  return {
    name: 'loaded-at-run-time',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'run-time-bundle' }));
      b.onLoad({ filter: /.*/, namespace: 'run-time-bundle' }, (args) => ({
        loader: 'js',
        resolveDir: ROOT,
        contents: `const { loadRunTimeBundle } = require(${JSON.stringify(stub('run-time-bundle.cjs'))});
module.exports = loadRunTimeBundle(${JSON.stringify(where.get(args.path))}, ${JSON.stringify(args.path)});`,
      }));
    },
  };
}

/**
 * Packages in the snapshot bundle that run on first use instead of while the snapshot is
 * built: `yaml` parses only .awf/config.yaml and plugin.yaml, which a start without either
 * never reads. Their consumers (tsc output) read exports as properties at call time
 * (`yaml_1.parse(...)`), so a proxy that requires the bundled package on first access is
 * the same module to them; only its objects are not in the heap of every start.
 */
const DEFERRED_IN_SNAPSHOT = ['yaml'];

function deferredInSnapshot(names = DEFERRED_IN_SNAPSHOT) {
  const filter = new RegExp(`^(${names.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})$`);
  return {
    name: 'deferred-in-snapshot',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'deferred' }));
      // The package's own file by absolute path, which no plugin here resolves again.
      b.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => ({
        loader: 'js',
        resolveDir: ROOT,
        contents: `let real; const load = () => (real ??= require(${JSON.stringify(createRequire(join(ROOT, 'package.json')).resolve(args.path))}));
module.exports = new Proxy({}, { get: (_, k) => load()[k], has: (_, k) => k in load(), ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, k) => { const d = Object.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; } });`,
      }));
    },
  };
}

/** rxjs's indexes with lazy requires (scripts/bundle-plugins/lazy-rxjs-index.cjs), snapshot only. */
function lazyRxjsIndexes() {
  return {
    name: 'lazy-rxjs-indexes',
    setup(b) {
      b.onLoad({ filter: RXJS_INDEX }, async (args) => ({ loader: 'js', contents: lazyRxjsIndex(await readFile(args.path, 'utf8'), args.path) }));
    },
  };
}

// Only Nest's ValidationPipe and ClassSerializerInterceptor require these (lazily, when made), and
// the proxy makes neither: left out of the snapshot, they cost no heap at every start.
const SNAPSHOT_ABSENT = { 'class-validator': stub('absent.cjs'), 'class-transformer': stub('absent.cjs') };

// V8 flags baked into the snapshot: a blob only loads under the flags it was built with, so
// they are recorded in its .json and the launch command repeats them. A 4 MB semi-space (16 MB
// by default) keeps the proxy's peak RSS about 15 MB lower under 1000 calls in flight.
const SNAPSHOT_V8_FLAGS = ['--max-semi-space-size=4'];

// Run before the bundle's modules, each in its own block scope. A banner rather than esbuild's
// `inject`, which would add an import of the file to each of the ~1 000 modules.
const SNAPSHOT_PRELUDE = ['snapshot-intl.cjs', 'snapshot-flush-bytecode.cjs'].map((f) => `{\n${readFileSync(stub(f), 'utf8')}}`).join('\n');

const started = Date.now();
await build({ ...common, entryPoints: [join(DIST, 'interfaces/cli/cli-main.js')], outfile: join(DIST, 'awf.cjs'), metafile: false });
// Worker-thread entry files are loaded by path (`join(__dirname, 'x.worker.js')`); inside the
// bundle __dirname is dist/, so each one is bundled there under its own name.
for (const worker of findWorkers(DIST)) {
  await build({ ...common, entryPoints: [worker], outfile: join(DIST, basename(worker)) });
}
for (const [file, bundle] of Object.entries(RUN_TIME_BUNDLES)) {
  await build({ ...common, stdin: { contents: runTimeBundleEntry(bundle), resolveDir: ROOT, sourcefile: `${file}.entry.js` }, plugins: [takenFrom(bundle.from), optionalPeers()], outfile: join(DIST, file) });
}

const blob = join(DIST, 'awf-mcp.blob');
const meta = `${blob}.json`;
rmSync(blob, { force: true });
rmSync(meta, { force: true });
if (process.env.AWF_NO_SNAPSHOT === '1') {
  console.error('build-bundle: AWF_NO_SNAPSHOT=1, no startup snapshot');
} else {
  const eager = join(DIST, 'awf-snapshot.cjs');
  // AWF_BUNDLE_META=1 keeps esbuild's metafile of the snapshot bundle: what its heap is made of.
  const bundled = await build({ ...common, alias: { ...common.alias, ...SNAPSHOT_ABSENT }, format: 'iife', sourcemap: false, metafile: process.env.AWF_BUNDLE_META === '1', banner: { js: SNAPSHOT_PRELUDE }, plugins: [snapshotLeavesOutTheCli(), loadedAtRunTime(), deferredInSnapshot(), lazyRxjsIndexes(), lazyBuiltins(), optionalPeers()], entryPoints: [join(DIST, 'interfaces/cli/cli-snapshot.entry.js')], outfile: eager });
  if (bundled.metafile) writeFileSync(join(DIST, 'awf-snapshot.meta.json'), JSON.stringify(bundled.metafile));
  const made = spawnSync(process.execPath, [...SNAPSHOT_V8_FLAGS, '--snapshot-blob', blob, '--build-snapshot', eager], { cwd: DIST, encoding: 'utf8', env: { PATH: process.env.PATH } });
  if (made.status !== 0) {
    rmSync(blob, { force: true });
    console.error(`build-bundle: no startup snapshot (awf still runs from the bundle): ${(made.stderr || made.stdout).trim().split('\n').slice(-3).join(' | ')}`);
  } else if (!snapshotLoads(blob)) {
    rmSync(blob, { force: true });
  } else {
    writeFileSync(meta, JSON.stringify({ node: process.version, arch: process.arch, platform: process.platform, flags: SNAPSHOT_V8_FLAGS, dist: DIST }) + '\n');
  }
  if (!process.env.AWF_KEEP_SNAPSHOT_BUNDLE) rmSync(eager, { force: true });
}
/** The blob deserializes under SNAPSHOT_V8_FLAGS alone and runs the CLI (`--version` loads dist/awf.cjs from it). */
function snapshotLoads(file) {
  const run = spawnSync(process.execPath, [...SNAPSHOT_V8_FLAGS, '--snapshot-blob', file, join(DIST, 'main.js'), '--version'], { cwd: DIST, encoding: 'utf8', env: { PATH: process.env.PATH } });
  if (run.status === 0 && run.stdout.trim() === JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version) return true;
  console.error(`build-bundle: no startup snapshot (awf still runs from the bundle): the blob does not load: ${(run.stderr || run.stdout).trim().split('\n').slice(-2).join(' | ')}`);
  return false;
}
function findWorkers(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.worker.js') && f.includes('/'))
    .map((f) => join(dir, f));
}

const size = (f) => { try { return `${(statSync(f).size / 1e6).toFixed(1)} MB`; } catch { return 'none'; } };
console.error(`build-bundle: dist/awf.cjs ${size(join(DIST, 'awf.cjs'))}, dist/awf-mcp.blob ${size(blob)} in ${Date.now() - started} ms`);
