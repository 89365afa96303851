import type { Readable, Writable } from 'node:stream';
import { ToolRouterService } from '../application/tool-router.service';
import { buildToolScope } from '../infrastructure/config/tool-scope.resolver';
import type { ToolCallInterceptor } from '../domain/ports/tool-call-interceptor.port';
import type { ToolProvider } from '../domain/ports/tool-provider.port';
import type { ProxyConfig } from '../domain/proxy/proxy-config';
import { McpStdioEdge } from '../infrastructure/mcp-edge/mcp-stdio.edge';

export interface ServeToolsOptions {
  /** Sandbox root handed to providers (default: the working directory). */
  rootDir?: string;
  interceptors?: ToolCallInterceptor[];
  name?: string;
  stdin?: Readable;
  stdout?: Writable;
}

/**
 * Serves the given providers over MCP stdio until stdin closes: the proxy without Nest,
 * for programs that embed awf. Resolves after everything is closed.
 */
export async function serveTools(providers: ToolProvider[], options: ServeToolsOptions = {}): Promise<void> {
  const config: ProxyConfig = { version: 1, intercept_builtins: true, plugin_tools: [], root_dir: options.rootDir };
  const router = await ToolRouterService.open(providers, buildToolScope(config), options.interceptors ?? []);
  const edge = new McpStdioEdge({ name: options.name ?? 'awf-embedded', stdin: options.stdin, stdout: options.stdout });
  const server = edge.open(router);
  const stop = (): void => void server.stop();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await server.serve();
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await router.close();
  }
}
