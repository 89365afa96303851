import { isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { WorkflowRepository } from '../../../domain/workflow/ports/workflow-repository.port';
import { type ValidationIssue, issue } from '../../../domain/workflow/validation-issue.model';
import { MAX_CALL_DEPTH, type Workflow } from '../../../domain/workflow/workflow.model';

/**
 * The call_workflow graph, before anything runs: every called workflow exists, no chain of
 * calls comes back to a workflow already on it (the cycle is named: a → b → a), no chain is
 * deeper than 10, and each `outputs` key is a declared output or a state of the child. AWF's
 * validate looks at none of this (it finds a cycle when the run reaches the call, and skips an
 * output the child does not have), so each is a warning here; `--strict` makes them errors.
 */
export async function checkCalls(
  root: Workflow,
  repo?: Pick<WorkflowRepository, 'loadCalled'>,
): Promise<ValidationIssue[]> {
  if (!repo || !root.steps.some((s) => s.type === 'call_workflow')) return [];
  const out = new Map<string, ValidationIssue>();
  const add = (i: ValidationIssue): void => void out.set(`${i.path} ${i.message}`, { ...i, severity: 'warning' });
  const visit = async (wf: Workflow, stack: string[], rootStep?: string): Promise<void> => {
    for (const step of wf.steps) {
      if (step.type !== 'call_workflow' || !step.workflow) continue;
      const at = `states.${rootStep ?? step.name}.workflow`;
      let child: Workflow | undefined;
      try {
        child = (await repo.loadCalled(step.workflow, wf.sourceDir)).workflow;
      } catch (err) {
        add(
          issue(
            ErrorCodes.WORKFLOW_NOT_FOUND,
            at,
            `${rootStep ? `${stack.join(' → ')}: ` : ''}${isAwfError(err) ? err.message : String(err)}`,
          ),
        );
        continue;
      }
      if (!child) continue;
      const chain = [...stack, child.id];
      if (stack.includes(child.id)) {
        add(
          issue(
            ErrorCodes.WORKFLOW_CIRCULAR_CALL,
            at,
            `circular call_workflow: ${chain.join(' → ')}; the run stops when it reaches this call (as AWF's does)`,
          ),
        );
        continue;
      }
      if (chain.length > MAX_CALL_DEPTH + 1) {
        add(
          issue(
            ErrorCodes.WORKFLOW_CIRCULAR_CALL,
            at,
            `call_workflow nests deeper than ${MAX_CALL_DEPTH}: ${chain.join(' → ')}`,
          ),
        );
        continue;
      }
      if (!rootStep) {
        const known = new Set([...child.outputs.map((o) => o.name), ...child.steps.map((s) => s.name)]);
        for (const key of Object.keys(step.outputs)) {
          if (!known.has(key))
            add(
              issue(
                ErrorCodes.WORKFLOW_MISSING_STATE,
                `states.${step.name}.outputs.${key}`,
                `"${child.id}" has no output or state "${key}": nothing is mapped to it (AWF skips it too)`,
              ),
            );
        }
      }
      await visit(child, chain, rootStep ?? step.name);
    }
  };
  await visit(root, [root.id]);
  return [...out.values()];
}
