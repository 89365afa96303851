import { isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { RunIndex, RunStart, StepRecord } from '../../../domain/ports/run-index.port';
import type { LoopData } from '../../../domain/workflow/interpolation.types';
import type { RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { RunReport, StepResult } from '../../../domain/workflow/run-report.model';
import { RelayObserver } from './relay-observer';
import { DEFAULT_HISTORY_OUTPUT_BYTES } from '../../../domain/workflow/output-truncation';
import { keepHeadAndTail } from './output-cap';
import { maskedJson } from '../../../domain/model/masked-json';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';

/**
 * Writes a run into the history as it goes, as a RunObserver next to the CLI's: the step in
 * flight when it starts, each step's state (and its audit JSONL) when it ends. The writes go
 * out in order, one after the other; the run waits for each step's before the next step (its
 * checkpoint) and for the last before it ends. The first write (`begin`) may fail the run
 * before any step; a later failure is one warning, since losing the record must not kill a run
 * that is working. What it writes is masked as logs are: a secret in a step's output is `***`
 * in `awf runs show`, the dashboard and a resumed run's `states`.
 */
export class RunJournal extends RelayObserver {
  private warned = false;
  /** The writes so far, chained: each starts when the one before it has ended. */
  private written: Promise<void> = Promise.resolve();

  /**
   * Records the run's start and journals it from there. Without SQLite's native build (an install
   * whose npm skipped better-sqlite3's build script) the run goes on unrecorded, with one warning:
   * the history is an index of runs, and losing it must not stop a user from running anything.
   * Any other failure to write it stops the run before its first step.
   */
  static async begin(
    index: RunIndex,
    run: Omit<RunStart, 'started_at'>,
    seq: number,
    eventsPath: (step: string) => string | undefined,
    masker: Pick<SecretMasker, 'mask'>,
    observer?: RunObserver,
    maxOutputBytes = DEFAULT_HISTORY_OUTPUT_BYTES,
  ): Promise<RunJournal | undefined> {
    try {
      await index.begin({ ...run, started_at: new Date().toISOString() });
    } catch (err) {
      if (!isAwfError(err) || err.code !== ErrorCodes.HISTORY_UNAVAILABLE) throw err;
      observer?.warn?.(`${err.message}; this run is not recorded in the history. ${err.hint ?? ''}`.trim());
      return undefined;
    }
    return new RunJournal(index, run.run_id, seq, eventsPath, masker, observer, maxOutputBytes);
  }

  constructor(
    private readonly index: RunIndex,
    private readonly runId: string,
    private seq: number,
    private readonly eventsPath: (step: string) => string | undefined,
    private readonly masker: Pick<SecretMasker, 'mask'>,
    inner?: RunObserver,
    private readonly maxOutputBytes = DEFAULT_HISTORY_OUTPUT_BYTES,
  ) {
    super(inner);
  }

  override stepStarted(step: string, type: string, loop?: LoopData): void {
    void this.safely(() => this.index.stepStarted(this.runId, step));
    super.stepStarted(step, type, loop);
  }

  override async stepRecorded(step: StepResult): Promise<void> {
    // The run goes on with the whole output; the history keeps a bounded, masked copy (head and tail).
    const { events, ...kept } = step;
    const masked = maskedJson(kept, this.masker);
    const output = keepHeadAndTail(masked.state.Output, this.maxOutputBytes);
    const record: StepRecord = {
      ...masked,
      ...(events ? { events } : {}),
      seq: this.seq++,
      output,
      state: { ...masked.state, Output: output, Stderr: keepHeadAndTail(masked.state.Stderr, this.maxOutputBytes) },
    };
    const checkpoint = this.safely(() =>
      // Agent steps' proxied calls and plugin operations' one call each have an audit trail.
      this.index.stepFinished(this.runId, record, step.tool_calls > 0 ? this.eventsPath(step.name) : undefined),
    );
    await Promise.all([checkpoint, super.stepRecorded(step)]);
  }

  finished(report: RunReport): Promise<void> {
    return this.safely(() =>
      this.index.finish(this.runId, {
        status: report.status,
        finished_at: new Date().toISOString(),
        duration_ms: report.duration_ms,
        ...(report.terminal ? { terminal: report.terminal } : {}),
        ...(report.error
          ? { error: { code: report.error.code, message: this.masker.mask(report.error.message) } }
          : {}),
      }),
    );
  }

  private safely(write: () => Promise<void>): Promise<void> {
    this.written = this.written.then(write).catch((err: unknown) => {
      if (this.warned) return;
      this.warned = true;
      this.inner?.warn?.(
        `the run history could not be written (${err instanceof Error ? err.message : String(err)}); the run goes on`,
      );
    });
    return this.written;
  }
}
