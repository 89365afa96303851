import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';

/** The parts of the MCP SDK an upstream connection uses. */
export interface UpstreamSdk {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  SSEClientTransport: typeof SSEClientTransport;
  serializeMessage: typeof serializeMessage;
  getDefaultEnvironment: typeof getDefaultEnvironment;
  ListToolsResultSchema: typeof ListToolsResultSchema;
}

let loaded: UpstreamSdk | undefined;

/**
 * The SDK, required on first use: a step without upstream servers never loads it (nor zod),
 * and the startup snapshot takes it from a run-time bundle (scripts/build-bundle.mjs).
 */
export function upstreamSdk(): UpstreamSdk {
  loaded ??= {
    Client: (
      require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js')
    ).Client,
    StreamableHTTPClientTransport: (
      require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js')
    ).StreamableHTTPClientTransport,
    SSEClientTransport: (
      require('@modelcontextprotocol/sdk/client/sse.js') as typeof import('@modelcontextprotocol/sdk/client/sse.js')
    ).SSEClientTransport,
    ...(require('@modelcontextprotocol/sdk/shared/stdio.js') as Pick<UpstreamSdk, 'serializeMessage'>),
    getDefaultEnvironment: (
      require('@modelcontextprotocol/sdk/client/stdio.js') as typeof import('@modelcontextprotocol/sdk/client/stdio.js')
    ).getDefaultEnvironment,
    ListToolsResultSchema: (
      require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js')
    ).ListToolsResultSchema,
  };
  return loaded;
}
