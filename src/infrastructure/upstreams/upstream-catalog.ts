import { Inject, Injectable, Optional } from '@nestjs/common';
import type { AuditTrail } from '../../domain/ports/audit-trail.port';
import { AUDIT_TRAIL } from '../../domain/ports/audit-trail.port';
import {
  type CatalogMethod,
  type CatalogOffer,
  type McpCatalog,
  type McpCatalogFactory,
  offerFor,
} from '../../domain/ports/mcp-catalog.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import type { ToolScope } from '../../domain/ports/tool-scope';
import { TRACER, type Tracer } from '../../domain/ports/tracer.port';
import { upstreamPrefix } from '../../domain/proxy/upstream-server';
import type { UpstreamConnection } from './upstream-connection';
import { UpstreamHost } from './upstream-host.service';
import { mcpAuthDir } from './oauth/oauth-credentials.store';
import { maskedJson } from '../../domain/model/masked-json';

/** The key under which each listing method's result holds its items. */
const LISTED = {
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};
/** Pages read of one server when several are merged into one listing. */
const MAX_PAGES = 50;

/** The JSON-RPC error of a request no server of the scope can answer. */
export class CatalogRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The prompts, resources and completions of a scope's upstream servers (McpCatalog): one server's
 * listing is passed on page by page as it is; several are merged (every page read). Prompt names
 * get the server's prefix, as its tools do; resource URIs stay as they are. Each request is one
 * audit line in the scope's events file (`tool` the method, `source` `mcp:<server>`) and one span.
 */
@Injectable()
export class UpstreamCatalogs implements McpCatalogFactory {
  constructor(
    private readonly host: UpstreamHost,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
    @Optional() @Inject(TRACER) private readonly tracer?: Tracer,
    @Optional() @Inject(AUDIT_TRAIL) private readonly audit?: AuditTrail,
  ) {}

  async open(scope: ToolScope): Promise<McpCatalog> {
    const specs = scope.upstreams ?? [];
    const servers = await Promise.all(specs.map((s) => this.host.acquire(s, mcpAuthDir(scope.pinsDir))));
    const offer: CatalogOffer = { prompts: false, resources: false, subscribe: false, completions: false };
    for (const s of servers) for (const k of Object.keys(offer) as Array<keyof CatalogOffer>) offer[k] ||= s.offers[k];
    const owners = new Map<string, UpstreamConnection>();
    const offering = (method: CatalogMethod) => servers.filter((s) => s.offers[offerFor(method)]);
    // Sessions subscribed to each URI: the servers hear the first subscribe and the last unsubscribe.
    const sessions = new Map<string, number>();
    const request = async (method: CatalogMethod, params: Record<string, unknown>, signal?: AbortSignal) => {
      if (method === 'resources/subscribe' || method === 'resources/unsubscribe') {
        const uri = String(params.uri);
        const before = sessions.get(uri) ?? 0;
        const after = Math.max(0, before + (method === 'resources/subscribe' ? 1 : -1));
        if (after) sessions.set(uri, after);
        else sessions.delete(uri);
        if ((method === 'resources/subscribe' ? before : after) > 0) return {};
        return forward(method, params, signal).catch((err: unknown) => {
          if (method === 'resources/subscribe') sessions.delete(uri); // not subscribed after all
          throw err;
        });
      }
      return forward(method, params, signal);
    };
    const forward = async (method: CatalogMethod, params: Record<string, unknown>, signal?: AbortSignal) => {
      const candidates = offering(method);
      if (!candidates.length) throw new CatalogRefusal(-32601, `Method not found: ${method}`);
      if (method in LISTED)
        return this.listed(scope, method as keyof typeof LISTED, params, candidates, owners, signal);
      const key = keyOf(method, params);
      const owner = owners.get(key);
      const order = owner ? [owner] : candidates;
      let failure: unknown;
      for (const server of order) {
        try {
          return await this.traced(scope, server, method, unprefixed(server, method, params), signal);
        } catch (err) {
          failure = err;
        }
      }
      throw failure;
    };
    return {
      offer,
      request,
      onResourceUpdated: (listener) => {
        for (const s of servers) s.resourceUpdates.add(listener);
        return () => servers.forEach((s) => s.resourceUpdates.delete(listener));
      },
    };
  }

