import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { McpCatalog } from '../../domain/ports/mcp-catalog.port';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import { AWF_VERSION } from '../../version';
import { DEFAULT_SESSION_LIMITS, McpSessions, type SessionLimits } from './mcp-sessions';
import { MCP_SERVER_NAME, newInFlight, toolServer } from './tool-server';

/** MCP over HTTP as `awf serve` mounts it at `/mcp`. */
export interface McpHttpEndpoint {
  /** `caller`: who sent it (the token's name, or `local`); a session answers only the caller that opened it. */
  handle(req: IncomingMessage, res: ServerResponse, caller?: string): Promise<void>;
  /** 2025-era sessions open now. */
  readonly sessions: number;
  /** Ends the exchanges in flight and every session. */
  close(): Promise<void>;
}

/** The largest request body read, as the rest of the API's. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The proxy's tools over Streamable HTTP, through the SDK's transports (ADR 300): a 2026-07-28
 * request (stateless, its protocol version in its `_meta`) goes to the SDK's `createMcpHandler`,
 * one server per request; a 2025-era one (2024-11-05 to 2025-11-25) to its session (mcp-sessions.ts),
 * opened by `initialize` and reused until DELETE or idle expiry. Both build the same server
 * (tool-server.ts) over the same router: what a call meets — policy, audit, spans — is the router's;
 * with a `catalog`, the upstream servers' prompts, resources and completions besides.
 */
export function openMcpHttp(
  router: ToolRouter,
  onError: (err: Error) => void,
  options: { limits?: SessionLimits; catalog?: McpCatalog } = {},
): McpHttpEndpoint {
  const { limits = DEFAULT_SESSION_LIMITS, catalog } = options;
  const inFlight = newInFlight();
  const info = { name: MCP_SERVER_NAME, version: AWF_VERSION };
  const modern = createMcpHandler(() => toolServer(info, router, inFlight, false, catalog), {
    legacy: 'reject',
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: onError,
  });
  // A session can carry an upstream server's request (elicitation) back to its client.
  const sessions = new McpSessions(() => toolServer(info, router, inFlight, true, catalog), {
    limits,
    maxBodyBytes: MAX_BODY_BYTES,
    onError,
  });
  // A change of the tools reaches each session (on its GET stream) and 2026-07-28 listeners.
  const unwatch = router.onToolsChanged?.(() => {
    sessions.tellAll((server) => server.sendToolListChanged());
    modern.notify.toolsChanged();
  });
  const node = toNodeHandler(
    {
      // The caller travels as the SDK's pass-through `authInfo` (the adapter reads it from `req.auth`).
      fetch: async (request, options) =>
        (await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES }))
          ? sessions.fetch(request, options?.authInfo?.clientId ?? 'local')
          : modern.fetch(request),
    },
    { maxRequestBodySize: MAX_BODY_BYTES, onerror: onError },
  );
  return {
    handle: (req, res, caller = 'local') =>
      node(Object.assign(req, { auth: { token: '', clientId: caller, scopes: [] } }), res),
    get sessions() {
      return sessions.size;
    },
    close: async () => {
      unwatch?.();
      await Promise.all([modern.close(), sessions.close()]);
    },
  };
}
