// Stands in, in the mcp-serve startup snapshot only, for the modules of the other commands
// (the full CLI, workflows, agents) that app.module.ts requires on demand. The snapshot runs
// `mcp-serve --config=<file>` directly and loads dist/awf.cjs for anything else, so reaching
// this file is a bug in cli-snapshot.entry.ts, not a user error
// (docs/adr/094-perf-snapshot-serves-without-nest-commander.md).
'use strict';
throw new Error('awf: the full CLI is not part of the mcp-serve startup snapshot (load dist/awf.cjs)');
