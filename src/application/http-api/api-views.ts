import type { RunDetail, RunStats, RunSummary } from '../../domain/ports/run-index.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { WorkflowSummary } from '../../domain/workflow/ports/workflow-repository.port';

/**
 * The bodies of AWF's API (its field names and status words), made from what awf keeps.
 * A client written for AWF reads them unchanged; the fields AWF lacks are additions.
 */

/** AWF's status words: a run whose process is gone (`interrupted`) failed, and can be resumed. */
const AWF_STATUS: Readonly<Record<RunSummary['status'], string>> = {
  running: 'running',
  success: 'completed',
  failure: 'failed',
  cancelled: 'cancelled',
  interrupted: 'failed',
};

/** AWF's words in a query, as the history's; awf's own words pass as they are. */
export function runStatusOf(word: string): string {
  return { completed: 'success', failed: 'failure' }[word] ?? word;
}

const RESUMABLE: ReadonlySet<string> = new Set(['failure', 'cancelled', 'interrupted']);

export function workflowListView(list: WorkflowSummary[]) {
  return {
    workflows: list.map((w) => ({
      name: w.name,
      scope: w.source,
      // AWF's bare workflow name: a pack's `<pack>/<workflow>` without its pack.
      workflow: w.name.startsWith(`${w.source}/`) ? w.name.slice(w.source.length + 1) : w.name,
      version: w.version ?? '',
      description: w.description ?? '',
    })),
  };
}

export function executionView(run: RunSummary, masker: SecretMasker) {
  return {
    execution_id: run.run_id,
    workflow_name: run.workflow,
    status: AWF_STATUS[run.status],
    current_step: run.current_step ?? '',
    started_at: run.started_at,
    updated_at: run.finished_at ?? run.started_at,
    finished_at: run.finished_at ?? null,
    duration_ms: run.duration_ms ?? null,
    resumable: RESUMABLE.has(run.status),
    ...(run.error ? { error: { code: run.error.code, message: masker.mask(run.error.message) } } : {}),
  };
}

/** One run with its inputs (secret ones are never stored) and its steps as recorded. */
export function executionDetailView(run: RunDetail, masker: SecretMasker) {
  const last = run.step_records.at(-1);
  const lastEnd = last && new Date(Date.parse(last.started_at) + last.duration_ms).toISOString();
  return {
    ...executionView(run, masker),
    updated_at: run.finished_at ?? lastEnd ?? run.started_at,
    inputs: Object.fromEntries(Object.entries(run.inputs).map(([k, v]) => [k, masker.mask(v)])),
    steps: run.step_records.map((s) => ({
      name: s.name,
      type: s.type === 'step' ? 'command' : s.type, // AWF's name for a shell step
      status: AWF_STATUS[s.status as RunSummary['status']] ?? s.status,
      started_at: s.started_at,
      duration_ms: s.duration_ms,
      exit_code: s.exit_code,
      tool_calls: s.tool_calls,
      output: capped(masker.mask(s.state?.Output ?? '')),
      ...(s.error ? { error: { code: s.error.code, message: masker.mask(s.error.message) } } : {}),
    })),
  };
}

/** A step's output as the API gives it: its first 16 KiB, with what was left out counted. */
const MAX_OUTPUT = 16 * 1024;
function capped(text: string): string {
  return text.length <= MAX_OUTPUT
    ? text
    : `${text.slice(0, MAX_OUTPUT)}\n… (${text.length - MAX_OUTPUT} more characters)`;
}

/** AWF's history entry; a run still going has no `completed_at` yet. */
export function historyEntryView(run: RunSummary) {
  return {
    id: run.run_id,
    workflow_name: run.workflow,
    status: run.status === 'success' ? 'success' : AWF_STATUS[run.status],
    started_at: run.started_at,
    completed_at: run.finished_at ?? null,
    duration_ms: run.duration_ms ?? 0,
  };
}

/** AWF's stats carry Go's field names (its struct has no JSON tags). */
export function historyStatsView(stats: RunStats) {
  return {
    TotalExecutions: stats.total,
    SuccessCount: stats.success,
    FailedCount: stats.failure,
    CancelledCount: stats.cancelled,
    AvgDurationMs: stats.avg_duration_ms,
  };
}
