import type { LoopData } from '../../../domain/workflow/interpolation.types';
import type { AgentMessage, RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { StepResult } from '../../../domain/workflow/run-report.model';

/** A RunObserver that passes everything on to `inner`: a recorder overrides what it records. */
export class RelayObserver implements RunObserver {
  constructor(protected readonly inner?: RunObserver) {}

  runStarted(runId: string, workflow: string): void {
    this.inner?.runStarted?.(runId, workflow);
  }

  stepStarted(step: string, type: string, loop?: LoopData): void {
    this.inner?.stepStarted(step, type, loop);
  }

  stepFinished(report: StepResult, loop?: LoopData): void {
    this.inner?.stepFinished(report, loop);
  }

  calledWorkflow(step: string, runId: string, workflow: string, loop?: LoopData): RunObserver | undefined {
    return this.inner?.calledWorkflow?.(step, runId, workflow, loop);
  }

  agentMessage(step: string, message: AgentMessage, loop?: LoopData): void {
    this.inner?.agentMessage?.(step, message, loop);
  }

  stepRecorded(step: StepResult): void | Promise<void> {
    return this.inner?.stepRecorded?.(step);
  }

  stepRetrying(step: string, attempt: number, delayMs: number): void {
    this.inner?.stepRetrying?.(step, attempt, delayMs);
  }

  stepOutput(step: string, stream: 'stdout' | 'stderr', text: string): void {
    this.inner?.stepOutput?.(step, stream, text);
  }

  warn(message: string): void {
    this.inner?.warn?.(message);
  }

  info(message: string): void {
    this.inner?.info?.(message);
  }

  log(message: string): void {
    this.inner?.log?.(message);
  }
}
