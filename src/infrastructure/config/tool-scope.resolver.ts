import { realpathSync } from 'node:fs';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { inheritedTraceparent } from '../../domain/model/traceparent';
import { bashSandboxOf } from '../../domain/proxy/bash-sandbox';
import { DEFAULT_LIMITS, type ProxyConfig } from '../../domain/proxy/proxy-config';
import type { ToolScope } from '../../domain/ports/tool-scope';
import type { ToolScopeResolver } from '../../domain/ports/tool-scope-resolver.port';

/** The ToolScopeResolver of this process: the real file system and environment. */
export class RealToolScopeResolver implements ToolScopeResolver {
  resolve(config: ProxyConfig): ToolScope {
    return buildToolScope(config);
  }
}
import { ToolPolicy } from '../../domain/policy/tool-policy';
import { parsePolicy } from '../../domain/policy/policy.parser';
import type { PolicyLayer } from '../../domain/policy/policy.model';

/**
 * Turns a proxy config into the scope every provider sees. The root is resolved through
 * symlinks here, once, so the sandbox compares real paths. A root that cannot be resolved
 * is fatal: silently serving without a sandbox is never an option.
 */
export function buildToolScope(
  config: ProxyConfig,
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): ToolScope {
  const root = config.root_dir ?? cwd;
  let rootDir: string;
  try {
    rootDir = realpathSync(root);
  } catch (err) {
    throw new AwfError(
      ErrorCodes.MCP_PROXY_CONFIG_INVALID,
      `sandbox root ${root} does not exist or cannot be resolved (${(err as NodeJS.ErrnoException).code})`,
      { root_dir: root },
      'Set root_dir to an existing directory.',
    );
  }
  const limits = Object.freeze({ ...DEFAULT_LIMITS, ...(config.limits ?? {}) });
  const bashSandbox = bashSandboxOf(limits, config.policy?.layers);
  return Object.freeze({
    rootDir,
    interceptBuiltins: config.intercept_builtins,
    ...(config.project_dir ? { projectDir: config.project_dir } : {}),
    pluginTools: Object.freeze(
      config.plugin_tools.map((p) => Object.freeze({ plugin: p.plugin, expose: [...p.expose] })),
    ),
    ...(config.upstreams?.length
      ? { upstreams: Object.freeze(config.upstreams.map((u) => Object.freeze({ ...u }))) }
      : {}),
    limits,
    ...(bashSandbox ? { bashSandbox: Object.freeze(bashSandbox) } : {}),
    workflow: config.workflow,
    step: config.step,
    runId: config.run_id,
    eventsPath: config.events_path,
    traceparent: config.telemetry?.traceparent ?? inheritedTraceparent(env),
    ...(config.policy?.layers.length ? { policy: compilePolicy(config.policy.layers) } : {}),
    ...(config.approval_socket ? { approvalSocket: config.approval_socket } : {}),
    ...(config.pins_dir ? { pinsDir: config.pins_dir } : {}),
  });
}

/** The layers as written in the config (checked on load) into their normal form, compiled once. */
export function compilePolicy(layers: readonly PolicyLayer[]): ToolPolicy {
  return new ToolPolicy(layers.map(({ origin, ...spec }) => ({ origin, ...parsePolicy(spec, origin, []) })));
}
