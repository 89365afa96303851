/**
 * Ink is an ES module only, and its layout engine (yoga-layout) loads with top-level await, so
 * Node cannot `require` it. awf compiles to CommonJS; with `module: node16` TypeScript keeps this
 * file's `import()` as a real dynamic import (it is not rewritten to `require`), and the bundle
 * leaves ink and react in node_modules (scripts/build-bundle.mjs), so both sides share one React.
 * This is the only file that loads Ink; the views read it through `ink()` once it is loaded.
 */
export type Ink = typeof import('ink', { with: { 'resolution-mode': 'import' } });

let loaded: Ink | undefined;

export async function loadInk(): Promise<Ink> {
  loaded ??= await import('ink');
  return loaded;
}

/** Ink's components and hooks, for a view drawn after `loadInk()`. */
export function ink(): Ink {
  if (!loaded) throw new Error('the tui draws only after loadInk()');
  return loaded;
}
