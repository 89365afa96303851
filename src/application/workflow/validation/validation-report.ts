import { AwfError } from '../../../domain/errors/awf-error';
import { categoryOf } from '../../../domain/errors/error-codes';
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
  const lead = v.errors.find((i) => categoryOf(i.code) === 'WORKFLOW') ?? v.errors[0];
  const n = v.errors.length;
  return new AwfError(
    lead.code as AwfError['code'],
    `${v.file}: ${n} error${n > 1 ? 's' : ''}\n${v.errors.map(formatIssue).join('\n')}`,
    { file: v.file, errors: v.errors },
    'Fix the errors above; `awf validate` reports them without running anything.',
  );
}
