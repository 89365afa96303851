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

/** The package an extension module was loaded from (ADR 305): its tools are pinned by its version. */
export interface ExtensionPackage {
  name: string;
  version?: string;
}

const EXTENSION_PACKAGE_MARK = Symbol.for('awf.extension-package');

/** Set by the extension loader on each module class it loads from `extensions:`. */
export function markExtensionPackage(moduleClass: object, pkg: ExtensionPackage): void {
  Object.defineProperty(moduleClass, EXTENSION_PACKAGE_MARK, { value: pkg, configurable: true });
}

export function extensionPackageOf(moduleClass: unknown): ExtensionPackage | undefined {
  if (typeof moduleClass !== 'function') return undefined;
  return Object.getOwnPropertyDescriptor(moduleClass, EXTENSION_PACKAGE_MARK)?.value as ExtensionPackage | undefined;
}