  /** A listing: one server's page as it is, or every page of several merged (no cursor). */
  private async listed(
    scope: ToolScope,
    method: keyof typeof LISTED,
    params: Record<string, unknown>,
    servers: UpstreamConnection[],
    owners: Map<string, UpstreamConnection>,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const field = LISTED[method];
    const note = (server: UpstreamConnection, items: unknown) =>
      ((items ?? []) as Array<Record<string, unknown>>).map((item) => {
        const shown =
          method === 'prompts/list' ? { ...item, name: upstreamPrefix(server.spec) + String(item.name) } : item;
        owners.set(String(shown.name ?? shown.uri ?? shown.uriTemplate), server);
        return shown;
      });
    if (servers.length === 1) {
      const page = await this.traced(scope, servers[0], method, params, signal);
      return { ...page, [field]: note(servers[0], page[field]) };
    }
    const all: unknown[] = [];
    for (const server of servers) {
      let cursor: unknown;
      for (let i = 0; i < MAX_PAGES && (i === 0 || cursor); i++) {
        const page = await this.traced(scope, server, method, cursor ? { cursor } : {}, signal);
        all.push(...note(server, page[field]));
        cursor = page.nextCursor;
      }
    }
    return { [field]: all };
  }

  private async traced(
    scope: ToolScope,
    server: UpstreamConnection,
    method: CatalogMethod,
    params: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const start = new Date();
    const span = this.tracer?.startSpan(`mcp ${method}`, {
      parent: scope.traceparent,
      attributes: { 'mcp.method.name': method, 'awf.upstream': server.spec.name },
    });
    let error: string | undefined;
    try {
      return maskedJson(await server.request(method, params, signal), this.masker);
    } catch (err) {
      error = this.masker.mask((err as Error).message);
      span?.fail(error);
      throw err;
    } finally {
      span?.end();
      if (scope.eventsPath)
        this.audit?.append(scope.eventsPath, {
          run_id: scope.runId || undefined,
          step: scope.step || undefined,
          tool: method,
          source: `mcp:${server.spec.name}`,
          start: start.toISOString(),
          duration_ms: Date.now() - start.getTime(),
          status: error ? 'error' : 'ok',
          error,
          args_shape: shapeOf(params, this.masker),
        });
    }
  }
}

/** What names the prompt or resource a request is about (the owner map's key). */
function keyOf(method: CatalogMethod, params: Record<string, unknown>): string {
  const ref = params.ref as { name?: string; uri?: string } | undefined;
  if (method === 'completion/complete') return String(ref?.name ?? ref?.uri);
  return String(method === 'prompts/get' ? params.name : params.uri);
}

/** The request as the server knows it: a prompt's name without the prefix awf gave it. */
function unprefixed(server: UpstreamConnection, method: CatalogMethod, params: Record<string, unknown>) {
  const prefix = upstreamPrefix(server.spec);
  const strip = (name: unknown) =>
    typeof name === 'string' && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  if (method === 'prompts/get') return { ...params, name: strip(params.name) };
  const ref = params.ref as { type?: string; name?: string } | undefined;
  if (method === 'completion/complete' && ref?.type === 'ref/prompt')
    return { ...params, ref: { ...ref, name: strip(ref.name) } };
  return params;
}

/** The audit line's `args_shape`: which prompt or resource, masked; the rest by size. */
function shapeOf(params: Record<string, unknown>, masker: SecretMasker): Record<string, string | number> {
  const shape: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params))
    shape[k] = k === 'name' || k === 'uri' ? masker.mask(String(v)) : JSON.stringify(v ?? null).length;
  return shape;
}
