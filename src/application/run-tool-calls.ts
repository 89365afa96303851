import { isAwfError } from '../domain/errors/awf-error';
import { ErrorCodes } from '../domain/errors/error-codes';
import { summarizeToolCalls } from '../domain/model/tool-call-summary';
import type { RunHistory, RunRecord } from '../domain/ports/run-history.port';
import type { RunIndex } from '../domain/ports/run-index.port';

/**
 * A run's tool calls step by step, as `awf runs show` prints them and the HTTP API gives them:
 * the run as the history keeps it (its row and every step's audit events, ingested as each step
 * ended), else the run directory a lone `mcp-serve` wrote. Rejects with USER.RUN.NOT_FOUND.
 */
export async function runToolCalls(index: RunIndex, runs: RunHistory, id: string): Promise<RunRecord> {
  return (await fromIndex(index, runs, id)) ?? runs.load(id);
}

async function fromIndex(index: RunIndex, runs: RunHistory, id: string): Promise<RunRecord | undefined> {
  let runId: string;
  try {
    runId = await index.resolve(id);
  } catch (err) {
    if (isAwfError(err) && err.code === ErrorCodes.RUN_NOT_FOUND) return undefined;
    throw err;
  }
  const run = await index.get(runId);
  const meta = {
    run_id: run.run_id,
    workflow: run.workflow,
    status: run.status,
    started_at: run.started_at,
    ...(run.finished_at ? { finished_at: run.finished_at } : {}),
  };
  const steps = (await index.toolCalls(runId)).map((s) => ({
    step: s.step,
    summary: summarizeToolCalls(s.events),
    events: s.events,
  }));
  return { meta, dir: runs.dirOf(runId), steps };
}

/** `awf runs show -f json`, and the body of GET /api/executions/{id}/tool-calls. */
export function runRecordJson(record: RunRecord): Record<string, unknown> {
  return { ...record.meta, dir: record.dir, steps: record.steps };
}
