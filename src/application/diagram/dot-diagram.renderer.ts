import type { GraphEdge, GraphNode, NodeRole, WorkflowGraph } from './workflow-graph.builder';

export type DiagramDirection = 'TB' | 'LR' | 'BT' | 'RL';
export const DIRECTIONS: readonly DiagramDirection[] = ['TB', 'LR', 'BT', 'RL'];

/** AWF's shapes (`diagram` command help); an agent step, which AWF's table lacks, falls back to box as there. */
const SHAPE: Record<NodeRole, string> = {
  command: 'box',
  agent: 'box',
  parallel: 'diamond',
  loop: 'hexagon',
  operation: 'box3d',
  call: 'folder',
  success: 'oval',
  failure: 'oval',
  missing: 'box',
};

/**
 * Graphviz DOT, line for line as AWF prints it, with three repairs: a failure terminal is an oval
 * with two borders (`peripheries=2`; AWF's `doubleoval` is no Graphviz shape), a quoted id is
 * escaped once, and a cluster whose step name needs quotes is named `"cluster_<name>"`.
 */
export function renderDot(graph: WorkflowGraph, direction: DiagramDirection = 'TB'): string {
  const out = [
    `digraph ${quote(graph.name)} {`,
    `    rankdir=${direction};`,
    '    node [fontname="Arial", fontsize=10];',
    '    edge [fontname="Arial", fontsize=9];',
    '    __start__ [shape=point, width=0.2];',
    ...(graph.initial ? [`    __start__ -> ${id(graph.initial)};`] : []),
  ];
  // An invalid draft: what belongs to no step goes in a red note beside the graph.
  if (graph.problems.length)
    out.push(`    __problems__ [label=${quote(graph.problems.join('\n'))}, shape=note, color=red, fontcolor=red];`);
  for (const node of graph.nodes) {
    out.push(`    ${id(node.name)} [${attributes(node, true).join(', ')}];`);
    const cluster = graph.clusters.find((c) => c.step === node.name);
    if (!cluster) continue;
    out.push(`    subgraph ${id(`cluster_${node.name}`)} {`, `        label=${quote(`${node.name} branches`)};`);
    out.push('        style=dashed;');
    cluster.branches.forEach((b) => out.push(`        ${id(b.name)} [${attributes(b, false).join(', ')}];`));
    out.push('    }');
  }
  graph.edges.forEach((e) => out.push(`    ${id(e.from)} -> ${id(e.to)}${edgeAttributes(e)};`));
  return `${out.join('\n')}\n}\n`;
}

/** AWF colours terminals only in the top-level node list, not inside a parallel cluster. */
function attributes(node: GraphNode, colourTerminals: boolean): string[] {
  if (node.role === 'missing')
    return [
      `label=${quote(`${node.name}\n(no such state)`)}`,
      'shape=box',
      'style=dashed',
      'color=red',
      'fontcolor=red',
    ];
  const lines = [node.name, ...(node.calls ? [`(calls ${node.calls})`] : []), ...(node.problems ?? [])];
  const attrs = [`label=${quote(lines.join('\n'))}`];
  attrs.push(`shape=${SHAPE[node.role]}`);
  if (node.role === 'failure') attrs.push('peripheries=2');
  const terminal = colourTerminals && (node.role === 'success' || node.role === 'failure');
  if (node.highlighted) attrs.push('color="#2196F3"', 'fillcolor="#BBDEFB"', 'style="filled,bold"');
  else if (terminal)
    attrs.push(`fillcolor=${quote(node.role === 'success' ? '#90EE90' : '#FFB6C1')}`, 'style="filled"');
  if (node.highlighted && colourTerminals) attrs.push('penwidth=3');
  if (node.problems) attrs.push('color=red', 'fontcolor=red', ...(node.highlighted ? [] : ['penwidth=2']));
  return attrs;
}

function edgeAttributes(edge: GraphEdge): string {
  const attrs = edge.label !== undefined ? [`label=${quote(edge.label)}`] : [];
  if (edge.kind === 'failure') attrs.push('style=dashed, color=red');
  else if (edge.broken) attrs.push('color=red');
  return attrs.length ? ` [${attrs.join(', ')}]` : '';
}

/** A DOT id: bare when it is a plain identifier (as AWF decides), else a quoted string. */
function id(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : quote(name);
}

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
