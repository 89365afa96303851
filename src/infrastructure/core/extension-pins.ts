import type { Module } from '@nestjs/core/injector/module';
import type { ToolDefinition } from '../../domain/model/tool-definition';
import type { ToolResult } from '../../domain/model/tool-result';
import { extensionPackageOf } from '../../domain/ports/markers';
import type { ToolProvider } from '../../domain/ports/tool-provider.port';
import type { ToolCallContext, ToolScope } from '../../domain/ports/tool-scope';
import { changedReason } from '../../domain/policy/tool-pin';
import { ToolPinStore } from './tool-pin.store';

/** Sources awf pins (or needs not pin) itself: an extension's provider that serves them is left alone. */
const OWN_SOURCE = /^(builtin$|plugin:|mcp:)/;

/** Whose pin an extension's tools share: the module `extensions:` names, and its package's version. */
export interface ExtensionPin {
  /** `module:<its class name>` (`module:TicketsModule`): two modules of one package have a pin each. */
  key: string;
  version?: string;
}

/**
 * Each module of the container that belongs to an extension (the module `extensions:` names, and
 * the modules it imports that are not global, so not awf's), with the pin its tools share.
 */
export function extensionModules(modules: Iterable<Module>): Map<Module, ExtensionPin> {
  const owners = new Map<Module, ExtensionPin>();
  const claim = (module: Module, pin: ExtensionPin): void => {
    if (owners.has(module)) return;
    owners.set(module, pin);
    for (const imported of module.imports) if (!imported.isGlobal) claim(imported, pin);
  };
  for (const module of modules) {
    const pkg = extensionPackageOf(module.metatype);
    if (pkg) claim(module, { key: `module:${pinName(module.metatype.name)}`, version: pkg.version });
  }
  return owners;
}

/**
 * An extension module's tool provider with its tools pinned (ADR 305): each listing is checked
 * against the pin of the extension's package version, and a tool that differs is marked
 * `changed`, so the policy hides it and refuses its calls, as for upstream servers and plugins.
 * A new package version is pinned anew. Calls go straight through: pins cost nothing per call.
 */
export class PinnedExtensionTools implements ToolProvider {
  readonly close?: (scope: ToolScope) => Promise<void> | void;
  readonly watchTools?: (scope: ToolScope, onChange: () => void) => void;
  constructor(
    private readonly inner: ToolProvider,
    private readonly pin: ExtensionPin,
  ) {
    if (inner.close) this.close = (scope) => inner.close!(scope);
    if (inner.watchTools) this.watchTools = (scope, onChange) => inner.watchTools!(scope, onChange);
  }

  async listTools(scope: ToolScope): Promise<ToolDefinition[]> {
    const tools = await this.inner.listTools(scope);
    const pinned = tools.filter((t) => !OWN_SOURCE.test(t.source));
    if (pinned.length === 0) return tools;
    const changes = new ToolPinStore(scope.pinsDir).check(this.pin.key, pinned, this.pin.version);
    if (changes.size === 0) return tools;
    return tools.map((t) => {
      const change = OWN_SOURCE.test(t.source) ? undefined : changes.get(t.name);
      return change ? { ...t, changed: changedReason(change, this.pin.key, this.pin.version) } : t;
    });
  }

  callTool(name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    return this.inner.callTool(name, args, ctx);
  }
}

/** A class name as a pin key's name (letters, digits, "_" and "-"; at most 48). */
function pinName(className: string): string {
  return className.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48) || 'extension';
}
