import type { ValidationReport } from '../../application/workflow/workflow.service';
import { formatIssue } from '../../domain/workflow/validation-issue.model';
import type { OutputFormat } from './output-format';

/** `awf validate`: what goes to stdout (the verdict) and to stderr (each issue, one line). */
export function renderValidation(v: ValidationReport, format: OutputFormat): { stdout: string; stderr: string } {
  if (format === 'json') {
    const strip = (i: ValidationReport['errors'][number]) => ({ code: i.code, path: i.path, message: i.message });
    return { stdout: `${JSON.stringify({ valid: v.valid, workflow: v.workflow, file: v.file, errors: v.errors.map(strip), warnings: v.warnings.map(strip) })}\n`, stderr: '' };
  }
  const warnings = v.warnings.map((w) => `warning: ${formatIssue(w)}\n`).join('');
  if (v.valid) return { stdout: `Workflow '${v.workflow}' is valid\n`, stderr: warnings };
  return { stdout: '', stderr: v.errors.map((e) => `${formatIssue(e)}\n`).join('') + warnings };
}
