// Entry of the V8 startup snapshot of `awf mcp-serve` (built by scripts/build-bundle.mjs):
// every module mcp-serve needs is loaded while the snapshot is built, so a start from the
// blob deserializes instead of parsing. It holds the proxy's modules and the direct serve path
// only (ADR 094): any other argv loads the full CLI bundle next to dist/main.js.
// Only imports here: anything that reads env, argv, cwd, pid or opens a handle must wait
// for start(), which runs in the new process.
import { createRequire } from 'node:module';
import * as v8 from 'node:v8';
import { markStartPhase } from '../../infrastructure/mcp/start-phases';
import { directServeConfig, serveDirect } from './mcp-serve.direct';

function start(argv: string[]): void {
  markStartPhase('deserialized');
  const config = directServeConfig(argv);
  if (config !== undefined) {
    void serveDirect(config).then((code) => {
      process.exitCode = code;
    });
    return;
  }
  // The snapshot's own require loads only built-ins; argv[1] is dist/main.js.
  const { runCli } = createRequire(argv[1])('./awf.cjs') as { runCli: (argv: string[]) => Promise<void> };
  void runCli(argv);
}

if (v8.startupSnapshot?.isBuildingSnapshot()) {
  v8.startupSnapshot.setDeserializeMainFunction(() => start(process.argv));
} else {
  start(process.argv);
}
