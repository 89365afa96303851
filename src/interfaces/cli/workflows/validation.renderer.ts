import type { ValidationReport } from '../../../application/workflow/workflow.service';
import { formatIssue } from '../../../domain/workflow/validation-issue.model';
import { jsonLine, type OutputFormat } from '../global-flags';
import { renderTable } from '../table.renderer';

/** `awf validate`: what goes to stdout (the verdict) and to stderr (each issue, one line). */
export function renderValidation(v: ValidationReport, format: OutputFormat): { stdout: string; stderr: string } {
  const strip = (i: ValidationReport['errors'][number]) => ({ code: i.code, path: i.path, message: i.message });
  // AWF's shape `{valid, workflow, errors}`, with the file and the warnings added.
  if (format === 'json')
    return {
      stdout: jsonLine({
        valid: v.valid,
        workflow: v.workflow,
        file: v.file,
        ...(v.author ? { author: v.author } : {}),
        ...(v.tags ? { tags: v.tags } : {}),
        errors: v.errors.map(strip),
        warnings: v.warnings.map(strip),
      }),
      stderr: '',
    };
  if (format === 'quiet') return { stdout: v.valid ? 'valid\n' : 'invalid\n', stderr: '' };
  if (format === 'table') {
    const issues = [...v.errors, ...v.warnings].map((i) => [
      i.severity,
      i.code,
      i.path || '-',
      i.message.split('\n')[0],
    ]);
    const head = renderTable(
      [
        ['WORKFLOW', 'VALID', 'FILE'],
        [v.workflow, String(v.valid), v.file],
      ],
      true,
    );
    return {
      stdout: head + (issues.length ? renderTable([['SEVERITY', 'CODE', 'PATH', 'MESSAGE'], ...issues], true) : ''),
      stderr: '',
    };
  }
  const warnings = v.warnings.map((w) => `warning: ${formatIssue(w)}\n`).join('');
  const about = [...(v.author ? [`Author: ${v.author}`] : []), ...(v.tags ? [`Tags: ${v.tags.join(', ')}`] : [])];
  if (v.valid)
    return { stdout: `Workflow '${v.workflow}' is valid\n${about.map((l) => `${l}\n`).join('')}`, stderr: warnings };
  return { stdout: '', stderr: v.errors.map((e) => `${formatIssue(e)}\n`).join('') + warnings };
}

/** `awf validate --dir`: one line per file, then the count (AWF's batch mode). */
export function renderBatch(reports: ValidationReport[], format: OutputFormat): string {
  const strip = (i: ValidationReport['errors'][number]) => ({ code: i.code, path: i.path, message: i.message });
  if (format === 'json') {
    const workflows = reports.map((v) => ({
      valid: v.valid,
      workflow: v.workflow,
      file: v.file,
      errors: v.errors.map(strip),
      warnings: v.warnings.map(strip),
    }));
    return jsonLine({ valid: reports.every((r) => r.valid), workflows });
  }
  if (format === 'quiet') return reports.map((r) => `${r.valid ? 'valid' : 'invalid'}  ${r.workflow}\n`).join('');
  if (format === 'table')
    return renderTable(
      [['WORKFLOW', 'VALID', 'ERRORS'], ...reports.map((r) => [r.workflow, String(r.valid), String(r.errors.length)])],
      true,
    );
  const lines = reports.map((r) =>
    r.valid
      ? `  OK    ${r.workflow}`
      : `  FAIL  ${r.workflow}: ${r.errors.map((e) => formatIssue(e).split('\n')[0]).join('; ')}`,
  );
  if (reports.every((r) => r.valid)) lines.push(`All ${reports.length} workflow(s) valid`);
  return `${lines.join('\n')}\n`;
}
