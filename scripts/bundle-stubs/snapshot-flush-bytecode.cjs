// Runs first in the snapshot bundle (scripts/build-bundle.mjs prepends it). Most code that runs while
// the snapshot is built runs once (module bodies, decorators) and never again, yet V8 keeps its
// bytecode in the blob, which every start deserializes (~0.5 MB). Just before the heap is serialized,
// a few full GCs with code flushing forced drop the bytecode of every function; what a start does call
// again compiles lazily from the source text, as it would without a snapshot. Both V8 flags are set
// back before the blob is written: the blob records a hash of the flags and loads only under the same
// ones, so it still loads with SNAPSHOT_V8_FLAGS alone (scripts/build-bundle.mjs checks that it does;
// docs/adr/097-perf-snapshot-heap.md).
'use strict';
const v8 = require('node:v8');
if (v8.startupSnapshot?.isBuildingSnapshot()) {
  v8.startupSnapshot.addSerializeCallback(() => {
    v8.setFlagsFromString('--allow-natives-syntax');
    v8.setFlagsFromString('--stress-flush-code');
    try {
      const collectGarbage = new Function('%CollectGarbage(null)');
      for (let i = 0; i < 3; i++) collectGarbage();
    } finally {
      v8.setFlagsFromString('--no-stress-flush-code');
      v8.setFlagsFromString('--no-allow-natives-syntax');
    }
  });
}
