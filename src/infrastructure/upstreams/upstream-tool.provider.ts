import { Inject, Injectable } from '@nestjs/common';
import { withStderrTail } from '../../domain/errors/stderr-tail';
import type { ToolDefinition, ToolInputSchema } from '../../domain/model/tool-definition';
import { errorResult, type ToolResult } from '../../domain/model/tool-result';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { changedReason, type ToolChange } from '../../domain/policy/tool-pin';
import { ProvidesTools } from '../../domain/ports/markers';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { APP_LOGGER, SECRET_MASKER } from '../../domain/ports/tokens';
import type { ToolProvider } from '../../domain/ports/tool-provider.port';
import type { ToolCallContext, ToolScope } from '../../domain/ports/tool-scope';
import {
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  upstreamPrefix,
  type UpstreamServerSpec,
} from '../../domain/proxy/upstream-server';
import { ToolPinStore } from '../core/tool-pin.store';
import type { UpstreamConnection } from './upstream-connection';
import { UpstreamHost } from './upstream-host.service';
import { mcpAuthDir } from './oauth/oauth-credentials.store';
import { maskedResult, UpstreamCallError, type UpstreamTool } from './upstream-result';
import { maskedJson } from '../../domain/model/masked-json';

interface Route {
  spec: UpstreamServerSpec;
  /** The tool's name on its own server. */
  tool: string;
}

/** How long a failed call waits for the server's exit to tell a crash from an error. */
const EXIT_WAIT_MS = 300;

/**
 * The tools of the MCP servers a scope names (`upstreams`), as `<prefix><tool>`: every server
 * connected at once, their tools listed, filtered by `expose`. Calls go through unchanged
 * (all content, structuredContent, isError), with the call's trace context in
 * `_meta.traceparent` and its progress passed back. A crash is an `isError` naming the server
 * and its last stderr lines; the next call starts it again (UpstreamHost's budget). Each listing
 * is checked against the server's pins (ADR 253): a tool that differs is marked `changed`, so
 * the policy hides it and refuses its calls.
 */
@ProvidesTools()
@Injectable()
export class UpstreamToolProvider implements ToolProvider {
  private readonly routes = new Map<ToolScope, Map<string, Route>>();
  private readonly unwatch = new Map<ToolScope, Array<() => void>>();

  constructor(
    private readonly host: UpstreamHost,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  /** Also the re-listing after a change: a failure then leaves the scope's servers running. */
  async listTools(scope: ToolScope): Promise<ToolDefinition[]> {
    const specs = scope.upstreams ?? [];
    if (specs.length === 0) return [];
    const relisting = this.routes.has(scope);
    if (!relisting) this.routes.set(scope, new Map());
    const authDir = mcpAuthDir(scope.pinsDir);
    const started = await Promise.allSettled(specs.map((spec) => this.host.acquire(spec, authDir)));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      if (!relisting) await this.close(scope);
      throw failed.reason;
    }
    const routes = new Map<string, Route>();
    const pins = new ToolPinStore(scope.pinsDir);
    const tools = specs.flatMap((spec, i) => {
      const listed = (started[i] as PromiseFulfilledResult<UpstreamConnection>).value.tools;
      return this.mapTools(spec, listed, pins.check(spec.name, listed), routes);
    });
    if (this.routes.has(scope)) this.routes.set(scope, routes); // not when the scope closed meanwhile
    return tools;
  }

  watchTools(scope: ToolScope, onChange: () => void): void {
    const unwatch = (scope.upstreams ?? []).map((spec) => this.host.watch(spec, onChange));
    this.unwatch.set(scope, [...(this.unwatch.get(scope) ?? []), ...unwatch]);
  }

  async callTool(name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const route = this.routes.get(ctx.scope)?.get(name);
    if (!route) return errorResult(`${name}: not a tool of this proxy's MCP servers`);
    let connection = this.host.live(route.spec);
    if (!connection) {
      try {
        connection = await this.host.acquire(route.spec, mcpAuthDir(ctx.scope.pinsDir));
      } catch (err) {
        return errorResult((err as Error).message);
      }
    }
    try {
      const result = await connection.call(route.tool, args, {
        signal: ctx.signal,
        traceparent: ctx.traceparent ?? ctx.scope.traceparent,
        onProgress: ctx.onProgress,
        // What the server says to the client besides its result is masked like the result.
        onLog: ctx.onLog && ((message) => ctx.onLog!(maskedJson(message, this.masker))),
        elicit: ctx.elicit && ((request) => ctx.elicit!(maskedJson(request, this.masker))),
      });
      return maskedResult(result, this.masker);
    } catch (err) {
      return this.failedCall(connection, name, err, ctx.signal);
    }
  }

  /** Stops the servers of `scope` that no other open scope uses. */
  async close(scope: ToolScope): Promise<void> {
    this.unwatch.get(scope)?.forEach((stop) => stop());
    this.unwatch.delete(scope);
    if (!this.routes.delete(scope)) return;
    const used = new Set([...this.routes.keys()].flatMap((s) => (s.upstreams ?? []).map(UpstreamHost.keyOf)));
    await Promise.all(
      (scope.upstreams ?? []).filter((spec) => !used.has(UpstreamHost.keyOf(spec))).map((spec) => this.host.stop(spec)),
    );
  }

  private mapTools(
    spec: UpstreamServerSpec,
    tools: readonly UpstreamTool[],
    changes: ReadonlyMap<string, ToolChange>,
    routes: Map<string, Route>,
  ): ToolDefinition[] {
    const exposed = spec.expose?.length
      ? (require('picomatch') as typeof import('picomatch'))(spec.expose)
      : () => true;
    const prefix = upstreamPrefix(spec);
    return tools
      .filter((t) => exposed(t.name))
      .map((t) => {
        routes.set(prefix + t.name, { spec, tool: t.name });
        const change = changes.get(t.name);
        return {
          name: prefix + t.name,
          description: t.description ?? '',
          inputSchema: t.inputSchema as ToolInputSchema,
          source: `mcp:${spec.name}`,
          ...(t.title !== undefined ? { title: t.title } : {}),
          ...(t.outputSchema !== undefined ? { outputSchema: t.outputSchema as ToolInputSchema } : {}),
          ...(t.annotations !== undefined ? { annotations: t.annotations as Record<string, unknown> } : {}),
          ...(change ? { changed: changedReason(change, spec.name) } : {}),
        };
      });
  }

  private async failedCall(
    connection: UpstreamConnection,
    tool: string,
    err: unknown,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const server = connection.spec.name;
    if (signal.aborted) return errorResult(`${tool} was cancelled`);
    if (err instanceof UpstreamCallError && err.kind === 'timeout') {
      const ms = connection.spec.timeout_ms ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
      return errorResult(
        `MCP server "${server}" did not answer ${tool} within ${ms} ms (its timeout); the call was cancelled`,
      );
    }
    await connection.exited(EXIT_WAIT_MS);
    if (!connection.alive) {
      this.logger.warn(
        { upstream: server, tool, stderr: connection.stderrTail().slice(-5) },
        `MCP server ${connection.describeExit()} during a call`,
      );
      const message = withStderrTail(
        `MCP server "${server}" crashed during ${tool} (it ${connection.describeExit()})`,
        connection.stderrTail(),
      );
      return errorResult(this.masker.mask(`${message}\nawf starts it again on the next call.`));
    }
    return errorResult(this.masker.mask(`MCP server "${server}": ${tool} failed: ${(err as Error).message}`));
  }
}
