import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import { CATALOG_METHODS, type CatalogOffer, type McpCatalog, offerFor } from '../../domain/ports/mcp-catalog.port';

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
 * client also makes it tell that client of the resource's updates, until it unsubscribes or closes.
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
  for (const method of CATALOG_METHODS) {
    if (!catalog.offer[offerFor(method)]) continue;
    server.setRequestHandler(method, async (request, ctx) => {
      const params = (request.params ?? {}) as Record<string, unknown>;
      const uri = String(params.uri);
      if (method === 'resources/subscribe') {
        subscribed.add(uri);
        stop ??= listen();
      }
      if (method === 'resources/unsubscribe') subscribed.delete(uri);
      try {
        return (await catalog.request(method, params, ctx.mcpReq.signal)) as never;
      } catch (err) {
        const { code, message, data } = err as { code?: unknown; message: string; data?: unknown };
        throw typeof code === 'number' ? new ProtocolError(code, message, data) : err;
      }
    });
  }
  if (!catalog.offer.subscribe) return;
  const closed = server.onclose;
  server.onclose = () => {
    stop?.();
    closed?.();
  };
}
