// Runs first in the snapshot bundle (scripts/build-bundle.mjs prepends it). Node warns when a
// snapshot build requires a built-in that it does not support in user snapshots ("It's not yet
// fully verified whether built-in module X works in user snapshot builder scripts"): such a
// module's internal state is made once, in the build process, and may be stale in every start.
// `worker_threads` is the case that bit (docs/adr/110-snapshot-builtins-stay-out-of-the-build.md):
// loaded at build, every worker started from the blob had no shared cwd cell, and its
// `process.cwd()` threw "undefined is not an integer typed array".
// Here such warnings fail the build ("no startup snapshot", awf then runs from the bundle),
// unless the built-in is one that test/integration/perf-snapshot/snapshot-builtins.spec.ts proves
// works from a blob on this node. What the build did load is recorded in the blob's .json.
'use strict';
const v8 = require('node:v8');
if (v8.startupSnapshot?.isBuildingSnapshot()) {
  const VERIFIED_IN_SNAPSHOT = __VERIFIED_IN_SNAPSHOT__; // filled in by scripts/bundle-plugins/snapshot-builtins.cjs
  const loaded = new Set();
  const onWarning = (warning) => {
    const name = /built-in module "(?:node:)?([\w/]+)" works in user snapshot/.exec(warning.message)?.[1];
    if (name) loaded.add(name);
  };
  process.on('warning', onWarning);
  v8.startupSnapshot.addSerializeCallback(() => {
    process.off('warning', onWarning);
    const stale = [...loaded].filter((name) => !VERIFIED_IN_SNAPSHOT.includes(name));
    if (stale.length > 0) {
      throw new Error(
        `built-in ${stale.join(', ')} was loaded while the snapshot was built; Node does not support it in a snapshot, so its state would be the build's in every start: make the require lazy (scripts/bundle-plugins/esbuild-plugins.mjs lazyBuiltins)`,
      );
    }
    // build-bundle.mjs records this line in the blob's .json
    require('node:fs').writeSync(1, `awf-snapshot-builtins: ${JSON.stringify([...loaded].sort())}\n`);
  });
}
