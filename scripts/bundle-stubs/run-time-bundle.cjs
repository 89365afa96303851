// In the mcp-serve startup snapshot only: loads a package that the snapshot leaves out
// (gRPC for plugins, the OpenTelemetry SDK for tracing) from its bundle next to the blob, on
// first use (docs/adr/097-perf-snapshot-heap.md).
// The snapshot's own require loads only built-ins, hence a require rooted at the dist/
// the snapshot was built in (its __dirname; selfCommand uses a blob only from that dist/).
'use strict';
const v8 = require('node:v8');

const loaded = new Map();

exports.loadRunTimeBundle = function loadRunTimeBundle(file, name) {
  if (v8.startupSnapshot?.isBuildingSnapshot()) {
    // Reached at build time means a module that runs at import needs the package: that
    // would load it from a file into the snapshot, or fail in an odd place later.
    throw new Error(`awf: ${name} is loaded at run time (${file}); nothing may require it while the snapshot is built`);
  }
  if (!loaded.has(file)) loaded.set(file, require('node:module').createRequire(`${__dirname}/`)(`./${file}`));
  return loaded.get(file)[name];
};
