import { hostname } from 'node:os';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import type { RunSummary, StepRecord } from '../../domain/ports/run-index.port';
import type { StepsTable, ToolCallsTable } from './history.tables';
import { isAlive } from '../core/owner-watch';

/** A row as the database driver returns it; the functions below make the RunIndex port's records of them. */
export type Row = Record<string, unknown>;

/** The event as written since the `event` column; a row of an older awf gets what it lacks. */
export function toolCall(r: Row): ToolCallEvent {
  if (typeof r.event === 'string') return JSON.parse(r.event) as ToolCallEvent;
  return {
    tool: String(r.tool),
    source: String(r.source),
    start: String(r.start),
    duration_ms: Number(r.duration_ms),
    status: r.status === 'error' ? 'error' : 'ok',
    ...(r.error ? { error: String(r.error) } : {}),
    args_shape: {},
  };
}

export function summary(r: Row): RunSummary {
  const status = String(r.status) as RunSummary['status'];
  return {
    run_id: String(r.run_id),
    workflow: String(r.workflow),
    file: String(r.file ?? ''),
    cwd: String(r.cwd ?? ''),
    // A run marked running whose process is gone was killed: it can be resumed. Another host's is not ours to tell.
    status: status === 'running' && onThisHost(r.host) && !ownerAlive(Number(r.pid)) ? 'interrupted' : status,
    started_at: String(r.started_at),
    steps: Number(r.step_count ?? 0),
    ...(r.finished_at ? { finished_at: String(r.finished_at) } : {}),
    ...(r.duration_ms !== null && r.duration_ms !== undefined ? { duration_ms: Number(r.duration_ms) } : {}),
    ...(r.current_step ? { current_step: String(r.current_step) } : {}),
    ...(r.terminal ? { terminal: String(r.terminal) } : {}),
    ...(r.error_code ? { error: { code: String(r.error_code), message: String(r.error_message ?? '') } } : {}),
  };
}

export function stepRecord(r: Row): StepRecord {
  const state = JSON.parse(String(r.state)) as StepRecord['state'];
  return {
    seq: Number(r.seq),
    name: String(r.name),
    // The columns hold what the journal wrote from a StepResult.
    type: String(r.type) as StepRecord['type'],
    status: String(r.status) as StepRecord['status'],
    started_at: String(r.started_at),
    duration_ms: Number(r.duration_ms),
    exit_code: Number(r.exit_code),
    output: state.Output,
    tool_calls: Number(r.tool_calls),
    state,
    ...(r.next ? { next: String(r.next) } : {}),
    ...(r.error_code ? { error: { code: String(r.error_code), message: String(r.error_message ?? '') } } : {}),
  };
}

/** The `steps` row of a finished step. */
export function stepRow(runId: string, step: StepRecord): StepsTable {
  return {
    run_id: runId,
    seq: step.seq,
    name: step.name,
    type: step.type,
    status: step.status,
    started_at: step.started_at,
    duration_ms: Math.round(step.duration_ms),
    exit_code: step.exit_code,
    tool_calls: step.tool_calls,
    state: JSON.stringify(step.state),
    next: step.next ?? null,
    error_code: step.error?.code ?? null,
    error_message: step.error?.message ?? null,
  };
}

/** The `tool_calls` row of a step's `seq`-th audit event, the whole event kept as JSON. */
export function toolCallRow(runId: string, stepSeq: number, seq: number, e: ToolCallEvent): ToolCallsTable {
  return {
    run_id: runId,
    step_seq: stepSeq,
    seq,
    tool: e.tool,
    source: e.source,
    status: e.status,
    start: e.start,
    duration_ms: e.duration_ms,
    error: e.error ?? null,
    event: JSON.stringify(e),
  };
}

export function notFound(id: string): AwfError {
  return new AwfError(
    ErrorCodes.RUN_NOT_FOUND,
    `no run "${id}" in the history`,
    { run_id: id },
    'Use the id that `awf run` printed (a unique prefix is enough); `awf history` lists past runs.',
  );
}

/** Rows from before the `host` column were all written on this machine. */
function onThisHost(host: unknown): boolean {
  return !host || host === hostname();
}

function ownerAlive(pid: number): boolean {
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}
