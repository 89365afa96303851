import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import { AWF_VERSION } from '../../version';
import { MCP_SERVER_NAME, newInFlight, toolServer } from './tool-server';

/** MCP over HTTP as `awf serve` mounts it at `/mcp`: one request in, one answer (or SSE stream) out. */
export interface McpHttpEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Ends the exchanges in flight. */
  close(): Promise<void>;
}

/** The largest request body read, as the rest of the API's. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The proxy's tools over Streamable HTTP, through the SDK's HTTP entry: 2026-07-28 requests
 * (stateless, the protocol version in each request's `_meta`) and, for 2025-era clients down to
 * 2024-11-05, the SDK's stateless fallback (each request answered by a fresh server over the same
 * router; no session to keep, so GET and DELETE are 405). The same server code as the stdio edge
 * (tool-server.ts): what a call meets — policy, audit, spans — is the router's.
 */
export function openMcpHttp(router: ToolRouter, onError: (err: Error) => void): McpHttpEndpoint {
  const inFlight = newInFlight();
  const info = { name: MCP_SERVER_NAME, version: AWF_VERSION };
  const handler = createMcpHandler(() => toolServer(info, router, inFlight), {
    legacy: 'stateless',
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: onError,
  });
  const node = toNodeHandler(handler, { maxRequestBodySize: MAX_BODY_BYTES, onerror: onError });
  return {
    handle: (req, res) => node(req, res),
    close: async () => {
      await handler.close();
    },
  };
}
