import { AwfError } from '../../../domain/errors/awf-error';
import { categoryOf, ErrorCodes } from '../../../domain/errors/error-codes';
import type { LoadedWorkflow } from '../../../domain/workflow/ports/workflow-repository.port';
import { formatIssue, type ValidationIssue } from '../../../domain/workflow/validation-issue.model';

export interface ValidationReport {
  workflow: string;
  file: string;
  valid: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  author?: string;
  tags?: string[];
  /** False when the file does not load as AWF's loader would (set by `WorkflowService.validate`). */
  loads?: boolean;
}

export function validationReport(loaded: LoadedWorkflow, issues: ValidationIssue[]): ValidationReport {
  const errors = issues.filter((i) => i.severity === 'error');
  return {
    workflow: loaded.workflow?.name ?? loaded.file,
    file: loaded.file,
    valid: errors.length === 0,
    errors,
    warnings: issues.filter((i) => i.severity === 'warning'),
    ...(loaded.workflow?.author ? { author: loaded.workflow.author } : {}),
    ...(loaded.workflow?.tags?.length ? { tags: loaded.workflow.tags } : {}),
  };
}

/**
 * One error for a failed validation: exit 2 when the file itself is broken (any WORKFLOW
 * issue), 1 when only USER issues remain. The message lists every issue.
 */
export function validationError(v: ValidationReport): AwfError {
  const n = v.errors.length;
  return new AwfError(
    leadCode(v),
    `${v.file}: ${n} error${n > 1 ? 's' : ''}\n${v.errors.map(formatIssue).join('\n')}`,
    { file: v.file, errors: v.errors },
    'Fix the errors above; `awf validate` reports them without running anything.',
  );
}

/**
 * `awf validate`'s verdict on an invalid file: USER.WORKFLOW.INVALID (exit 1) when the file does
 * not load, as AWF's validate exits 1 there; else the worst issue's code, a WORKFLOW one (exit 2)
 * before a USER one (exit 1). `awf run` refuses the same file with `validationError` (exit 2 for a
 * file that does not load, as AWF's run).
 */
export function validateVerdict(v: ValidationReport): AwfError {
  const n = `${v.errors.length} error${v.errors.length > 1 ? 's' : ''}`;
  const details = { file: v.file, errors: v.errors };
  if (v.loads === false)
    return new AwfError(ErrorCodes.WORKFLOW_DOES_NOT_LOAD, `${v.file}: does not load (${n})`, details);
  return new AwfError(leadCode(v), `${v.file}: ${n}`, details);
}

function leadCode(v: ValidationReport): AwfError['code'] {
  return (v.errors.find((i) => categoryOf(i.code) === 'WORKFLOW') ?? v.errors[0]).code as AwfError['code'];
}
