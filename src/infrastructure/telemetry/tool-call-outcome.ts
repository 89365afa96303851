import { resultText, type ToolResult } from '../../domain/model/tool-result';
import { errorSummary } from './args-shape';

export interface ToolCallOutcome {
  status: 'ok' | 'error';
  error?: string;
}

/** A failed tool is a successful response with `isError`: that is what counts as an error here. */
export function outcomeOf(result: ToolResult): ToolCallOutcome {
  return result.isError ? { status: 'error', error: errorSummary(resultText(result)) } : { status: 'ok' };
}

/** Milliseconds since `started` (a `performance.now()` reading), to a tenth. */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/**
 * Order of the observability interceptors: outermost of all (lower runs first), so a call
 * that a policy interceptor denies is still traced, logged and audited.
 */
export const INTERCEPTOR_ORDER = { tracing: -300, audit: -200, log: -100 } as const;
