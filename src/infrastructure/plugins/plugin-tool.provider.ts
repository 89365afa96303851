import { Inject, Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ToolDefinition } from '../../domain/model/tool-definition';
import { errorResult, type ToolResult } from '../../domain/model/tool-result';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { ProvidesTools } from '../../domain/ports/markers';
import { APP_LOGGER } from '../../domain/ports/tokens';
import type { ToolCallContext, ToolScope } from '../../domain/ports/tool-scope';
import type { ToolProvider } from '../../domain/ports/tool-provider.port';
import { changedReason } from '../../domain/policy/tool-pin';
import { PluginDiscovery } from './plugin-discovery.service';
import { PluginHost, type RunningPlugin } from './plugin-host.service';
import type { DiscoveredPlugin } from './plugin-manifest';
import { checkPluginPins, pluginPinKey } from './plugin-pins';
import { mapExecuteResult, mapOperationTool } from './plugin-schema.mapper';
import { PluginStateStore } from './plugin-state.store';

interface Route {
  plugin: DiscoveredPlugin;
  operation: string;
}

const EXIT_WAIT_MS = 300;

/**
 * The operations a step exposes (`plugin_tools`) as `<plugin>_<operation>` tools. Only
 * the plugins the scope names are started, all at once; an unknown plugin or operation
 * fails the listing with a USER error, so `mcp-serve` exits before serving anything.
 * When a scope's dispatcher closes, the plugins no other open scope uses are stopped. Each
 * plugin's operations are checked against the pin of its version (ADR 305): one that differs
 * is marked `changed`, so the policy hides it and refuses its calls.
 */
@ProvidesTools()
@Injectable()
export class PluginToolProvider implements ToolProvider {
  private readonly routes = new Map<string, Route>();
  /** The plugins each open scope uses; registered before they start, so a close cannot race a start. */
  private readonly users = new Map<ToolScope, Set<string>>();

  constructor(
    private readonly discovery: PluginDiscovery,
    private readonly state: PluginStateStore,
    private readonly host: PluginHost,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  async listTools(scope: ToolScope): Promise<ToolDefinition[]> {
    if (scope.pluginTools.length === 0) return [];
    const installed = new Map(this.discovery.discover(scope.projectDir).map((p) => [p.name, p]));
    const seen = new Set<string>();
    const wanted = scope.pluginTools.map((spec, index) => {
      if (seen.has(spec.plugin)) {
        throw new AwfError(
          ErrorCodes.MCP_PROXY_NAME_COLLISION,
          `duplicate plugin entry: ${spec.plugin}`,
          { plugin: spec.plugin, path: `plugin_tools[${index}]` },
          'List each plugin once, with all the operations it exposes.',
        );
      }
      seen.add(spec.plugin);
      return { spec, plugin: this.installedPlugin(installed, spec.plugin, index) };
    });
    this.users.set(scope, new Set(wanted.map((w) => w.plugin.name)));
    try {
      return await this.startAndMap(wanted, scope.pinsDir);
    } catch (err) {
      await this.close(scope);
      throw err;
    }
  }

  /** Stops the plugins `scope` started that no other open scope uses. */
  async close(scope: ToolScope): Promise<void> {
    const mine = this.users.get(scope);
    if (!mine) return;
    this.users.delete(scope);
    const stillUsed = new Set([...this.users.values()].flatMap((names) => [...names]));
    await Promise.all([...mine].filter((name) => !stillUsed.has(name)).map((name) => this.host.stop(name)));
  }

  private async startAndMap(
    wanted: Array<{ spec: ToolScope['pluginTools'][number]; plugin: DiscoveredPlugin }>,
    pinsDir: string | undefined,
  ): Promise<ToolDefinition[]> {
    const started = await Promise.allSettled(wanted.map((w) => this.host.acquire(w.plugin)));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const tools: ToolDefinition[] = [];
    wanted.forEach(({ spec, plugin }, index) => {
      const running = (started[index] as PromiseFulfilledResult<RunningPlugin>).value;
      const changes = checkPluginPins(plugin, running.operations, pinsDir);
      for (const opName of [...new Set(spec.expose)]) {
        const op = running.operations.find((o) => o.name === opName);
        if (!op) {
          throw new AwfError(
            ErrorCodes.MCP_PROXY_UNKNOWN_OPERATION,
            `operation "${opName}" not found in plugin "${plugin.name}"`,
            { plugin: plugin.name, operation: opName, available: running.operations.map((o) => o.name) },
            `Plugin ${plugin.name} offers: ${running.operations.map((o) => o.name).join(', ') || '(no operations)'}.`,
          );
        }
        const change = changes.get(op.name);
        const tool = mapOperationTool(plugin.name, op);
        if (change) tool.changed = changedReason(change, pluginPinKey(plugin.name), plugin.version);
        this.routes.set(tool.name, { plugin, operation: op.name });
        tools.push(tool);
      }
    });
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const route = this.routes.get(name);
    if (!route) return errorResult(`${name}: not a plugin tool of this proxy`);
    let running: RunningPlugin;
    try {
      running = await this.host.acquire(route.plugin);
    } catch (err) {
      return errorResult(err instanceof Error ? err.message : String(err));
    }
    try {
      const res = await running.connection.execute(route.operation, args, ctx.signal);
      return mapExecuteResult(route.plugin.name, route.operation, res);
    } catch (err) {
      return this.failedCall(running, name, err, ctx.signal);
    }
  }

  private installedPlugin(installed: Map<string, DiscoveredPlugin>, name: string, index: number): DiscoveredPlugin {
    const plugin = installed.get(name);
    const path = `plugin_tools[${index}].plugin`;
    if (!plugin) {
      throw new AwfError(
        ErrorCodes.MCP_PROXY_UNKNOWN_PLUGIN,
        `plugin "${name}" is not installed`,
        { plugin: name, path },
        `Installed plugins: ${[...installed.keys()].join(', ') || '(none)'}. Plugins are looked up in AWF_PLUGINS_PATH, else ./.awf/plugins and $XDG_DATA_HOME/awf/plugins.`,
      );
    }
    if (!this.state.isEnabled(name)) {
      throw new AwfError(
        ErrorCodes.MCP_PROXY_UNKNOWN_PLUGIN,
        `plugin "${name}" is disabled`,
        { plugin: name, path },
        `Run \`awf plugin enable ${name}\`.`,
      );
    }
    return plugin;
  }

  /** A crash names the plugin and its last stderr lines; the next call restarts it. */
  private async failedCall(
    running: RunningPlugin,
    tool: string,
    err: unknown,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    if (signal.aborted) return errorResult(`${tool} was cancelled`);
    await Promise.race([running.process.exited, new Promise((r) => setTimeout(r, EXIT_WAIT_MS))]);
    if (!running.process.alive) {
      this.logger.warn({ plugin: running.name, tool }, `plugin ${running.process.describeExit()} during a call`);
      return errorResult(
        `plugin ${running.name} crashed during ${tool} (it ${running.process.describeExit()})` +
          running.process.stderrNote('; it wrote nothing to stderr') +
          '\nawf starts it again on the next call.',
      );
    }
    const details = (err as { details?: string }).details ?? (err instanceof Error ? err.message : String(err));
    return errorResult(`plugin ${running.name}: ${tool} failed: ${details}`);
  }
}
