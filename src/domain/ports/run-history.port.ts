import type { ToolCallEvent } from '../model/tool-call-event';
import type { ToolCallSummary } from '../model/tool-call-summary';

/** What `run` records about itself in the run's directory (`run.json`). */
export interface RunRecordMeta {
  run_id: string;
  workflow?: string;
  status?: string;
  started_at?: string;
  finished_at?: string;
  /** Extra facts the runner wants kept (outputs, error); written as given. */
  [key: string]: unknown;
}

export interface StepEvents {
  step: string;
  summary: ToolCallSummary;
  events: ToolCallEvent[];
}

export interface RunRecord {
  meta: RunRecordMeta;
  dir: string;
  steps: StepEvents[];
}

/**
 * Each run's directory (`$XDG_DATA_HOME/awf/runs/<run_id>/`, default
 * `~/.local/share/awf/runs/...`, or `$AWF_STORAGE/runs/...`): the audit trail of every step
 * (`<step>.events.jsonl`) and the run's own record (`run.json`).
 *
 * - `allocate` creates the directory (mode 0700) and returns it; idempotent. `dirOf` only names it.
 * - `eventsPath` is where a step's proxy appends its audit lines (absolute).
 * - `readEvents` never throws for a missing file (a step that called no tool) and skips
 *   lines that do not parse (a process killed mid-line), so a summary is always possible.
 * - `appendEvents` adds lines to a step's audit trail written by `run` itself (the tools an agent
 *   used around the proxy), once the step's `mcp-serve` is gone; it never throws (a full disk
 *   costs the record, not the run).
 * - `startEvents` begins a step attempt's trail: lines an earlier attempt left at `path` (a run
 *   killed mid-step, or the step's earlier visit) are moved beside it, kept but not counted
 *   again; it never throws.
 * - `saveMeta` replaces `run.json` atomically, in `dir` or else the run's own directory.
 * - `load` rejects with `USER.RUN.NOT_FOUND` for an unknown or malformed id.
 */
export interface RunHistory {
  allocate(runId: string): string;
  /** Where the run's directory is (or would be); creates nothing. */
  dirOf(runId: string): string;
  eventsPath(runId: string, step: string): string;
  readEvents(path: string): ToolCallEvent[];
  appendEvents(path: string, events: readonly ToolCallEvent[]): void;
  startEvents(path: string): void;
  saveMeta(meta: RunRecordMeta, dir?: string): void;
  load(runId: string): RunRecord;
}

export const RUN_HISTORY = Symbol.for('awf.RunHistory');
