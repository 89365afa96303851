import { isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { type ValidationIssue, issue } from '../../../domain/workflow/validation-issue.model';
import type { Workflow } from '../../../domain/workflow/workflow.model';
import { type AgentContextPlace, loadRole, loadSkill } from '../steps/agent-context';
import { awfDirs } from '../run/awf-dirs';
import type { FileCheckContext } from './external-files.check';
import { renderTemplate } from '../template/template-engine';

/**
 * `awf validate` on agent roles and skills: each skill, and each role whose reference can be known
 * before running (no template, or one that reads only `.awf.*`), must be found as the run would
 * find it (USER.INPUT.MISSING_ROLE / MISSING_SKILL); an empty one, and an `options.system_prompt`
 * the role and system_prompt will replace, are warnings. AWF checks skills only, so a role that
 * cannot be found is a warning too (`--strict`: an error); the run fails at that step.
 */
export function checkAgentContext(wf: Workflow, context: FileCheckContext | undefined): ValidationIssue[] {
  if (!context) return [];
  const dirs = awfDirs(context.env);
  const out: ValidationIssue[] = [];
  /** `check` loads the file and returns a warning when it is empty. */
  const attempt = (at: string, code: string, check: () => string | undefined): void => {
    try {
      const empty = check();
      if (empty) out.push(issue(code, at, empty, 'warning'));
    } catch (err) {
      if (!isAwfError(err)) throw err;
      const role = code === ErrorCodes.INPUT_MISSING_ROLE;
      const message = err.message.replace(`${at}: `, '') + (role ? ' (AWF does not check roles before running)' : '');
      out.push(issue(err.code, at, message, role ? 'warning' : 'error'));
    }
  };
  for (const step of wf.steps) {
    if (step.type !== 'agent') continue;
    const place: AgentContextPlace = {
      files: context.files,
      env: context.env,
      dirs,
      cwd: context.cwd(),
      sourceDir: wf.sourceDir ?? context.cwd(),
    };
    const at = `states.${step.name}`;
    const ref = step.role ? knownNow(step.role, dirs) : undefined;
    if (ref)
      attempt(`${at}.role`, ErrorCodes.INPUT_MISSING_ROLE, () => {
        const role = loadRole(ref, place, `${at}.role`);
        return role.content.trim() ? undefined : `role "${ref}" (${role.file}) is empty: the agent gets no role text`;
      });
    (step.skills ?? []).forEach((s, i) =>
      attempt(`${at}.skills[${i}]`, ErrorCodes.INPUT_MISSING_SKILL, () => {
        const skill = loadSkill(s, place, `${at}.skills[${i}]`);
        return skill.content.trim() ? undefined : `skill "${skill.name}" (${skill.location}/SKILL.md) is empty`;
      }),
    );
    if ((step.role || step.systemPrompt !== undefined) && step.options.system_prompt !== undefined)
      out.push(
        issue(
          ErrorCodes.WORKFLOW_INVALID_FIELD,
          `${at}.options.system_prompt`,
          "is replaced by the step's role and system_prompt when it runs (as in AWF); move its text to system_prompt",
          'warning',
        ),
      );
  }
  return out;
}

/** The reference, when it reads nothing but `.awf.*`; undefined when only the run can tell. */
function knownNow(ref: string, dirs: Record<string, string>): string | undefined {
  try {
    return renderTemplate(ref, { awf: dirs }) || undefined;
  } catch {
    return undefined;
  }
}
