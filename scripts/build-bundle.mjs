#!/usr/bin/env node
// After tsc: bundles the compiled CLI into dist/awf.cjs (what `awf` loads) and, when this
// Node can, builds a V8 startup snapshot of an eager bundle into dist/awf-mcp.blob for
// `awf mcp-serve` (see docs/adr/091-perf-bundle-and-snapshot.md and docs/performance.md).
// Bundling the tsc output, not the sources: esbuild cannot emit decorator metadata, which
// Nest's constructor injection needs. AWF_NO_SNAPSHOT=1 skips the snapshot.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import snapshotBuiltins from './bundle-plugins/snapshot-builtins.cjs';
import {
  DIST,
  ROOT,
  RUN_TIME_BUNDLES,
  deferredInSnapshot,
  lazyBuiltins,
  lazyRxjsIndexes,
  loadedAtRunTime,
  optionalPeers,
  runTimeBundleEntry,
  snapshotLeavesOutTheCli,
  stub,
  takenFrom,
} from './bundle-plugins/esbuild-plugins.mjs';

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
  // better-sqlite3 loads its native addon by path (bindings): it stays a package, required
  // on first use of the run history, never by mcp-serve.
  // @nestjs/platform-express (with Express, multer and body-parser): only `awf serve` loads it, so
  // it stays in node_modules instead of being parsed at every start.
  external: ['@nestjs/microservices', 'better-sqlite3', '@nestjs/platform-express'],
  plugins: [optionalPeers()],
};

// Only Nest's ValidationPipe and ClassSerializerInterceptor require these (lazily, when made), and
// the proxy makes neither: left out of the snapshot, they cost no heap at every start.
const SNAPSHOT_ABSENT = { 'class-validator': stub('absent.cjs'), 'class-transformer': stub('absent.cjs') };

// V8 flags baked into the snapshot: a blob only loads under the flags it was built with, so
// they are recorded in its .json and the launch command repeats them. A 4 MB semi-space (16 MB
// by default) keeps the proxy's peak RSS about 15 MB lower under 1000 calls in flight. The same
// constant builds an installed awf's blob on first use (tsc has just compiled it; ADR 121).
const { SNAPSHOT_V8_FLAGS } = createRequire(import.meta.url)(join(DIST, 'infrastructure', 'core', 'snapshot-cache.js'));

// Run before the bundle's modules, each in its own block scope. A banner rather than esbuild's
// `inject`, which would add an import of the file to each of the ~1 000 modules.
// The built-ins guard first: it must hear every require of a built-in the build makes.
const SNAPSHOT_PRELUDE = [
  snapshotBuiltins.snapshotBuiltinsGuard(),
  ...['snapshot-intl.cjs', 'snapshot-flush-bytecode.cjs'].map((f) => readFileSync(stub(f), 'utf8')),
]
  .map((source) => `{\n${source}}`)
  .join('\n');

const started = Date.now();
// `awf --version` prints the commit and the build date (AWF's three lines); outside git, "unknown".
const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
writeFileSync(
  join(DIST, 'build-info.json'),
  JSON.stringify({ commit: commit.status === 0 ? commit.stdout.trim() : 'unknown', built: new Date().toISOString() }) +
    '\n',
);
await build({
  ...common,
  entryPoints: [join(DIST, 'interfaces/cli/cli-main.js')],
  outfile: join(DIST, 'awf.cjs'),
  metafile: false,
});
// Worker-thread entry files are loaded by path (`join(__dirname, 'x.worker.js')`); inside the
// bundle __dirname is dist/, so each one is bundled there under its own name.
for (const worker of findWorkers(DIST)) {
  await build({ ...common, entryPoints: [worker], outfile: join(DIST, basename(worker)) });
}
for (const [file, bundle] of Object.entries(RUN_TIME_BUNDLES)) {
  await build({
    ...common,
    stdin: { contents: runTimeBundleEntry(bundle), resolveDir: ROOT, sourcefile: `${file}.entry.js` },
    alias: { ...common.alias, ...bundle.alias },
    plugins: [takenFrom(bundle.from), optionalPeers()],
    outfile: join(DIST, file),
  });
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
  const bundled = await build({
    ...common,
    alias: { ...common.alias, ...SNAPSHOT_ABSENT },
    format: 'iife',
    sourcemap: false,
    metafile: process.env.AWF_BUNDLE_META === '1',
    banner: { js: SNAPSHOT_PRELUDE },
    plugins: [
      snapshotLeavesOutTheCli(),
      loadedAtRunTime(),
      deferredInSnapshot(),
      lazyRxjsIndexes(),
      lazyBuiltins(),
      optionalPeers(),
    ],
    entryPoints: [join(DIST, 'interfaces/cli/cli-snapshot.entry.js')],
    outfile: eager,
  });
  if (bundled.metafile) writeFileSync(join(DIST, 'awf-snapshot.meta.json'), JSON.stringify(bundled.metafile));
  const made = spawnSync(process.execPath, [...SNAPSHOT_V8_FLAGS, '--snapshot-blob', blob, '--build-snapshot', eager], {
    cwd: DIST,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  if (made.status !== 0) {
    rmSync(blob, { force: true });
    console.error(
      `build-bundle: no startup snapshot (awf still runs from the bundle): ${(made.stderr || made.stdout).trim().split('\n').slice(-3).join(' | ')}`,
    );
  } else if (!snapshotLoads(blob)) {
    rmSync(blob, { force: true });
  } else {
    const builtinsAtBuild = snapshotBuiltins.builtinsAtBuild(made.stdout);
    writeFileSync(
      meta,
      JSON.stringify({
        node: process.version,
        arch: process.arch,
        platform: process.platform,
        flags: SNAPSHOT_V8_FLAGS,
        dist: DIST,
        builtinsAtBuild,
      }) + '\n',
    );
  }
  // Kept: it ships, and an installed awf builds its own blob from it on first use (ADR 121).
}
/** The blob deserializes under SNAPSHOT_V8_FLAGS alone and runs the CLI (`--version` loads dist/awf.cjs from it). */
function snapshotLoads(file) {
  const run = spawnSync(
    process.execPath,
    [...SNAPSHOT_V8_FLAGS, '--snapshot-blob', file, join(DIST, 'main.js'), '--version'],
    { cwd: DIST, encoding: 'utf8', env: { PATH: process.env.PATH } },
  );
  if (
    run.status === 0 &&
    run.stdout.split('\n')[0] === `awf version ${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}`
  )
    return true;
  console.error(
    `build-bundle: no startup snapshot (awf still runs from the bundle): the blob does not load: ${(run.stderr || run.stdout).trim().split('\n').slice(-2).join(' | ')}`,
  );
  return false;
}
function findWorkers(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.worker.js') && f.includes('/'))
    .map((f) => join(dir, f));
}

const size = (f) => {
  try {
    return `${(statSync(f).size / 1e6).toFixed(1)} MB`;
  } catch {
    return 'none';
  }
};
console.error(
  `build-bundle: dist/awf.cjs ${size(join(DIST, 'awf.cjs'))}, dist/awf-mcp.blob ${size(blob)} in ${Date.now() - started} ms`,
);
