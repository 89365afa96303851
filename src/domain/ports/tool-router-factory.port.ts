import type { ToolScope } from './tool-scope';
import type { ToolRouter } from './tool-router.port';

/**
 * Opens the tools of one scope from every registered ToolProvider, wrapped in every
 * registered interceptor. Rejects with `USER.MCP_PROXY.*` when the tools cannot be served
 * as asked (name collision, invalid name, unknown plugin). The caller owns the returned
 * router and must `close()` it.
 */
export interface ToolRouterFactory {
  open(scope: ToolScope): Promise<ToolRouter>;
}
