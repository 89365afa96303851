import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { RunObserver } from '../../domain/workflow/ports/run-observer.port';
import type { RunReport, StepResult } from '../../domain/workflow/run-report.model';
import type { NewRunEvent, RunEventLog } from './run-event-log';

/** AWF's status words for how a run or a step ended. */
export const AWF_OUTCOME: Readonly<Record<RunReport['status'], string>> = {
  success: 'completed',
  failure: 'failed',
  cancelled: 'cancelled',
};

/**
 * Turns what the runner reports (a RunObserver, beside the run history's journal) into the
 * run's events. The log is known from `runStarted` on: nothing before it has a run id. Every
 * text that leaves (an error, a prompt) goes through the masker.
 */
export class RunEventsObserver implements RunObserver {
  private events?: RunEventLog;

  constructor(
    private readonly masker: SecretMasker,
    private readonly started: (runId: string) => RunEventLog,
  ) {}

  runStarted(runId: string): void {
    this.events = this.started(runId);
    this.emit({ kind: 'run.started', status: 'running' });
  }

  stepStarted(step: string, type: string): void {
    this.emit({ kind: 'step.started', step, status: 'running' });
    if (type === 'call_workflow') this.emit({ kind: 'step.call_workflow.started', step, status: 'running' });
  }

  stepFinished(report: StepResult): void {
    const step = report.name;
    // The proxy's audit trail is read once the step is over: its calls come out together, here.
    for (const call of report.events ?? []) {
      this.emit({ kind: 'tool.call', step, tool: call.tool });
      const failed = call.status === 'error';
      this.emit({
        kind: 'tool.result',
        step,
        tool: call.tool,
        status: failed ? 'failed' : 'completed',
        ...(failed && call.error ? { error: this.masker.mask(call.error) } : {}),
      });
    }
    const status = AWF_OUTCOME[report.status];
    const error = report.error ? { error: this.masker.mask(report.error.message) } : {};
    if (report.type === 'call_workflow') this.emit({ kind: 'step.call_workflow.completed', step, status, ...error });
    this.emit({ kind: report.status === 'success' ? 'step.completed' : 'step.failed', step, status, ...error });
  }

  /** The run is over: AWF's closing pair, then nothing more. */
  finished(report: RunReport): void {
    const status = AWF_OUTCOME[report.status];
    this.emit({ kind: 'run.completed', status });
    if (report.status === 'success') this.emit({ kind: 'workflow.completed', status });
    else this.failed(report.status === 'cancelled' ? 'cancelled' : this.masker.mask(report.error?.message ?? 'failed'));
  }

  /** AWF's error word for a cancelled run is `cancelled`; any other is the reason. */
  failed(error: string): void {
    this.emit({ kind: 'workflow.failed', status: error === 'cancelled' ? 'cancelled' : 'failed', error });
  }

  inputRequired(step: string, promptId: string, prompt: string): void {
    this.emit({ kind: 'input.required', step, prompt_id: promptId, prompt: this.masker.mask(prompt) });
  }

  answered(step: string): void {
    this.emit({ kind: 'message.user', step });
  }

  private emit(event: NewRunEvent): void {
    this.events?.emit(event);
  }
}
