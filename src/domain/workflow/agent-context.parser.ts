import { ErrorCodes } from '../errors/error-codes';
import { type ValidationIssue, issue } from './validation-issue.model';
import type { AgentStep, SkillRef } from './workflow.model';
import { isMap } from './raw-yaml';

/**
 * An agent step's `role` (a name in the role directories, or a path: anything with a `/` or
 * starting with `.` or `~`; a template) and `skills` (names, or `{path}`), as AWF reads them.
 * A `..` in a role is refused on load, as in AWF.
 */
export function parseAgentContext(
  raw: Record<string, unknown>,
  at: string,
  issues: ValidationIssue[],
): Pick<AgentStep, 'role' | 'skills'> {
  const out: Pick<AgentStep, 'role' | 'skills'> = {};
  const bad = (path: string, why: string): void =>
    void issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, path, why));
  if (typeof raw.role === 'string' && raw.role !== '') {
    if (raw.role.includes('..'))
      bad(`${at}.role`, `role must not contain ".." (name a role, or give a path below the workflow's directory)`);
    else out.role = raw.role;
  } else if (raw.role !== undefined && raw.role !== null && raw.role !== '')
    bad(`${at}.role`, 'role must be a role name or a path to a role directory');
  if (raw.skills === undefined || raw.skills === null) return out;
  if (!Array.isArray(raw.skills)) {
    bad(`${at}.skills`, 'skills must be a list of skill names or {path: <dir>} entries');
    return out;
  }
  const skills: SkillRef[] = [];
  raw.skills.forEach((s: unknown, i) => {
    const path = isMap(s) ? s.path : undefined;
    if (typeof s === 'string' && s !== '') skills.push({ name: s });
    else if (typeof path === 'string' && path !== '') skills.push({ path });
    else bad(`${at}.skills[${i}]`, 'a skill is a non-empty name or {path: <dir with SKILL.md>}');
  });
  if (skills.length) out.skills = skills;
  return out;
}
