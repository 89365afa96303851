import { AsyncLocalStorage } from 'node:async_hooks';
import { type PathAccess, type PolicyRefusal } from '../../domain/policy/policy.model';
import type { PathAccess as GuardAccess, PathGuard } from '../../domain/ports/path-guard.port';
import type { ToolScope } from '../../domain/ports/tool-scope';

/** The path refusals of the call in progress, so its interceptor can record what decided. */
export interface PathVerdicts {
  refused: PolicyRefusal[];
}

/** Carries each call's verdicts from the sandbox's guard calls back to the policy interceptor. */
export const pathVerdicts = new AsyncLocalStorage<PathVerdicts>();

/** How a refusal reads to the agent, wherever it is shown. */
export function refusalText(refusal: PolicyRefusal): string {
  return `[${refusal.code}] ${refusal.message}.\nDecided by: ${refusal.rule}. Other tools and calls still work.`;
}

/**
 * The step's path rules behind the sandbox's PathGuard seam: called with the root-relative
 * real path (after symlink resolution) of everything a tool touches, and of each Glob/Grep
 * result. It never resolves a path itself: the sandbox has, race-free.
 */
export class PolicyPathGuard implements PathGuard {
  denial(relPath: string, access: GuardAccess, scope: ToolScope): string | undefined {
    const refusal = scope.policy?.checkPath(relPath, access === 'exec' ? 'read' : (access as PathAccess));
    if (!refusal) return undefined;
    pathVerdicts.getStore()?.refused.push(refusal);
    return refusalText(refusal);
  }
}
