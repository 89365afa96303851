import { formatToolCallSummary } from '../../../domain/model/tool-call-summary';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import { formatDuration } from '../../../domain/workflow/duration';
import type { RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { RunError, RunReport, StepResult } from '../../../domain/workflow/run-report.model';
import type { StepOutputPrinter } from './step-output.printer';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const MARK: Record<StepResult['status'], string> = { success: '✓', failure: '✗', cancelled: '■' };
/** Enough of a failed step's stderr tail to see why, without burying the progress. */
const MAX_DETAIL_LINES = 10;

/**
 * Progress on stderr: one line per finished step with its status and duration. On a TTY a
 * spinner shows the running step; elsewhere (CI, pipes) only the finished lines appear.
 */
export interface ProgressStyle {
  /** `-q`: nothing but failures. */
  quiet?: boolean;
  /** ANSI colours and the spinner (a TTY that is not TERM=dumb, see colorEnabled). */
  color?: boolean;
  /** `-o streaming|buffered`: the steps' output lines. */
  output?: StepOutputPrinter;
}

const PAINT: Record<StepResult['status'], string> = { success: '32', failure: '31', cancelled: '33' };
const ENDED: Record<RunReport['status'], string> = { success: 'succeeded', failure: 'failed', cancelled: 'cancelled' };

export class RunProgressRenderer implements RunObserver {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly masker: SecretMasker,
    private readonly style: ProgressStyle = {},
  ) {}

  /** AWF prints the id first, so a run that is killed can still be found and resumed. */
  runStarted(runId: string, workflow: string): void {
    if (!this.style.quiet) this.line(`Workflow started: ${workflow}\nWorkflow ID: ${runId}`);
  }

  stepStarted(step: string): void {
    if (!this.out.isTTY || !this.style.color || this.style.quiet) return;
    let frame = 0;
    const started = Date.now();
    this.stopSpinner();
    this.timer = setInterval(() => {
      this.out.write(
        `\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${this.masker.mask(step)} ${formatDuration(Date.now() - started)}`,
      );
    }, 100);
    this.timer.unref();
  }

  stepOutput(step: string, stream: 'stdout' | 'stderr', text: string): void {
    if (!this.style.output) return;
    this.stopSpinner();
    this.style.output.chunk(step, stream, text);
  }

  stepFinished(r: StepResult): void {
    this.stopSpinner();
    this.style.output?.finished(r);
    const detail = [
      r.status === 'failure' && r.exit_code > 0 ? `exit ${r.exit_code}` : '',
      r.tool_summary
        ? formatToolCallSummary(r.tool_summary)
        : r.type === 'agent'
          ? `${r.tool_calls} tool call${r.tool_calls === 1 ? '' : 's'}`
          : '',
      r.attempts ? `${r.attempts} attempts` : '',
    ]
      .filter(Boolean)
      .join(', ');
    if (this.style.quiet && r.status !== 'failure') return;
    const mark = this.style.color ? `\x1b[${PAINT[r.status]}m${MARK[r.status]}\x1b[0m` : MARK[r.status];
    this.line(`${mark} ${r.name}  ${r.status}  ${formatDuration(r.duration_ms)}${detail ? `  (${detail})` : ''}`);
    // Why a step failed matters even when on_failure recovers the run.
    // The lines after the first are the agent's last stderr lines: often the only clue.
    if (r.status === 'failure' && r.error) this.error(r.error, '    ');
  }

  /**
   * The run's closing line (`✓ name succeeded in 1.2s`, `✗ name failed at step b after 3.4s —
   * resume with: awf resume <id>`), after the run's error when no step line showed it. Returns
   * whether the run's error has been printed, so the caller does not print it again.
   */
  runFinished(report: RunReport, how: { resumable: boolean }): boolean {
    this.stopSpinner();
    const stopped = [...report.steps].reverse().find((s) => s.status !== 'success');
    const error = report.error;
    const shown =
      !!error && report.steps.some((s) => s.error?.code === error.code && s.error.message === error.message);
    if (error && !shown) this.error(error, '');
    if (this.style.quiet && report.status === 'success') return !!error;
    const where = stopped ? ` at step ${stopped.name}` : report.terminal ? ` at terminal ${report.terminal}` : '';
    const took = formatDuration(report.duration_ms);
    const resume = stopped && how.resumable ? ` — resume with: awf resume ${report.run_id}` : '';
    const mark =
      report.status === 'success' ? MARK.success : report.status === 'failure' ? MARK.failure : MARK.cancelled;
    const head = this.style.color ? `\x1b[${PAINT[report.status]}m${mark}\x1b[0m` : mark;
    const ended = ENDED[report.status];
    this.line(
      `${head} ${report.workflow} ${ended}${report.status === 'success' ? ` in ${took}` : `${where} after ${took}`}${resume}`,
    );
    return !!error;
  }

  stepRetrying(step: string, attempt: number, delayMs: number): void {
    this.stopSpinner();
    if (this.style.quiet) return;
    this.line(`↻ ${step}  attempt ${attempt} failed, retrying in ${formatDuration(delayMs)}`);
  }

  warn(message: string): void {
    this.line(`warning: ${message}`);
  }

  info(message: string): void {
    if (this.style.quiet) return;
    this.stopSpinner();
    this.line(message);
  }

  log(message: string): void {
    this.stopSpinner();
    this.line(message);
  }

  close(): void {
    this.stopSpinner();
  }

  /** `[CODE] message`, the message's later lines (often an agent's last stderr lines), the hint. */
  private error(error: RunError, indent: string): void {
    const [first, ...rest] = this.masker.mask(error.message).split('\n');
    this.line(`${indent}[${error.code}] ${first}`);
    for (const more of rest.slice(0, MAX_DETAIL_LINES)) this.line(`${indent}  ${more.trim()}`);
    if (error.hint) this.line(`${indent}  hint: ${error.hint}`);
  }

  private line(text: string): void {
    this.out.write(`${this.masker.mask(text)}\n`);
  }

  private stopSpinner(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.out.write('\r\x1b[2K');
  }
}
