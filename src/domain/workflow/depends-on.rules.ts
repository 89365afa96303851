import { ErrorCodes } from '../errors/error-codes';
import { isMap, type Raw } from './raw-yaml';
import { issue, type ValidationIssue } from './validation-issue.model';
import { findStep, nextStates, type Workflow } from './workflow.model';

/**
 * `depends_on` (AWF parses it and never reads it): awf does not reorder steps by it either, so it
 * is checked against the order the workflow's routes give. Where every path from `initial` to the
 * step runs the dependency first it is a true statement and says nothing; where some path skips
 * it, or it names no state, a NO_EFFECT warning shows that path and what would do the job.
 */
export function checkDependsOn(states: Raw, workflow: Workflow): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const reachable = pathsAvoiding(workflow, undefined);
  for (const [name, raw] of Object.entries(states)) {
    if (!isMap(raw) || raw.depends_on === undefined || !reachable.has(name)) continue;
    const at = `states.${name}.depends_on`;
    for (const dep of ([] as unknown[]).concat(raw.depends_on)) {
      if (typeof dep !== 'string' || !findStep(workflow, dep)) {
        const what = typeof dep === 'string' ? `"${dep}" is not a state of this workflow` : 'a name must be text';
        out.push(warning(at, `${what}; depends_on does not order steps (on_success and transitions do)`));
        continue;
      }
      const path = pathsAvoiding(workflow, dep).get(name);
      if (!path) continue;
      const side = workflow.steps.some(
        (s) => s.type === 'parallel' && [dep, name].every((b) => s.branches.includes(b)),
      );
      const fix = side
        ? `to run ${dep} before ${name}, make it a step of its own before the parallel one`
        : `route through "${dep}" with on_success or transitions`;
      const skipped = `(${[...path, name].join(' → ')} skips it)`;
      out.push(
        warning(
          at,
          `"${dep}" does not always run before "${name}" ${skipped}, and depends_on does not reorder steps: ${fix}`,
        ),
      );
    }
  }
  return out;
}

/** For each state reachable from `initial` without passing `avoid`: the states on the way to it. */
function pathsAvoiding(workflow: Workflow, avoid: string | undefined): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  if (!workflow.initial || workflow.initial === avoid) return paths;
  paths.set(workflow.initial, []);
  const queue = [workflow.initial];
  while (queue.length > 0) {
    const name = queue.shift()!;
    const step = findStep(workflow, name);
    for (const next of step ? nextStates(step) : []) {
      if (next === avoid || paths.has(next)) continue;
      paths.set(next, [...paths.get(name)!, name]);
      queue.push(next);
    }
  }
  return paths;
}

function warning(path: string, message: string): ValidationIssue {
  return issue(ErrorCodes.WORKFLOW_NO_EFFECT, path, message, 'warning');
}
