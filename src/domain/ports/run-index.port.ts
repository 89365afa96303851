import type { ToolCallEvent } from '../model/tool-call-event';
import type { StepResult } from '../workflow/run-report.model';

export type RunStatus = 'running' | 'success' | 'failure' | 'cancelled';

/** What a run is started with: enough to resume it (its secret inputs are left out). */
export interface RunStart {
  run_id: string;
  workflow: string;
  file: string;
  cwd: string;
  inputs: Record<string, string>;
  started_at: string;
}

/** One finished step as the history keeps it: its result, numbered in the run (`state` is what resume seeds). */
export interface StepRecord extends StepResult {
  seq: number;
}

export interface RunOutcome {
  status: Exclude<RunStatus, 'running'>;
  finished_at: string;
  duration_ms: number;
  terminal?: string;
  error?: { code: string; message: string };
}

export interface RunSummary {
  run_id: string;
  workflow: string;
  file: string;
  cwd: string;
  /** `running` with a process that is gone reads as `interrupted`. */
  status: RunStatus | 'interrupted';
  started_at: string;
  finished_at?: string;
  duration_ms?: number;
  /** The step running now, or the one running when the run stopped. */
  current_step?: string;
  steps: number;
  terminal?: string;
  error?: { code: string; message: string };
}

export interface RunDetail extends RunSummary {
  inputs: Record<string, string>;
  step_records: StepRecord[];
}

/** One step's tool calls as the database keeps them (`awf runs show`). */
export interface StepToolCalls {
  step: string;
  seq: number;
  events: ToolCallEvent[];
}

export interface RunQuery {
  workflow?: string;
  status?: string;
  /** ISO time: runs started at or after it. */
  since?: string;
  /** ISO time: runs started before it. */
  until?: string;
  /** A page's end: only runs listed after this one (older, or as old with a smaller id). */
  after?: { started_at: string; run_id: string };
  limit?: number;
}

/** Finished runs counted by outcome (`interrupted` counts as a failure); the mean of their durations. */
export interface RunStats {
  total: number;
  success: number;
  failure: number;
  cancelled: number;
  avg_duration_ms: number;
}

/** What opening the history applied to its schema (`awf history migrate` says it). */
export interface HistoryMigration {
  /** The history as messages show it: the SQLite file, or the PostgreSQL URL with its password masked. */
  history: string;
  applied: string[];
  version: string;
  /** The copy of the SQLite file made before it was migrated. */
  backup?: string;
}

/**
 * Run state and history: `<storage>/history.db` (SQLite, WAL, shared by concurrent runs) or a
 * shared PostgreSQL database (`--history`, AWF_HISTORY_URL). Every write is one transaction, so a
 * killed `awf run` leaves the steps it finished. Opened and migrated on first use.
 *
 * - `begin` records a run (or, on resume, marks it running again); `stepStarted` the step in flight;
 * - `stepFinished` stores the step and ingests its audit JSONL (agent steps) in one transaction;
 * - `resolve` maps a unique id prefix to the id: `USER.RUN.NOT_FOUND`, `USER.RUN.AMBIGUOUS_ID`;
 * - `list` gives runs newest first (ties by id, descending), so `after` pages through them;
 * - `stats` counts the finished runs `list` would give (running ones are left out);
 * - `toolCalls` gives a run's tool calls, step by step, in the order they were made;
 * - `prune` deletes finished runs started before `before`, with their directories, and returns them;
 * - `migrate` opens the history and says what its migration did.
 * A missing native SQLite build is `SYSTEM.HISTORY.UNAVAILABLE`; a PostgreSQL that does not answer
 * `SYSTEM.HISTORY.UNREACHABLE`; a schema newer than this awf `SYSTEM.HISTORY.TOO_NEW`.
 */
export interface RunIndex {
  begin(run: RunStart): Promise<void>;
  stepStarted(runId: string, step: string): Promise<void>;
  stepFinished(runId: string, step: StepRecord, eventsPath?: string): Promise<void>;
  finish(runId: string, outcome: RunOutcome): Promise<void>;
  list(query: RunQuery): Promise<RunSummary[]>;
  stats(query: Omit<RunQuery, 'after' | 'limit'>): Promise<RunStats>;
  resolve(idOrPrefix: string): Promise<string>;
  get(runId: string): Promise<RunDetail>;
  toolCalls(runId: string): Promise<StepToolCalls[]>;
  prune(before: string): Promise<string[]>;
  migrate(): Promise<HistoryMigration>;
}

export const RUN_INDEX = Symbol.for('awf.RunIndex');

export const RUN_HISTORY = Symbol.for('awf.RunHistory');
