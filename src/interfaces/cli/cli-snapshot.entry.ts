// Entry of the V8 startup snapshot of `awf mcp-serve` (built by scripts/build-bundle.mjs):
// every module mcp-serve needs is loaded while the snapshot is built, so a start from the
// blob deserializes instead of parsing. It holds the proxy's modules and the direct serve path
// only (ADR 094): any other argv loads the full CLI bundle next to dist/main.js.
// Only imports here, and the proxy's container without extensions, built now so that a start
// only binds it to its process (ADR 094, amended): anything that reads env, argv, cwd, pid or
// opens a handle must wait for start(), which runs in the new process.
import { createRequire } from 'node:module';
import * as v8 from 'node:v8';
import { markStartPhase } from '../../application/serve/start-phases';
import type { INestApplicationContext } from '@nestjs/common';
import { prebuildServeContainer, serveDirect } from './mcp-serve.direct';
import { directServeConfig } from './startup-argv';

let prebuilt: INestApplicationContext | undefined;

function start(argv: string[]): void {
  markStartPhase('deserialized');
  const config = directServeConfig(argv);
  if (config !== undefined) {
    void serveDirect(config, prebuilt).then((code) => {
      process.exitCode = code;
    });
    return;
  }
  prebuilt = undefined; // the full CLI builds its own container
  // The snapshot's own require loads only built-ins; argv[1] is dist/main.js.
  const { runCli } = createRequire(argv[1])('./awf.cjs') as { runCli: (argv: string[]) => Promise<void> };
  void runCli(argv);
}

if (v8.startupSnapshot?.isBuildingSnapshot()) {
  // Node runs the event loop dry before it writes the snapshot, so the container is ready by then.
  prebuildServeContainer().then(
    (app) => {
      prebuilt = app;
    },
    (err: unknown) => {
      throw err; // fails the build, loudly: the build prints "no startup snapshot"
    },
  );
  v8.startupSnapshot.addSerializeCallback(() => {
    if (!prebuilt) throw new Error('the proxy container was not built before the snapshot was written');
  });
  v8.startupSnapshot.setDeserializeMainFunction(() => start(process.argv));
} else {
  start(process.argv);
}
