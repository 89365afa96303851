// The esbuild plugins of scripts/build-bundle.mjs: what the plain bundle leaves out or keeps
// external, and how the snapshot bundle defers or drops what a start does not need
// (docs/adr/091-perf-bundle-and-snapshot.md, 094 and 097).
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import lazyRxjs from './lazy-rxjs-index.cjs';

const { RXJS_INDEX, lazyRxjsIndex } = lazyRxjs;

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = join(ROOT, 'dist');
export const stub = (name) => join(ROOT, 'scripts', 'bundle-stubs', name);

/** An esbuild filter that matches exactly these package names. */
function exactly(names) {
  return new RegExp(`^(${names.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})$`);
}

/**
 * A module that stands for `requireExpr` and evaluates it on first use of any export. `known`
 * exports are answered without evaluating it: values that are the same in every process that
 * can run this code.
 */
function onFirstUse(requireExpr, { writable = false, known } = {}) {
  const get = known ? `(_, k) => Object.hasOwn(known, k) ? known[k] : load()[k]` : '(_, k) => load()[k]';
  return `let real; const load = () => (real ??= ${requireExpr});${known ? ` const known = ${known};` : ''}
module.exports = new Proxy({}, { get: ${get},${writable ? ' set: (_, k, v) => { load()[k] = v; return true; },' : ''} has: (_, k) => k in load(), ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, k) => { const d = Object.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; } });`;
}

/**
 * What a snapshot's code may take of a lazy built-in at import without loading it. A blob only
 * ever starts a main thread, so worker_threads' identity is known at build (pino reads
 * `isMainThread` at import), and its `Worker` class (thread-stream takes it at import) is a
 * stand-in that loads the module when a worker is made, at run time. Loading worker_threads
 * itself while building breaks every worker started from the blob (ADR 110), and the build's
 * built-ins guard refuses it. `load` is the stand-in module's own loader.
 */
const KNOWN_AT_BUILD = {
  worker_threads: `{ isMainThread: true, threadId: 0, parentPort: null, workerData: null,
  Worker: new Proxy(function Worker() {}, { construct: (_, args, target) => Reflect.construct(load().Worker, args, target === known.Worker ? load().Worker : target),
    get: (_, k) => load().Worker[k], has: (_, k) => k in load().Worker }) }`,
};

/**
 * Node 20 cannot load some built-ins while it builds a snapshot (`http` throws there, and
 * Nest's exception filter requires it at import). In the snapshot bundle they become
 * proxies that require the real module on first use, which happens only at run time.
 */
export function lazyBuiltins(
  names = [
    'http',
    'https',
    'http2',
    'async_hooks',
    'perf_hooks',
    'child_process',
    'worker_threads',
    'module',
    'readline',
  ],
) {
  const filter = new RegExp(`^(node:)?(${names.join('|')})$`);
  return {
    name: 'lazy-builtins',
    setup(b) {
      b.onResolve({ filter }, (args) =>
        args.namespace === 'lazy-builtin'
          ? { path: args.path, external: true }
          : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
      );
      b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
        loader: 'js',
        contents: onFirstUse(`require('node:${args.path}')`, { writable: true, known: KNOWN_AT_BUILD[args.path] }),
      }));
    },
  };
}

/**
 * The snapshot holds mcp-serve's direct path only (ADR 094): the other commands' modules, which
 * app.module.ts requires on demand, would otherwise be bundled (and deserialized at every start).
 */
export function snapshotLeavesOutTheCli() {
  return {
    name: 'snapshot-leaves-out-the-cli',
    setup(b) {
      b.onResolve(
        { filter: /^\.\/(interfaces\/cli\/(serve-cli|cli)|infrastructure\/agents\/agents)\.module$/ },
        (args) => (args.importer.endsWith(`${'/'}app.module.js`) ? { path: stub('not-in-snapshot.cjs') } : undefined),
      );
    },
  };
}

/**
 * Packages that are not installed (Nest's and the microservice clients' optional peers:
 * kafkajs, mqtt, @nestjs/platform-express...) stay plain `require`s: they sit in try/catch
 * or behind `loadPackage`, so at run time they fail the same way as without a bundle.
 */
