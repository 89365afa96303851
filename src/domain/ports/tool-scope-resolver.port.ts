import type { ProxyConfig } from '../proxy/proxy-config';
import type { ToolScope } from './tool-scope';

/**
 * Turns a step's proxy config into the scope every tool provider sees. The sandbox root is
 * resolved through symlinks once, here, so the sandbox compares real paths; a root that cannot
 * be resolved rejects with `USER.MCP_PROXY.INVALID_CONFIG`: serving without a sandbox is never
 * an option. Without a traceparent in the config, the one the process inherited (TRACEPARENT)
 * parents the tool-call spans.
 */
export interface ToolScopeResolver {
  resolve(config: ProxyConfig): ToolScope;
}

export const TOOL_SCOPE_RESOLVER = Symbol.for('awf.ToolScopeResolver');
