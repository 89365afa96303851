import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ApprovalChannel, ApprovalChannels } from '../../../domain/ports/approval-channel.port';
import { type PolicySpec, strictRule } from '../../../domain/policy/policy.model';
import { stepPolicyLayers } from '../../../domain/policy/policy-layers';
import type { PrivateDirs } from '../../../domain/ports/private-dirs.port';
import type { ProxyStartFailures } from '../../../domain/ports/proxy-start-failures.port';
import type { UpstreamServerProbe } from '../../../domain/ports/upstream-server-probe.port';
import type { TelemetryControl } from '../../../domain/ports/telemetry-control.port';
import { AwfError } from '../../../domain/errors/awf-error';
import type { ProxySession, ProxyStartRequest } from './proxy-session';
import type { ToolRouterFactory } from '../../../domain/ports/tool-router-factory.port';
import type { ToolScopeResolver } from '../../../domain/ports/tool-scope-resolver.port';
import { PROXY_CONFIG_VERSION, type ProxyConfig } from '../../../domain/proxy/proxy-config';
import { resolveUpstreamServers, type UpstreamServerSpec } from '../../../domain/proxy/upstream-server';
import { formatIssue, type ValidationIssue } from '../../../domain/workflow/validation-issue.model';
import type { McpProxySettings } from '../../../domain/workflow/workflow.model';

export const PROXY_SERVER_NAME = 'awf-proxy';

/** What an agent runs to start a step's `mcp-serve`. */
export interface ProxyLaunch {
  command: string;
  args: string[];
}

export interface ToolProxyOptions {
  /** The command an agent runs to start the `mcp-serve` of the step whose config is `file`: the
   * same for every agent CLI, and what a user would type (`node …/main.js mcp-serve --config=…`). */
  launch: (file: string) => ProxyLaunch;
  /** Where each step's private directory (its config) is made. */
  dirs: PrivateDirs;
  /** Resolves the preflight's scope as `mcp-serve` will. */
  scopes: ToolScopeResolver;
  /** Gives the step's `mcp-serve` the run's exporter settings. */
  telemetry?: Pick<TelemetryControl, 'proxyTelemetry'>;
  /** `policy:` of `.awf/config.yaml`: the first layer of every step's policy. */
  policyDefaults?: PolicySpec;
  /** Where a step with `approve` rules gets its private approval socket. */
  approvals?: ApprovalChannels;
  /** The project dir of the run (`.awf/config.yaml`): `mcp-serve` loads extensions and plugins from it. */
  projectDir?: string;
  /** Checks a step's upstream servers without starting them (they start once, in mcp-serve). */
  upstreamProbe?: UpstreamServerProbe;
  /** Where the step's mcp-serve records that it could not open its tools. */
  startFailures?: ProxyStartFailures;
  /** The named servers of `.awf/config.yaml` (`mcp_servers`), read when a step names one. */
  mcpServers?: () => Readonly<Record<string, UpstreamServerSpec>>;
  /** Where the upstream servers' tool pins are (ADR 253): the run's data dir, read when a step starts. */
  pinsDir?: () => string;
}

const PROXY_DIR_PREFIX = 'awf-proxy-';

/**
 * The per-step proxy lifecycle of DESIGN.md. `start` writes the step's config (mode 0600,
 * atomically, in a private 0700 directory) and opens the step's tools once in-process, so a
 * USER.MCP_PROXY.* problem fails the step before any agent starts (upstream servers are only
 * checked: a failure to start one comes from mcp-serve, through `onStartFailure`). It starts no process:
 * the agent spawns `mcp-serve` itself. `close` removes every file `start` made.
 */
export class ToolProxyService {
  private readonly open = new Set<ProxySession>();
  private swept = false;

  constructor(
    private readonly tools: ToolRouterFactory,
    private readonly options: ToolProxyOptions,
  ) {}

  /** Whether the step's settings call for a proxy at all (AWF: enabled and something to serve). */
  static wanted(settings: McpProxySettings | undefined): settings is McpProxySettings {
    return (
      !!settings?.enable &&
      (settings.interceptBuiltins || settings.pluginTools.length > 0 || !!settings.servers?.length)
    );
  }

