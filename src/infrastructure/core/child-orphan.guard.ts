import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Keeps child servers (plugins, upstream MCP servers) from outliving the process that started
 * them (ADR 081). An orderly end stops them through their host (PluginHost, UpstreamHost);
 * these cover the ends that skip it:
 * - `process.exit` (a second Ctrl-C forces it) fires 'exit' synchronously: kill what is left;
 * - SIGKILL or a crash of the host runs no code at all: on Linux the plugin is launched
 *   through util-linux `setpriv --pdeathsig KILL`, so the kernel kills it when its parent
 *   dies. go-plugin plugins do not watch their parent; the SDK's ppid poll alone takes 1 s
 *   and can be ignored by a plugin that overrides `process.exit`.
 */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

export function killOnHostExit(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const c of live) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
}

/** `command args`, launched so that the kernel SIGKILLs it when this process dies (Linux with setpriv); else as is. */
export function dieWithParent(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { command: string; args: string[] } {
  const setpriv = process.platform === 'linux' && env.AWF_PLUGIN_PDEATHSIG !== '0' ? findSetpriv(env) : undefined;
  // A command that cannot be found is spawned as is, so the spawn error names it (not setpriv's exit 127).
  const target = setpriv ? resolveExecutable(command, env) : undefined;
  return setpriv && target
    ? { command: setpriv, args: ['--pdeathsig', 'KILL', '--', target, ...args] }
    : { command, args: [...args] };
}

let setprivPath: string | null | undefined;

function findSetpriv(env: NodeJS.ProcessEnv): string | undefined {
  setprivPath ??= resolveExecutable('setpriv', env) ?? null;
  return setprivPath ?? undefined;
}

function resolveExecutable(command: string, env: NodeJS.ProcessEnv): string | undefined {
  if (command.includes('/')) return isAbsolute(command) && isExecutable(command) ? command : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const file = join(dir, command);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
