/**
 * The package's public surface: the ports an extension implements, the router, and
 * `serveTools()` to embed the proxy in any Node program without Nest.
 */
export { AwfError, isAwfError } from './domain/errors/awf-error';
export { ErrorCodes, exitCodeFor, type ErrorCode, type ErrorCategory } from './domain/errors/error-codes';
export { TOOL_NAME_PATTERN, type ToolDefinition, type ToolInputSchema } from './domain/model/tool-definition';
export { errorResult, textResult, type TextContent, type ToolResult } from './domain/model/tool-result';
export type { ToolProvider } from './domain/ports/tool-provider.port';
export type { ToolCall, ToolCallInterceptor } from './domain/ports/tool-call-interceptor.port';
export type { ToolCallContext, ToolScope } from './domain/ports/tool-scope';
export type { ToolRouter } from './domain/ports/tool-router.port';
export type {
  AgentProvider,
  AgentRunRequest,
  AgentRunResult,
  ProxyInjection,
} from './domain/ports/agent-provider.port';
export type { AppLogger } from './domain/ports/app-logger.port';
export { InterceptsToolCalls, ProvidesAgent, ProvidesTools } from './domain/ports/markers';
export { APP_LOGGER, SECRET_MASKER } from './domain/ports/tokens';
export { DEFAULT_LIMITS, type ProxyConfig, type ProxyLimits } from './domain/proxy/proxy-config';
export { ToolRouterService } from './application/tool-router.service';
export { serveTools, type ServeToolsOptions } from './embed/serve-tools';
