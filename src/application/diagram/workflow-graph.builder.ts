import type { ValidationIssue } from '../../domain/workflow/validation-issue.model';
import type { Step, Workflow } from '../../domain/workflow/workflow.model';

/**
 * How a node is drawn; the renderers map each role to their own shapes (AWF's table for DOT).
 * `missing`: a state a route names that does not exist, drawn so the broken edge shows.
 */
export type NodeRole =
  'command' | 'agent' | 'parallel' | 'loop' | 'operation' | 'call' | 'success' | 'failure' | 'missing';

export interface GraphNode {
  name: string;
  role: NodeRole;
  /** `call_workflow`: the workflow it calls, drawn under its name. */
  calls?: string;
  highlighted: boolean;
  /** The codes of the validation errors found in this step (an invalid draft is still drawn). */
  problems?: string[];
}

/** `success`/`failure`: on_success / on_failure; `when`: a transition; `branch`, `body`, `complete`: AWF's. */
export type EdgeKind = 'success' | 'failure' | 'when' | 'branch' | 'body' | 'complete';

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  label?: string;
  /** It leads to a state that does not exist. */
  broken?: boolean;
}

export interface WorkflowGraph {
  name: string;
  initial: string;
  /** Sorted by name (byte order), as AWF draws them. */
  nodes: GraphNode[];
  /** A parallel step's branches, drawn as a cluster after the step's own node. */
  clusters: { step: string; branches: GraphNode[] }[];
  edges: GraphEdge[];
  /** Errors that belong to no step (`CODE at path`): a missing initial state, no terminal. */
  problems: string[];
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
export function buildWorkflowGraph(
  workflow: Workflow,
  highlight?: string,
  errors: ValidationIssue[] = [],
): WorkflowGraph {
  const steps = [...workflow.steps].sort(nameOrder);
  const byName = new Map(steps.map((s) => [s.name, s]));
  const { perStep, problems } = placeProblems(errors, steps);
  const node = (step: Step): GraphNode => ({
    name: step.name,
    role: step.type === 'terminal' ? step.status : ROLE[step.type],
    ...(step.type === 'call_workflow' ? { calls: step.workflow } : {}),
    highlighted: step.name === highlight,
    ...(perStep.has(step.name) ? { problems: [...perStep.get(step.name)!] } : {}),
  });
  const clusters = steps.flatMap((s) =>
    s.type === 'parallel'
      ? [{ step: s.name, branches: s.branches.flatMap((b) => (byName.has(b) ? [node(byName.get(b)!)] : [])) }]
      : [],
  );
  const edges = edgesOf(steps).map((e) => (byName.has(e.to) ? e : { ...e, broken: true }));
  const absent = new Set([workflow.initial, ...edges.map((e) => e.to)].filter((n) => n && !byName.has(n)));
  const missing = [...absent].map((name): GraphNode => ({ name, role: 'missing', highlighted: false }));
  const nodes = [...steps.map(node), ...missing].sort(nameOrder);
  return { name: workflow.name, initial: workflow.initial, nodes, clusters, edges, problems };
}

function nameOrder(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Each error goes to the step its path is in (`states.<step>…`, the longest name that fits), else to the graph. */
function placeProblems(errors: ValidationIssue[], steps: Step[]) {
  const perStep = new Map<string, Set<string>>();
  const problems: string[] = [];
  for (const error of errors) {
    const inStep = (s: Step): boolean =>
      [`states.${s.name}`, `states.${s.name}.`, `states.${s.name}[`].some((p, k) =>
        k === 0 ? error.path === p : error.path.startsWith(p),
      );
    const owner = steps.filter(inStep).sort((a, b) => b.name.length - a.name.length)[0];
    if (owner) perStep.set(owner.name, (perStep.get(owner.name) ?? new Set()).add(error.code));
    else problems.push(`${error.code}${error.path ? ` at ${error.path}` : ''}`);
  }
  return { perStep, problems: [...new Set(problems)] };
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
