import type { ToolScope } from './tool-scope';
import type { ToolDispatcher } from './tool-dispatcher.port';

/**
 * Opens the tools of one scope from every registered ToolProvider, wrapped in every
 * registered interceptor. Rejects with `USER.MCP_PROXY.*` when the tools cannot be served
 * as asked (name collision, invalid name, unknown plugin). The caller owns the returned
 * dispatcher and must `close()` it.
 */
export interface ToolDispatcherFactory {
  open(scope: ToolScope): Promise<ToolDispatcher>;
}
