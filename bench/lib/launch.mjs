// How `awf run` starts mcp-serve: the build's own selfCommand() (ADR 120), with the startup
// snapshot when the build made one for this node. Shared by bench.mjs and upstream.mjs.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export function readLaunch(dist) {
  try {
    const out = spawnSync(
      process.execPath,
      [
        '-e',
        `process.stdout.write(JSON.stringify(require(${JSON.stringify(join(dist, 'infrastructure', 'core', 'self-command.js'))}).selfCommand(['mcp-serve'], { distDir: ${JSON.stringify(dist)} })))`,
      ],
      { encoding: 'utf8' },
    );
    const cmd = JSON.parse(out.stdout);
    const i = cmd.args.indexOf('mcp-serve');
    const nodeFlags = cmd.args.slice(0, i - 1);
    const snapshot = nodeFlags.includes('--snapshot-blob');
    return {
      nodeFlags,
      snapshot,
      describe: snapshot ? 'node --snapshot-blob (startup snapshot of the bundle)' : 'node dist/main.js',
    };
  } catch {
    return { nodeFlags: [], snapshot: false, describe: 'node dist/main.js' };
  }
}
