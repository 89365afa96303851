/**
 * Ink is an ES module only, and its layout engine (yoga-layout) loads with top-level await, so
 * Node cannot `require` it. awf compiles to CommonJS; with `module: node16` TypeScript keeps this
 * file's `import()` as a real dynamic import (it is not rewritten to `require`), and the bundle
 * leaves ink and react in node_modules (scripts/build-bundle.mjs), so both sides share one React.
 * This is the only file that loads Ink; the views read it through `ink()` once it is loaded.
 */
export type Ink = typeof import('ink', { with: { 'resolution-mode': 'import' } });

let loaded: Ink | undefined;

/** The variables by which Ink (is-in-ci) decides it runs in CI, read once as it loads. */
const CI_VARIABLES = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/**
 * Loads Ink once. In CI (`CI` or `CONTINUOUS_INTEGRATION` set) Ink draws nothing but its last
 * frame, when it unmounts; the tui runs only on a terminal (checked before it loads), where a
 * person watches it, so those variables read `false` for the moment Ink loads, then are put back.
 */
export async function loadInk(): Promise<Ink> {
  if (loaded) return loaded;
  const saved = CI_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const [name, value] of saved) if (value !== undefined) process.env[name] = 'false';
  try {
    loaded = await import('ink');
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
  return loaded;
}

/** Ink's components and hooks, for a view drawn after `loadInk()`. */
export function ink(): Ink {
  if (!loaded) throw new Error('the tui draws only after loadInk()');
  return loaded;
}
