import type { Step, Workflow } from '../../domain/workflow/workflow.model';

/** How a node is drawn; the renderers map each role to their own shapes (AWF's table for DOT). */
export type NodeRole = 'command' | 'agent' | 'parallel' | 'loop' | 'operation' | 'call' | 'success' | 'failure';

export interface GraphNode {
  name: string;
  role: NodeRole;
  /** `call_workflow`: the workflow it calls, drawn under its name. */
  calls?: string;
  highlighted: boolean;
}

/** `success`/`failure`: on_success / on_failure; `when`: a transition; `branch`, `body`, `complete`: AWF's. */
export type EdgeKind = 'success' | 'failure' | 'when' | 'branch' | 'body' | 'complete';

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  label?: string;
}

export interface WorkflowGraph {
  name: string;
  initial: string;
  /** Sorted by name (byte order), as AWF draws them. */
  nodes: GraphNode[];
  /** A parallel step's branches, drawn as a cluster after the step's own node. */
  clusters: { step: string; branches: GraphNode[] }[];
  edges: GraphEdge[];
}

const ROLE: Record<Exclude<Step['type'], 'terminal'>, NodeRole> = {
  step: 'command',
  agent: 'agent',
  parallel: 'parallel',
  for_each: 'loop',
  while: 'loop',
  operation: 'operation',
  call_workflow: 'call',
};

/**
 * The graph `awf diagram` draws, in AWF's order: nodes by name, then per step (by name, terminals
 * skipped) its parallel branches, loop body and `complete` exit, on_success, on_failure, and its
 * transitions labelled by their `when`.
 */
export function buildWorkflowGraph(workflow: Workflow, highlight?: string): WorkflowGraph {
  const steps = [...workflow.steps].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map(steps.map((s) => [s.name, s]));
  const node = (step: Step): GraphNode => ({
    name: step.name,
    role: step.type === 'terminal' ? step.status : ROLE[step.type],
    ...(step.type === 'call_workflow' ? { calls: step.workflow } : {}),
    highlighted: step.name === highlight,
  });
  const clusters = steps.flatMap((s) =>
    s.type === 'parallel'
      ? [{ step: s.name, branches: s.branches.flatMap((b) => (byName.has(b) ? [node(byName.get(b)!)] : [])) }]
      : [],
  );
  return { name: workflow.name, initial: workflow.initial, nodes: steps.map(node), clusters, edges: edgesOf(steps) };
}

function edgesOf(steps: Step[]): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const step of steps) {
    if (step.type === 'terminal') continue;
    const from = step.name;
    if (step.type === 'parallel') step.branches.forEach((to) => edges.push({ from, to, kind: 'branch' }));
    if (step.type === 'for_each' || step.type === 'while') {
      step.body.forEach((to) => edges.push({ from, to, kind: 'body' }));
      if (step.onComplete) edges.push({ from, to: step.onComplete, kind: 'complete', label: 'complete' });
    }
    if (step.onSuccess) edges.push({ from, to: step.onSuccess, kind: 'success' });
    if (step.onFailure) edges.push({ from, to: step.onFailure, kind: 'failure' });
    for (const t of step.transitions)
      edges.push({ from, to: t.goto, kind: 'when', ...(t.when ? { label: t.when } : {}) });
  }
  return edges;
}
