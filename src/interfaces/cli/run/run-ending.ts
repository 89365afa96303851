import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { RunReport } from '../../../domain/workflow/run-report.model';
import { markShown } from '../cli-errors';
import type { GlobalFlags } from '../global-flags';
import type { RunProgressRenderer } from './run-progress.renderer';
import { renderRunReport } from './run-report.renderer';

/**
 * How a run ends on the terminal, local or followed on a queue: its output (or JSON report) on
 * stdout, the closing line, and a failed run turned into its coded error (the exit code).
 */
export function endRun(
  report: RunReport,
  how: { flags: GlobalFlags; progress: RunProgressRenderer; mask: (s: string) => string; printed: boolean },
  { resumable } = { resumable: true },
): void {
  const { flags, progress } = how;
  // The step lines already showed the last step's output; a terminal's message is still printed.
  const shown = how.printed && report.output === report.steps.at(-1)?.output;
  if (!shown || flags.format === 'json')
    process.stdout.write(renderRunReport(report, flags.format, how.mask, flags.hints));
  // -f json: the report has how it ended; no closing line.
  const errorShown = flags.format !== 'json' && progress.runFinished(report, { resumable });
  if (report.status === 'failure' && report.error) {
    const error = new AwfError(
      report.error.code as AwfError['code'],
      report.error.message,
      { run_id: report.run_id, terminal: report.terminal },
      report.error.hint,
    );
    throw errorShown ? markShown(error) : error;
  }
}

/** A followed run that was cancelled on the queue exits 3, as a run that did not do its work (its line says why). */
export function failIfCancelled(report: RunReport): void {
  if (report.status !== 'cancelled') return;
  throw markShown(
    new AwfError(ErrorCodes.QUEUE_CANCELLED, `run ${report.run_id} was cancelled`, { run_id: report.run_id }),
  );
}
