import type { ToolScope } from './tool-scope';

/** The requests of MCP servers' prompts, resources and completions that awf passes on as they are. */
export const CATALOG_METHODS = [
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
] as const;
export type CatalogMethod = (typeof CATALOG_METHODS)[number];

/** What at least one of a scope's servers offers besides tools (their `initialize` capabilities). */
export interface CatalogOffer {
  prompts: boolean;
  resources: boolean;
  /** `resources/subscribe`: a server then says `notifications/resources/updated`. */
  subscribe: boolean;
  completions: boolean;
}

/** Which part of the offer a method needs: a server offers it only with that capability. */
export function offerFor(method: CatalogMethod): keyof CatalogOffer {
  if (method.startsWith('prompts/')) return 'prompts';
  if (method === 'completion/complete') return 'completions';
  return method.endsWith('subscribe') ? 'subscribe' : 'resources';
}

/**
 * The prompts, resources and completions of a scope's upstream MCP servers, as one server would
 * offer them: listings merged, a request routed to the server that listed its prompt or resource.
 * Each request is audited and traced as a tool call is. Implemented by the upstreams module.
 */
export interface McpCatalog {
  readonly offer: CatalogOffer;
  /** The server's result; rejects with the server's error (its code and message) when it refuses. */
  request(
    method: CatalogMethod,
    params: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** Calls `listener` with the URI of each `notifications/resources/updated`; returns what stops it. */
  onResourceUpdated(listener: (uri: string) => void): () => void;
}

export interface McpCatalogFactory {
  /** The catalog of `scope`'s servers, started as its router starts them (shared; the router stops them). */
  open(scope: ToolScope): Promise<McpCatalog>;
}

export const MCP_CATALOGS = Symbol.for('awf.McpCatalogs');
