// Entry of the V8 startup snapshot of `awf mcp-serve` (built by scripts/build-bundle.mjs):
// every module mcp-serve needs is loaded while the snapshot is built, including the MCP edge
// that the plain CLI loads lazily, so a start from the blob deserializes instead of parsing.
// Only imports here: anything that reads env, argv, cwd, pid or opens a handle must wait
// for runCli(), which runs in the new process.
import * as v8 from 'node:v8';
import '../../infrastructure/mcp/mcp-stdio.server';
import './serve-cli.module';
import { runCli } from './cli-main';

if (v8.startupSnapshot?.isBuildingSnapshot()) {
  v8.startupSnapshot.setDeserializeMainFunction(() => void runCli(process.argv));
} else {
  void runCli(process.argv);
}
