import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import {
  CATALOG_METHODS,
  type CatalogMethod,
  type CatalogOffer,
  type McpCatalog,
  offerFor,
} from '../../domain/ports/mcp-catalog.port';

/** The capabilities a server declares for what the catalog offers (nothing it does not). */
export function catalogCapabilities(offer: CatalogOffer | undefined) {
  return {
    ...(offer?.prompts ? { prompts: {} } : {}),
    ...(offer?.resources ? { resources: offer.subscribe ? { subscribe: true } : {} } : {}),
    ...(offer?.completions ? { completions: {} } : {}),
  };
}

/**
 * Answers the catalog's methods (prompts, resources, completions) from the upstream servers, the
 * error of a server that refuses passed on with its code. A `resources/subscribe` of this server's
 * client also makes it tell that client of the resource's updates, until it unsubscribes or
 * closes; the catalog counts the sessions on each URI, so one leaving stops no other's updates.
 */
export function serveCatalog(server: Server, catalog: McpCatalog): void {
  const subscribed = new Set<string>();
  // Listening starts with the first subscription: a server per 2026-07-28 request mostly has none.
  let stop: (() => void) | undefined;
  const listen = () =>
    catalog.onResourceUpdated((uri) => {
      if (subscribed.has(uri))
        void server.notification({ method: 'notifications/resources/updated', params: { uri } }).catch(() => undefined);
    });
  const request = async (method: CatalogMethod, params: Record<string, unknown>, signal?: AbortSignal) => {
    try {
      return (await catalog.request(method, params, signal)) as never;
    } catch (err) {
      const { code, message, data } = err as { code?: unknown; message: string; data?: unknown };
      throw typeof code === 'number' ? new ProtocolError(code, message, data) : err;
    }
  };
  for (const method of CATALOG_METHODS) {
    if (!catalog.offer[offerFor(method)]) continue;
    server.setRequestHandler(method, async (request_, ctx) => {
      const params = (request_.params ?? {}) as Record<string, unknown>;
      const uri = String(params.uri);
      // Once per session and URI: a repeated subscribe, or an unsubscribe of nothing, changes nothing.
      if (method === 'resources/subscribe') {
        if (subscribed.has(uri)) return {} as never;
        const result = await request(method, params, ctx.mcpReq.signal);
        subscribed.add(uri);
        stop ??= listen();
        return result;
      }
      if (method === 'resources/unsubscribe') {
        if (!subscribed.delete(uri)) return {} as never;
      }
      return request(method, params, ctx.mcpReq.signal);
    });
  }
  if (!catalog.offer.subscribe) return;
  const closed = server.onclose;
  server.onclose = () => {
    stop?.();
    for (const uri of subscribed) void catalog.request('resources/unsubscribe', { uri }).catch(() => undefined);
    subscribed.clear();
    closed?.();
  };
}
