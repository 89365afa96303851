/**
 * The run history's tables as Kysely types them: one schema for SQLite and PostgreSQL. Times
 * are ISO strings (TEXT) in both, so that they sort the same way and read back unchanged.
 */
export interface RunsTable {
  run_id: string;
  workflow: string;
  file: string | null;
  cwd: string | null;
  inputs: string;
  status: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  current_step: string | null;
  terminal: string | null;
  error_code: string | null;
  error_message: string | null;
  /** The process that runs it, on `host`: a shared history tells a killed run only on its own machine. */
  pid: number | null;
  host: string | null;
}

export interface StepsTable {
  run_id: string;
  seq: number;
  name: string;
  type: string;
  status: string;
  started_at: string;
  duration_ms: number;
  exit_code: number;
  tool_calls: number;
  /** JSON: the step's `states.<name>`, what `awf resume` seeds the later steps with. */
  state: string;
  next: string | null;
  error_code: string | null;
  error_message: string | null;
}

export interface ToolCallsTable {
  run_id: string;
  step_seq: number;
  seq: number;
  tool: string;
  source: string;
  status: string;
  start: string;
  duration_ms: number;
  error: string | null;
  /** JSON: the whole audit event (since migration 0002; rows from before have none). */
  event: string | null;
}

export interface HistoryTables {
  runs: RunsTable;
  steps: StepsTable;
  tool_calls: ToolCallsTable;
}
