import type { ToolScope } from './tool-scope';

/** What a tool is about to do with a path: read a file, write one, list a directory, run in it. */
export type PathAccess = 'read' | 'write' | 'list' | 'exec';

/**
 * A second opinion on a path the sandbox already resolved inside the root: policy rules
 * (deny `secrets/**`, read-only `vendor/**`) plug in here. Called with the root-relative,
 * `/`-separated real path ('' is the root) after race-free resolution, so a rule sees what
 * the tool will touch, never the spelling the agent sent; Glob and Grep ask it once per result.
 */
export interface PathGuard {
  /** undefined allows; a string refuses, and is shown to the agent as the reason. */
  denial(relPath: string, access: PathAccess, scope: ToolScope): string | undefined;
}

export const PATH_GUARD = Symbol.for('awf.PathGuard');
