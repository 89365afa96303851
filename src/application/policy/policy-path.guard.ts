import { type PathAccess, type PolicyRefusal } from '../../domain/policy/policy.model';
import type { PathAccess as GuardAccess, PathGuard } from '../../domain/ports/path-guard.port';
import type { ToolScope } from '../../domain/ports/tool-scope';

/** The path refusals of one step so far: the interceptor reads what changed over each call. */
export interface PathTally {
  count: number;
  /** The latest refusals, at most RECENT of them (a Glob may hide thousands of paths). */
  recent: PolicyRefusal[];
}

const RECENT = 64;
const tallies = new WeakMap<ToolScope, PathTally>();

/**
 * The step's tally. Not an AsyncLocalStorage per call: on Node 20 using one at all makes every
 * promise of the process slower (about a fifth of the proxy's calls/s, bench row awf-policy).
 * So refusals count per step, and a call's share is what changed while it ran; when two calls
 * of one step overlap, the `hidden` count of one may include the other's (enforcement never
 * depends on it: the sandbox refused or dropped each path itself).
 */
export function pathTally(scope: ToolScope): PathTally {
  let tally = tallies.get(scope);
  if (!tally) tallies.set(scope, (tally = { count: 0, recent: [] }));
  return tally;
}

/** The refusals recorded since the tally stood at `start`, newest last (at most RECENT). */
export function refusedSince(tally: PathTally, start: number): PolicyRefusal[] {
  const since = Math.min(tally.count - start, tally.recent.length);
  return since > 0 ? tally.recent.slice(-since) : [];
}

/** How a refusal reads to the agent, wherever it is shown. */
export function refusalText(refusal: PolicyRefusal): string {
  return `[${refusal.code}] ${refusal.message}.\nDecided by: ${refusal.rule}. Other tools and calls still work.`;
}

/**
 * The step's path rules behind the sandbox's PathGuard seam: called with the root-relative
 * real path (after symlink resolution) of everything a tool touches, and of each Glob/Grep
 * result. It never resolves a path itself: the sandbox has, race-free. Each refusal is counted
 * on the step's tally, for the interceptor to record.
 */
export class PolicyPathGuard implements PathGuard {
  denial(relPath: string, access: GuardAccess, scope: ToolScope): string | undefined {
    const refusal = scope.policy?.checkPath(relPath, access === 'exec' ? 'read' : (access as PathAccess));
    if (!refusal) return undefined;
    const tally = pathTally(scope);
    tally.count++;
    tally.recent.push(refusal);
    if (tally.recent.length > RECENT) tally.recent.shift();
    return refusalText(refusal);
  }
}
