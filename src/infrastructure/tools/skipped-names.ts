/**
 * Directory names no search enters: version-control internals and installed dependencies.
 * Glob and both Grep engines share it, so the two tools agree on what a tree contains.
 */
export const SKIPPED_NAMES: readonly string[] = ['.git', 'node_modules'];
