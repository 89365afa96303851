import type { QueuedApproval } from '../../domain/ports/run-queue.port';

/**
 * The event kinds of AWF's run stream (its SSE `kind`), in the order a run makes them.
 * `step.failed` is a step that ended without success; `workflow.completed` and
 * `workflow.failed` end the stream (`status: cancelled` on the latter for a cancelled run).
 */
export const RUN_EVENT_KINDS = [
  'run.started',
  'step.started',
  'step.call_workflow.started',
  'tool.call',
  'tool.result',
  'step.call_workflow.completed',
  'step.completed',
  'step.failed',
  'input.required',
  'message.user',
  'approval.required',
  'approval.resolved',
  'run.completed',
  'workflow.completed',
  'workflow.failed',
] as const;

export type RunEventKind = (typeof RUN_EVENT_KINDS)[number];

/** One event of a run; `seq` counts from 1 and only grows, across a resume too. */
export interface RunEvent {
  kind: RunEventKind;
  run_id: string;
  seq: number;
  status?: string;
  step?: string;
  error?: string;
  prompt?: string;
  prompt_id?: string;
  tool?: string;
  /** `approval.required` / `approval.resolved`: the question, and once decided its answer. */
  approval?: ApprovalView;
}

/** A call that waits for a person's approval (GET …/approvals lists these); arguments masked. */
export interface ApprovalView extends Omit<QueuedApproval, 'scopes'> {
  /** A run on a worker says what may be answered (ADR 310). */
  scopes?: QueuedApproval['scopes'];
  /** Once decided: `approve` or `deny`, for this call (`once`) or the rest of the step (`step`). */
  decision?: 'approve' | 'deny';
  scope?: 'once' | 'step' | 'exact';
  /** A token's name, `local`, or `timeout` when nobody answered in time. */
  by?: string;
  resolved_at?: string;
}

export type NewRunEvent = Omit<RunEvent, 'run_id' | 'seq'>;

/** Who reads a run's events: each one as it comes, then `end` once the stream is over. */
export interface RunEventListener {
  event(event: RunEvent): void;
  end(): void;
}

const TERMINAL: ReadonlySet<RunEventKind> = new Set(['workflow.completed', 'workflow.failed']);

export const isTerminal = (kind: RunEventKind): boolean => TERMINAL.has(kind);

/**
 * The events of one run as this process saw them: the last `capacity` of them kept for a
 * listener that comes late or comes back (`Last-Event-ID`), and every listener told of each
 * new one. A terminal event ends every listener; a resume opens the log again.
 */
export class RunEventLog {
  private readonly kept: RunEvent[] = [];
  private readonly listeners = new Set<RunEventListener>();
  private seq = 0;
  private ended = false;

  constructor(
    readonly runId: string,
    private readonly capacity = 1024,
  ) {}

  get finished(): boolean {
    return this.ended;
  }

  get listening(): number {
    return this.listeners.size;
  }

  emit(event: NewRunEvent): void {
    const { kind, ...rest } = event;
    const full: RunEvent = { kind, run_id: this.runId, seq: ++this.seq, ...rest };
    this.kept.push(full);
    if (this.kept.length > this.capacity) this.kept.shift();
    for (const l of this.listeners) l.event(full);
    if (isTerminal(kind)) {
      this.ended = true;
      this.close();
    }
  }

  /** A resumed run writes on after its last event. */
  reopen(): void {
    this.ended = false;
  }

  /** Replays the kept events after `after` (a seq), then follows; returns how to stop following. */
  subscribe(after: number, listener: RunEventListener): () => void {
    for (const e of this.kept) if (e.seq > after) listener.event(e);
    if (this.ended) {
      listener.end();
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends every listener (the server is stopping, or the run is over). */
  close(): void {
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const l of listeners) l.end();
  }
}
