import type { StepRecord } from '../../domain/ports/run-index.port';
import type { RunEvent } from '../../domain/ports/run-queue.port';
import type { RunObserver } from '../../domain/workflow/ports/run-observer.port';
import type { StepResult } from '../../domain/workflow/run-report.model';
import { maskedJson } from '../../domain/model/masked-json';

/** A worker's side: what the run does, as events on the queue (followers and the next worker read them), masked. */
export class PublishingObserver implements RunObserver {
  private readonly publish: (event: RunEvent) => void;

  constructor(
    publish: (event: RunEvent) => void,
    private readonly worker: string,
    mask: (s: string) => string,
  ) {
    this.publish = (event) => publish(maskedJson(event, { mask }));
  }

  runStarted(runId: string, workflow: string): void {
    this.publish({ t: 'started', run_id: runId, workflow, worker: this.worker });
  }
  stepStarted(step: string, type: string): void {
    this.publish({ t: 'step', step, type });
  }
  stepFinished(report: StepResult): void {
    this.publish({ t: 'finished', report });
  }
  stepRecorded(step: StepResult): void {
    this.publish({ t: 'recorded', step });
  }
  stepRetrying(step: string, attempt: number, delayMs: number): void {
    this.publish({ t: 'retrying', step, attempt, delay_ms: delayMs });
  }
  stepOutput(step: string, stream: 'stdout' | 'stderr', text: string): void {
    this.publish({ t: 'output', step, stream, text });
  }
  warn(message: string): void {
    this.publish({ t: 'warn', message });
  }
  info(message: string): void {
    this.publish({ t: 'info', message });
  }
  log(message: string): void {
    this.publish({ t: 'log', message });
  }
}

/** A follower's side: one event drawn as a local run draws it (the same RunObserver calls). */
export function replay(event: RunEvent, observer: RunObserver, seen: { started: boolean }): void {
  switch (event.t) {
    case 'started':
      // A second start is another worker taking the run over: said once, not as a new run.
      if (seen.started) observer.info?.(`run ${event.run_id} goes on on worker ${event.worker}`);
      else observer.runStarted?.(event.run_id, event.workflow);
      seen.started = true;
      return;
    case 'step':
      return observer.stepStarted(event.step, event.type);
    case 'finished':
      return observer.stepFinished(event.report);
    case 'recorded':
      // A follower draws it; the worker's history has already checkpointed it.
      void observer.stepRecorded?.(event.step);
      return;
    case 'retrying':
      return observer.stepRetrying?.(event.step, event.attempt, event.delay_ms);
    case 'output':
      return observer.stepOutput?.(event.step, event.stream, event.text);
    case 'warn':
    case 'info':
    case 'log':
      return observer[event.t]?.(event.message);
    case 'handed-back':
      return observer.info?.(`worker ${event.worker} is stopping: the run waits for another worker`);
    case 'approval':
      return observer.info?.(
        `step ${event.approval.step} waits for a person to approve ${event.approval.tool} (${event.approval.rule}):` +
          ` answer it through awf serve (approval ${event.approval.approval_id})`,
      );
    case 'approval-resolved':
      return observer.info?.(
        `approval ${event.approval_id}: ${event.answer === 'deny' ? 'denied' : 'approved'} (${event.by})`,
      );
    case 'end':
      return;
  }
}

/**
 * The checkpoint earlier attempts left: the steps they recorded (as the history keeps them) and
 * the step in flight when they stopped (absent: the one after the last recorded step).
 */
export function checkpointOf(events: RunEvent[]): { done: StepRecord[]; current?: string } {
  const done: StepRecord[] = [];
  let current: string | undefined;
  for (const e of events) {
    if (e.t === 'step') current = e.step;
    if (e.t !== 'recorded') continue;
    done.push({ ...e.step, seq: done.length });
    current = e.step.next;
  }
  return { done, ...(current ? { current } : {}) };
}