export function optionalPeers() {
  return {
    name: 'optional-peers',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'optional-peers') return undefined;
        const found = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'optional-peers',
        });
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
export const RUN_TIME_BUNDLES = {
  'awf-grpc.cjs': { packages: ['@grpc/grpc-js', '@grpc/proto-loader'] },
  'awf-otel.cjs': {
    packages: [
      '@opentelemetry/api',
      '@opentelemetry/resources',
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/sdk-trace-node',
    ],
    shares: ['@opentelemetry/core'],
  },
  // Only the OTLP exporter needs these ~80 KB more; the file and console exporters never read
  // them. It takes the SDK packages it shares from awf-otel.cjs: one copy of each.
  // Metrics (on only with an OTLP metrics exporter): the SDK and nestjs-otel's MetricService, whose
  // only use of Nest is its @Injectable() marker; awf makes the service itself, so the marker is a
  // stub here rather than a second copy of @nestjs/common beside the snapshot's.
  'awf-metrics.cjs': {
    packages: ['@opentelemetry/sdk-metrics', 'nestjs-otel/lib/metrics/metric.service'],
    from: { 'awf-otel.cjs': ['@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/resources'] },
    alias: { '@nestjs/common': stub('nest-injectable-marker.cjs') },
  },
  'awf-otlp.cjs': {
    packages: [
      '@opentelemetry/exporter-trace-otlp-proto',
      '@opentelemetry/exporter-trace-otlp-grpc',
      '@opentelemetry/exporter-metrics-otlp-proto',
      '@opentelemetry/exporter-metrics-otlp-grpc',
    ],
    from: {
      'awf-otel.cjs': ['@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/resources'],
      'awf-metrics.cjs': ['@opentelemetry/sdk-metrics'],
      'awf-grpc.cjs': ['@grpc/grpc-js'],
    },
  },
  // The MCP SDK's Client for steps that name other MCP servers (src/infrastructure/upstreams): with zod,
  // ~1 MB that a step without upstreams must not deserialize at every start.
  'awf-mcp-client.cjs': {
    packages: [
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/client/streamableHttp.js',
      '@modelcontextprotocol/sdk/client/sse.js',
      '@modelcontextprotocol/sdk/client/stdio.js',
      '@modelcontextprotocol/sdk/shared/stdio.js',
      '@modelcontextprotocol/sdk/types.js',
    ],
  },
};

/** A run-time bundle's entry: one getter per package, so only what is asked for runs. */
export function runTimeBundleEntry({ packages, shares = [] }) {
  return `module.exports = {\n${[...packages, ...shares].map((p) => `  get ${JSON.stringify(p)}() { return require(${JSON.stringify(p)}); },`).join('\n')}\n};\n`;
}

/** In a run-time bundle: the packages it takes from another one, as requires of that file. */
export function takenFrom(from = {}) {
  const where = new Map(Object.entries(from).flatMap(([file, packages]) => packages.map((p) => [p, file])));
  return {
    name: 'taken-from',
    setup(b) {
      if (where.size === 0) return;
      const filter = exactly([...where.keys()]);
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
export function loadedAtRunTime() {
  const where = new Map(
    Object.entries(RUN_TIME_BUNDLES).flatMap(([file, { packages }]) => packages.map((p) => [p, file])),
  );
  const filter = exactly([...where.keys()]);
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

export function deferredInSnapshot(names = DEFERRED_IN_SNAPSHOT) {
  const filter = exactly(names);
  return {
    name: 'deferred-in-snapshot',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'deferred' }));
      // The package's own file by absolute path, which no plugin here resolves again.
      b.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => ({
        loader: 'js',
        resolveDir: ROOT,
        contents: onFirstUse(
          `require(${JSON.stringify(createRequire(join(ROOT, 'package.json')).resolve(args.path))})`,
        ),
      }));
    },
  };
}

/** rxjs's indexes with lazy requires (scripts/bundle-plugins/lazy-rxjs-index.cjs), snapshot only. */
export function lazyRxjsIndexes() {
  return {
    name: 'lazy-rxjs-indexes',
    setup(b) {
      b.onLoad({ filter: RXJS_INDEX }, async (args) => ({
        loader: 'js',
        contents: lazyRxjsIndex(await readFile(args.path, 'utf8'), args.path),
      }));
    },
  };
}
