import type { RunReport } from '../../../domain/workflow/run-report.model';
import { jsonLine, type OutputFormat } from '../global-flags';

/** stdout of `awf run`: the run's output (text) or the whole report as one JSON object. */
export function renderRunReport(report: RunReport, format: OutputFormat, mask: (s: string) => string): string {
  if (format === 'json') return mask(jsonLine(report));
  // A cancelled step's partial output is not the run's output.
  if (!report.output || report.status === 'cancelled') return '';
  return mask(report.output.endsWith('\n') ? report.output : `${report.output}\n`);
}
