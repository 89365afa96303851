/**
 * The closed error taxonomy: `CATEGORY.SUB.SPECIFIC`. The category alone decides the exit
 * code (USER 1, WORKFLOW 2, EXECUTION 3, SYSTEM 4); nothing else may map errors to exits.
 */
export type ErrorCategory = 'USER' | 'WORKFLOW' | 'EXECUTION' | 'SYSTEM';

export const EXIT_CODES: Readonly<Record<ErrorCategory, number>> = {
  USER: 1,
  WORKFLOW: 2,
  EXECUTION: 3,
  SYSTEM: 4,
};

/** Every code awf emits. Adding a code is adding a line here, so the set stays reviewable. */
export const ErrorCodes = {
  CLI_INVALID_ARGS: 'USER.CLI.INVALID_ARGS',
  INPUT_MISSING_FILE: 'USER.INPUT.MISSING_FILE',
  INPUT_INVALID: 'USER.INPUT.VALIDATION_FAILED',
  CONFIG_INVALID: 'USER.CONFIG.INVALID',
  EXTENSION_LOAD_FAILED: 'USER.CONFIG.EXTENSION_LOAD_FAILED',
  MCP_PROXY_CONFIG_MISSING: 'USER.MCP_PROXY.CONFIG_NOT_FOUND',
  MCP_PROXY_CONFIG_INVALID: 'USER.MCP_PROXY.INVALID_CONFIG',
  MCP_PROXY_UNKNOWN_KEY: 'USER.MCP_PROXY.UNKNOWN_KEY',
  MCP_PROXY_UNKNOWN_PLUGIN: 'USER.MCP_PROXY.UNKNOWN_PLUGIN',
  MCP_PROXY_UNKNOWN_OPERATION: 'USER.MCP_PROXY.UNKNOWN_OPERATION',
  MCP_PROXY_NAME_COLLISION: 'USER.MCP_PROXY.NAME_COLLISION',
  MCP_PROXY_INVALID_TOOL_NAME: 'USER.MCP_PROXY.INVALID_TOOL_NAME',
  MCP_PROXY_EMPTY_PROXY: 'USER.MCP_PROXY.EMPTY_PROXY',
  MCP_PROXY_UNSUPPORTED_PROVIDER: 'USER.MCP_PROXY.UNSUPPORTED_PROVIDER',
  MCP_PROXY_INFINITE_LOOP_GUARD: 'USER.MCP_PROXY.INFINITE_LOOP_GUARD',
  TOOL_UNKNOWN: 'USER.MCP_PROXY.UNKNOWN_TOOL',
  RUN_NOT_FOUND: 'USER.RUN.NOT_FOUND',
  EXECUTION_TOOL_FAILED: 'EXECUTION.TOOL.FAILED',
  EXECUTION_PROXY_SERVE_FAILED: 'EXECUTION.MCP_PROXY.SERVE_FAILED',
  SYSTEM_INTERNAL: 'SYSTEM.INTERNAL.UNEXPECTED',
  SYSTEM_IO: 'SYSTEM.IO.FAILED',
} as const;

export type KnownErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** A code is any `CATEGORY.SUB.SPECIFIC` string; modules may add their own under a category. */
export type ErrorCode = `${ErrorCategory}.${string}.${string}`;

export function categoryOf(code: string): ErrorCategory {
  const head = code.split('.')[0];
  return head === 'USER' || head === 'WORKFLOW' || head === 'EXECUTION' || head === 'SYSTEM'
    ? head
    : 'SYSTEM';
}

export function exitCodeFor(code: string): number {
  return EXIT_CODES[categoryOf(code)];
}
