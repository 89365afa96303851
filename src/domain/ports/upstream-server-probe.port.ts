import type { UpstreamServerSpec } from '../proxy/upstream-server';

/**
 * What `awf run` checks of a step's upstream MCP servers before the agent starts, without
 * starting them: they start once per step, in its mcp-serve (ADR 181). `check` throws the
 * coded error a start would give for what can be known without one: an unset `${VAR}`
 * (`USER.MCP_PROXY.UNSET_VARIABLE`), a command not found or not executable, a `cwd` that is
 * not a directory (`EXECUTION.UPSTREAM.START_FAILED`). A remote server is not contacted.
 */
export interface UpstreamServerProbe {
  check(spec: UpstreamServerSpec): void;
}