  async start(request: ProxyStartRequest): Promise<ProxySession> {
    const upstreams = this.upstreams(request);
    const config: ProxyConfig = {
      version: PROXY_CONFIG_VERSION,
      intercept_builtins: request.settings.interceptBuiltins,
      plugin_tools: request.settings.pluginTools.map((p) => ({ plugin: p.plugin, expose: [...p.expose] })),
      ...(upstreams.length ? { upstreams } : {}),
      root_dir: request.rootDir,
      ...(this.options.projectDir ? { project_dir: this.options.projectDir } : {}),
      workflow: request.workflow,
      step: request.step,
      run_id: request.runId,
      owner_pid: process.pid,
      ...(request.eventsPath ? { events_path: request.eventsPath } : {}),
      ...(this.options.telemetry ? { telemetry: this.options.telemetry.proxyTelemetry(request.traceparent) } : {}),
    };
    const layers = stepPolicyLayers(this.options.policyDefaults, request.settings.policy, request.step);
    if (layers.length) config.policy = { layers };
    // The data dir of pins (ADR 253) and of exact approvals (ADR 265), whatever the agent's environment.
    if ((upstreams.length || layers.some((l) => l.approve?.length)) && this.options.pinsDir)
      config.pins_dir = this.options.pinsDir();
    if (!this.swept) {
      // Once per process: what a `kill -9`'d run left (it could remove nothing) goes now.
      this.swept = true;
      this.options.dirs.sweep?.(PROXY_DIR_PREFIX);
    }
    const dir = this.options.dirs.make(PROXY_DIR_PREFIX);
    let channel: ApprovalChannel | undefined;
    const removeDir = (): void => {
      channel?.close();
      dir.remove();
    };
    try {
      if (layers.some((l) => l.approve?.length) && this.options.approvals) {
        config.approval_socket = join(dir.path, 'approval.sock');
        channel = await this.options.approvals.open(config.approval_socket);
      }
      const file = dir.write(
        `${safeName(request.step)}-${randomBytes(6).toString('hex')}.json`,
        JSON.stringify(config),
      );
      await this.preflight(config);
      let closed = false;
      const strict = strictRule(layers);
      const session: ProxySession = {
        ...(strict ? { strictRule: strict } : {}),
        injection: {
          serverName: PROXY_SERVER_NAME,
          ...this.options.launch(file),
          env: {},
          configPath: file,
          interceptBuiltins: config.intercept_builtins,
        },
        startFailure: () => this.options.startFailures?.read(file),
        onStartFailure: (listener) => this.options.startFailures?.watch(file, listener) ?? (() => undefined),
        close: () => {
          if (closed) return;
          closed = true;
          this.open.delete(session);
          removeDir();
        },
      };
      this.open.add(session);
      return session;
    } catch (err) {
      removeDir();
      throw err;
    }
  }

  /** Closes whatever is still open: the safety net for a run that ends abruptly. */
  closeAll(): void {
    for (const session of [...this.open]) session.close();
  }

  /** The step's servers made whole; their `${VAR}`s stay as written (mcp-serve expands them). */
  private upstreams(request: ProxyStartRequest): UpstreamServerSpec[] {
    const refs = request.settings.servers ?? [];
    if (refs.length === 0) return [];
    const issues: ValidationIssue[] = [];
    const servers = resolveUpstreamServers(
      refs,
      this.options.mcpServers?.() ?? {},
      `states.${request.step}.mcp_proxy.servers`,
      issues,
    );
    if (issues.length) {
      throw new AwfError(
        issues[0].code as AwfError['code'],
        issues.map(formatIssue).join('; '),
        { step: request.step },
        'See docs/upstream-servers.md.',
      );
    }
    return servers;
  }

  /**
   * Opens the step's tools once in-process, its upstream servers left out: they start once per
   * step, in mcp-serve, and are only checked here (ADR 181).
   */
  private async preflight(config: ProxyConfig): Promise<void> {
    for (const spec of config.upstreams ?? []) this.options.upstreamProbe?.check(spec);
    const dispatcher = await this.tools.open({ ...this.options.scopes.resolve(config), upstreams: undefined });
    await dispatcher.close();
  }
}

function safeName(step: string): string {
  return step.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'step';
}
