import {
  type CallToolResult,
  type ElicitRequestFormParams,
  type LoggingLevel,
  ProtocolError,
  ProtocolErrorCode,
  Server,
} from '@modelcontextprotocol/server';
import type { McpCatalog } from '../../domain/ports/mcp-catalog.port';
import { isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ToolDefinition } from '../../domain/model/tool-definition';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import type { ToolLogMessage } from '../../domain/ports/tool-scope';
import { catalogCapabilities, serveCatalog } from './catalog-handlers';

/** The name awf's MCP server gives itself (`initialize`, `server/discover`), over stdio and HTTP alike. */
export const MCP_SERVER_NAME = 'awf-mcp-server';

/**
 * Tool calls run at once; later ones wait in arrival order. A client that sends 1000 calls at once
 * would otherwise hold 1000 reads and buffers together (peak RSS: the protocol-fuzz test's bound).
 */
const MAX_CONCURRENT_CALLS = 64;

/** The calls a server runs now and those waiting for a slot (one per stdio session or HTTP edge). */
export interface InFlight {
  calls: Set<Promise<unknown>>;
  running: number;
  waiting: Array<() => void>;
}

/**
 * The SDK's low-level server answering tools/list and tools/call from the router. An upstream
 * server's log messages reach the client at the level it set; its elicitation requests only where
 * `askClient` (a session that can carry a request back: stdio, not stateless HTTP) and the client
 * declared elicitation. With a `catalog`, the upstream servers' prompts, resources and completions too.
 */
export function toolServer(
  info: { name: string; version: string },
  router: ToolRouter,
  inFlight: InFlight,
  askClient = false,
  catalog?: McpCatalog,
) {
  const capabilities = { tools: { listChanged: true }, logging: {}, ...catalogCapabilities(catalog?.offer) };
  const server = new Server(info, { capabilities });
  if (catalog) serveCatalog(server, catalog);
  server.setRequestHandler('tools/list', () => ({ tools: router.list().map(listed) }));
  server.setRequestHandler('tools/call', (request, ctx) => {
    const { name, arguments: args = {}, _meta } = request.params;
    const token = _meta?.progressToken;
    const onProgress =
      token === undefined
        ? undefined
        : (p: { progress: number; total?: number; message?: string }) =>
            void ctx.mcpReq
              .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
              .catch(() => undefined);
    const onLog = (m: ToolLogMessage) =>
      void ctx.mcpReq.log(m.level as LoggingLevel, m.data, m.logger).catch(() => undefined);
    const elicit =
      askClient && server.getClientCapabilities()?.elicitation
        ? (params: Record<string, unknown>) => ctx.mcpReq.elicitInput(params as ElicitRequestFormParams)
        : undefined;
    const call = slot(inFlight)
      .then(() => router.call(name, args, { signal: ctx.mcpReq.signal, onProgress, onLog, elicit }))
      .catch((err: unknown) => {
        if (isAwfError(err) && err.code === ErrorCodes.TOOL_UNKNOWN)
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
        throw err;
      });
    inFlight.calls.add(call);
    void call
      .catch(() => undefined)
      .finally(() => {
        inFlight.calls.delete(call);
        const next = inFlight.waiting.shift();
        if (next) next();
        else inFlight.running--;
      });
    return call as Promise<CallToolResult>;
  });
  return server;
}

/** Resolves when the call may run: a finished call hands its slot to the first waiting one. */
function slot(inFlight: InFlight): Promise<void> {
  if (inFlight.running < MAX_CONCURRENT_CALLS) {
    inFlight.running++;
    return Promise.resolve();
  }
  return new Promise((resolve) => inFlight.waiting.push(resolve));
}

/** A tool as tools/list gives it: MCP's fields, the optional ones only when the source has them. */
function listed(t: ToolDefinition) {
  return {
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema as { type: 'object' },
    ...(t.title !== undefined ? { title: t.title } : {}),
    ...(t.outputSchema !== undefined ? { outputSchema: t.outputSchema as { type: 'object' } } : {}),
    ...(t.annotations !== undefined ? { annotations: t.annotations } : {}),
  };
}

export function newInFlight(): InFlight {
  return { calls: new Set(), running: 0, waiting: [] };
}
