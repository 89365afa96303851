import type { StepReport } from '../run-report.model';

/** Receives progress as the run goes, so the CLI can draw it; the runner never prints. */
export interface RunObserver {
  stepStarted(step: string, type: string): void;
  stepFinished(report: StepReport): void;
  /** A retry attempt failed and another follows after `delayMs`. */
  stepRetrying?(step: string, attempt: number, delayMs: number): void;
  warn?(message: string): void;
  /** A hook's `log:` line, or a line a hook command printed. */
  log?(message: string): void;
}
