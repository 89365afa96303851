import { findStep, type Step, type Workflow } from '../../../domain/workflow/workflow.model';
import { interpolate, type RunContext } from './run-context';

/**
 * The steps a run can reach from `initial`, breadth-first over every transition, branch and
 * loop body (the order AWF's dry run lists them). Each state appears once.
 */
export function reachableSteps(workflow: Workflow): Step[] {
  const seen = new Set<string>();
  const order: Step[] = [];
  const queue = [workflow.initial];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const step = findStep(workflow, name);
    if (!step) continue;
    order.push(step);
    queue.push(...successors(step));
  }
  return order;
}

function successors(step: Step): string[] {
  const next = step.transitions.map((t) => t.goto);
  if (step.type === 'parallel') next.push(...step.branches);
  if (step.type === 'for_each' || step.type === 'while')
    next.push(...step.body, ...(step.onComplete ? [step.onComplete] : []));
  return [...next, ...[step.onSuccess, step.onFailure].filter((s): s is string => s !== undefined)];
}

/** Where a step can go, one line each: `when "…" → x`, `on_success → y`, `on_failure → z`. */
export function stepTransitions(step: Step): string[] {
  const lines = step.transitions.map((t) =>
    t.when === undefined ? `default → ${t.goto}` : `when "${t.when}" → ${t.goto}`,
  );
  if (step.type === 'for_each' || step.type === 'while') {
    if (step.onComplete) lines.push(`on_complete → ${step.onComplete}`);
  }
  if (step.onSuccess) lines.push(`on_success → ${step.onSuccess}`);
  if (step.onFailure) lines.push(`on_failure → ${step.onFailure}`);
  return lines;
}

/**
 * A step's command (or an agent's prompt) interpolated with what is known now. A reference
 * that cannot be rendered yet (a state that has not run) leaves the text as written, as AWF's
 * dry run does.
 */
export function stepText(step: Step, ctx: RunContext): string | undefined {
  if (step.type === 'step' && step.scriptFile !== undefined)
    return `script_file ${renderOrRaw(ctx, step.scriptFile, step.name, 'script_file')}`;
  if (step.type === 'agent' && step.promptFile !== undefined)
    return `prompt_file ${renderOrRaw(ctx, step.promptFile, step.name, 'prompt_file')}`;
  const raw = step.type === 'step' ? step.command : step.type === 'agent' ? step.prompt : undefined;
  if (raw === undefined) return undefined;
  return renderOrRaw(ctx, raw, step.name, step.type === 'step' ? 'command' : 'prompt');
}

export function renderOrRaw(ctx: RunContext, text: string, step: string, field: string): string {
  try {
    return interpolate(ctx, text, step, field);
  } catch {
    return text;
  }
}
