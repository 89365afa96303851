import { existsSync } from 'node:fs';
import type { ProxyLaunch, ToolProxyOptions } from '../../application/workflow/tool-proxy.service';
import type { ProxyConfig } from '../../domain/proxy/proxy-config';
import { STASHED_EXTRA_CA_CERTS } from '../../domain/proxy/stashed-env';
import { loadProjectConfig } from '../config/project-config.loader';
import { selfCommand } from '../core/self-command';
import { mainScriptPath } from './main-script';

const ENV_BINARY = '/usr/bin/env';

/**
 * How `awf run` starts every step's `mcp-serve` (with `proxyLaunch` of tool-proxy.service): the
 * running node, dist/main.js, the startup snapshot when it fits (selfCommand). The tests' launch
 * paths (test/support/launch-paths.ts) take the snapshot launch from here, not from a copy.
 */
export function proxyLaunchOptions(): Pick<ToolProxyOptions, 'mainScript' | 'nodeArgs' | 'adjustLaunch'> {
  return { mainScript: mainScriptPath(), nodeArgs: selfCommand([]).args.slice(0, -1), adjustLaunch: (launch, config) => leanProxyLaunch(launch, config) };
}

/**
 * The command an agent runs to start a step's `mcp-serve`, without the caller's
 * NODE_EXTRA_CA_CERTS when the proxy cannot need it (ADR 100). Node reads and parses that
 * file before any code runs, in every process (about 40 ms per start for a system bundle of
 * 144 certificates on the bench machine), but only TLS made inside `mcp-serve` uses it there:
 * OTLP export, or an extension module. Without either, the agent starts
 * `env -u NODE_EXTRA_CA_CERTS AWF_STASHED_NODE_EXTRA_CA_CERTS=<value> node ...`, and
 * `mcp-serve` puts the value back before it spawns anything (plugins, Bash commands).
 */
export function leanProxyLaunch(launch: ProxyLaunch, config: ProxyConfig, env: NodeJS.ProcessEnv = process.env): ProxyLaunch {
  const certs = env.NODE_EXTRA_CA_CERTS;
  if (!certs || process.platform === 'win32' || !existsSync(ENV_BINARY)) return launch;
  // No telemetry block means mcp-serve reads OTEL_* itself and may export over TLS.
  const exporter = config.telemetry?.exporter;
  if (exporter === undefined || exporter === 'otlp') return launch;
  if (listsExtensions(config.root_dir ?? process.cwd()) || listsExtensions(process.cwd())) return launch;
  return { command: ENV_BINARY, args: ['-u', 'NODE_EXTRA_CA_CERTS', `${STASHED_EXTRA_CA_CERTS}=${certs}`, launch.command, ...launch.args] };
}

/** Per directory, once per run: every step of a run starts in the same few directories. */
const extensionsIn = new Map<string, boolean>();

/** mcp-serve loads the extensions of the project it starts in (the agent's working directory). */
function listsExtensions(dir: string): boolean {
  let lists = extensionsIn.get(dir);
  if (lists === undefined) {
    try {
      lists = loadProjectConfig(dir).extensions.length > 0;
    } catch {
      lists = true; // a config mcp-serve will refuse anyway: leave its start as it was
    }
    extensionsIn.set(dir, lists);
  }
  return lists;
}
