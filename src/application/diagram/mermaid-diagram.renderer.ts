import type { DiagramDirection } from './dot-diagram.renderer';
import type { GraphNode, NodeRole, WorkflowGraph } from './workflow-graph.builder';

/** Mermaid's nearest shape to each of AWF's DOT shapes: `[open, close]` around the quoted label. */
const SHAPE: Record<NodeRole, [string, string]> = {
  command: ['[', ']'],
  agent: ['[', ']'],
  parallel: ['{', '}'],
  loop: ['{{', '}}'],
  operation: ['[(', ')]'],
  call: ['[[', ']]'],
  success: ['([', '])'],
  failure: ['(((', ')))'],
  missing: ['[', ']'],
};

/**
 * The same graph as a Mermaid flowchart: the DOT's nodes, clusters (as subgraphs) and edges in
 * the same order; on_failure edges dotted and red, terminals and the highlighted step filled with
 * AWF's colours. Step names become `s0…sN` ids (Mermaid ids cannot hold every YAML key) and are
 * shown as quoted labels.
 */
export function renderMermaid(graph: WorkflowGraph, direction: DiagramDirection = 'TB'): string {
  const ids = new Map(graph.nodes.map((n, i) => [n.name, `s${i}`]));
  const idOf = (name: string): string => ids.get(name) ?? 'missing';
  const out = [`flowchart ${direction}`, '    start((" "))', `    start --> ${idOf(graph.initial)}`];
  for (const node of graph.nodes) {
    const [open, close] = SHAPE[node.role];
    out.push(`    ${idOf(node.name)}${open}${label(node)}${close}`);
  }
  graph.clusters.forEach((c, i) => {
    out.push(`    subgraph c${i}[${quote(`${c.step} branches`)}]`);
    c.branches.forEach((b) => out.push(`        ${idOf(b.name)}`));
    out.push('    end');
  });
  const failures: number[] = [];
  graph.edges.forEach((e, i) => {
    const arrow = e.kind === 'failure' ? '-.->' : '-->';
    if (e.kind === 'failure') failures.push(i + 1); // link 0 is start's
    out.push(`    ${idOf(e.from)} ${arrow}${e.label !== undefined ? `|${quote(e.label)}|` : ''} ${idOf(e.to)}`);
  });
  if (failures.length) out.push(`    linkStyle ${failures.join(',')} stroke:red`);
  if (graph.problems.length) out.push(`    problems[${quote(graph.problems.join('\n'))}]`);
  out.push(...classes(graph.nodes, idOf, graph.problems.length > 0));
  return `${out.join('\n')}\n`;
}

function classes(nodes: GraphNode[], idOf: (name: string) => string, graphProblems: boolean): string[] {
  const of = (pick: (n: GraphNode) => boolean): string =>
    nodes
      .filter(pick)
      .map((n) => idOf(n.name))
      .join(',');
  const out: string[] = [];
  const add = (name: string, style: string, members: string): void => {
    if (members) out.push(`    classDef ${name} ${style}`, `    class ${members} ${name}`);
  };
  add(
    'success',
    'fill:#90EE90',
    of((n) => n.role === 'success' && !n.highlighted),
  );
  add(
    'failure',
    'fill:#FFB6C1',
    of((n) => n.role === 'failure' && !n.highlighted),
  );
  add(
    'highlight',
    'fill:#BBDEFB,stroke:#2196F3,stroke-width:3px',
    of((n) => n.highlighted),
  );
  const broken = [of((n) => !!n.problems || n.role === 'missing'), graphProblems ? 'problems' : ''];
  add('problem', 'stroke:red,color:red,stroke-width:2px', broken.filter(Boolean).join(','));
  return out;
}

function label(node: GraphNode): string {
  if (node.role === 'missing') return quote(`${node.name}\n(no such state)`);
  return quote([node.name, ...(node.calls ? [`(calls ${node.calls})`] : []), ...(node.problems ?? [])].join('\n'));
}

/** A Mermaid string: `"` and the characters Mermaid reads as markup become entity codes. */
function quote(text: string): string {
  const escaped = text
    .replace(/&/g, '#amp;')
    .replace(/"/g, '#quot;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/\n/g, '<br/>');
  return `"${escaped}"`;
}
