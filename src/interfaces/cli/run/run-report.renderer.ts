import { reportJson, type RunReport } from '../../../domain/workflow/run-report.model';
import { jsonLine, type OutputFormat } from '../global-flags';

/** stdout of `awf run`: the run's output (text), or the whole report as one JSON object (`--no-hints`: no hints). */
export function renderRunReport(
  report: RunReport,
  format: OutputFormat,
  mask: (s: string) => string,
  hints = true,
): string {
  if (format === 'json') return mask(jsonLine(reportJson(hints ? report : withoutHints(report))));
  // A cancelled step's partial output is not the run's output.
  if (!report.output || report.status === 'cancelled') return '';
  return mask(report.output.endsWith('\n') ? report.output : `${report.output}\n`);
}

function withoutHints(report: RunReport): RunReport {
  const bare = <T extends { error?: { hint?: string } }>(x: T): T => {
    if (!x.error?.hint) return x;
    const { hint: _hint, ...error } = x.error;
    return { ...x, error };
  };
  return { ...bare(report), steps: report.steps.map(bare) };
}
