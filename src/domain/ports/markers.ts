/**
 * Class markers that let the composition root find contributions in any module without a
 * shared token list. Plain TypeScript, so adapters stay free of framework imports.
 */
export const TOOL_PROVIDER_MARK = Symbol.for('awf.tool-provider');
export const TOOL_INTERCEPTOR_MARK = Symbol.for('awf.tool-interceptor');
export const AGENT_PROVIDER_MARK = Symbol.for('awf.agent-provider');

type AnyClass = abstract new (...args: never[]) => object;

function mark(symbol: symbol) {
  return <T extends AnyClass>(target: T): T => {
    Object.defineProperty(target.prototype, symbol, { value: true });
    return target;
  };
}

/** Marks a class whose instances are `ToolProvider`s. */
export const ProvidesTools = (): (<T extends AnyClass>(target: T) => T) => mark(TOOL_PROVIDER_MARK);

/** Marks a class whose instances are `ToolCallInterceptor`s. */
export const InterceptsToolCalls = (): (<T extends AnyClass>(target: T) => T) => mark(TOOL_INTERCEPTOR_MARK);

/** Marks a class whose instances are `AgentProvider`s. */
export const ProvidesAgent = (): (<T extends AnyClass>(target: T) => T) => mark(AGENT_PROVIDER_MARK);

export function hasMark(instance: unknown, symbol: symbol): boolean {
  return typeof instance === 'object' && instance !== null && (instance as Record<symbol, unknown>)[symbol] === true;
}
