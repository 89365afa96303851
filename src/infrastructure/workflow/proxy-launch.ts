import type { ToolProxyOptions } from '../../application/workflow/tool-proxy.service';
import { selfCommand } from '../core/self-command';
import { mainScriptPath } from './main-script';

/**
 * How `awf run` starts every step's `mcp-serve`: the running node, dist/main.js, and the startup
 * snapshot when one fits (selfCommand). A plain command, nothing around it (ADR 120). The node
 * flags are asked for at the first step that needs a proxy, so an installed awf builds its
 * cached snapshot then, once, and `awf validate` or a run without a proxy never does (ADR 121).
 */
export function proxyLaunchOptions(): Pick<ToolProxyOptions, 'mainScript' | 'nodeArgs'> {
  const note = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  return { mainScript: mainScriptPath(), nodeArgs: () => selfCommand([], { prepare: true, note }).args.slice(0, -1) };
}
