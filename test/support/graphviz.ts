import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './cli';

/**
 * Lays DOT out with real Graphviz (the WebAssembly build of @hpcc-js/wasm-graphviz, an ES module,
 * hence a child process) and returns the SVG; a DOT syntax error throws with Graphviz's message.
 */
export function graphvizSvg(dot: string): string {
  const script = `
    import { Graphviz } from '@hpcc-js/wasm-graphviz';
    const graphviz = await Graphviz.load();
    let dot = '';
    for await (const chunk of process.stdin) dot += chunk;
    try { process.stdout.write(graphviz.layout(dot, 'svg', 'dot')); }
    catch (err) { process.stderr.write(String(err)); process.exitCode = 1; }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    input: dot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`Graphviz refused the DOT: ${r.stderr || r.error}`);
  return r.stdout;
}

/** The SVG group Graphviz drew for one node, found by its title. */
export function svgNode(svg: string, name: string): string {
  const groups = svg.split('<g id="node').slice(1);
  const found = groups.find((g) => g.includes(`<title>${name}</title>`));
  if (!found) throw new Error(`no node "${name}" in the SVG`);
  return found.slice(0, found.indexOf('</g>'));
}
