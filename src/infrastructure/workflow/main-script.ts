import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ToolProxyOptions } from '../../application/workflow/tool-proxy.service';
import { selfCommand } from '../core/self-command';

/**
 * The built CLI that agents start as `mcp-serve`: `dist/main.js`, found from wherever this
 * code runs — the tsc output (dist/infrastructure/workflow), a single-file bundle in dist/,
 * or the sources under jest (then the repository's build output).
 */
export function mainScriptPath(): string {
  const candidates = [
    resolve(__dirname, 'main.js'),
    resolve(__dirname, '..', '..', 'main.js'),
    resolve(__dirname, '..', '..', '..', 'dist', 'main.js'),
  ];
  return candidates.find((c) => existsSync(c)) ?? candidates[candidates.length - 1];
}

/**
 * How `awf run` starts every step's `mcp-serve` (with `proxyLaunch` of tool-proxy.service): the
 * running node, dist/main.js, and the startup snapshot when it fits (selfCommand). The tests'
 * launch paths (test/support/launch-paths.ts) take the snapshot launch from here, not a copy.
 * The node flags are asked for at the first step that needs a proxy, then kept: an installed awf
 * builds its cached snapshot then, once, and `awf validate` or a run without a proxy never does
 * (ADR 121).
 */
export function proxyLaunchOptions(): Pick<ToolProxyOptions, 'mainScript' | 'nodeArgs'> {
  let flags: string[] | undefined;
  const note = (line: string): void => void process.stderr.write(`${line}\n`);
  return {
    mainScript: mainScriptPath(),
    nodeArgs: () => (flags ??= selfCommand([], { prepare: true, note }).args.slice(0, -1)),
  };
}
