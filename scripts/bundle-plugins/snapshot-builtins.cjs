// Which Node built-ins may be loaded while the mcp-serve snapshot is built, although Node warns
// that it has not verified them in user snapshots (scripts/bundle-stubs/snapshot-builtins.cjs
// fails the build for any other). Each one is loaded at build by a dependency at import, and
// test/integration/perf-snapshot/snapshot-builtins.spec.ts proves, on the running node, that
// what they do there works from a blob. worker_threads is not here: loaded at build, workers
// started from the blob break (docs/adr/110-snapshot-builtins-stay-out-of-the-build.md).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const VERIFIED_IN_SNAPSHOT = {
  module: "pino's transport reads createRequire at import",
  async_hooks: 'nestjs-pino makes an AsyncLocalStorage at import',
  perf_hooks: "Nest's injector reads performance.now() while the container is built",
};

/** The guard's source, with the verified names filled in, for the snapshot bundle's banner. */
function snapshotBuiltinsGuard() {
  const source = readFileSync(join(__dirname, '..', 'bundle-stubs', 'snapshot-builtins.cjs'), 'utf8');
  return source.replace('__VERIFIED_IN_SNAPSHOT__', JSON.stringify(Object.keys(VERIFIED_IN_SNAPSHOT)));
}

/** The names the guard printed on the build's stdout, or undefined when it printed none. */
function builtinsAtBuild(stdout) {
  const line = /^awf-snapshot-builtins: (.*)$/m.exec(stdout ?? '');
  return line ? JSON.parse(line[1]) : undefined;
}

module.exports = { VERIFIED_IN_SNAPSHOT, snapshotBuiltinsGuard, builtinsAtBuild };
