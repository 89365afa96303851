import { resultText, type ToolResult } from '../../domain/model/tool-result';
import { errorSummary, withoutArgValues } from './args-shape';

export interface ToolCallOutcome {
  status: 'ok' | 'error';
  error?: string;
}

/**
 * A failed tool is a successful response with `isError`: that is what counts as an error here.
 * Its text names what the agent sent (`notes-2026.txt does not exist`), so every argument value
 * in it is replaced by the argument's name: logs, spans and the audit trail keep the shape of a
 * call, never its values. The policy rule that refused the call (`rule`) stays as written.
 */
export function outcomeOf(
  result: ToolResult,
  args: Readonly<Record<string, unknown>> = {},
  rule?: string,
): ToolCallOutcome {
  return result.isError
    ? { status: 'error', error: withoutArgValues(errorSummary(resultText(result)), args, rule) }
    : { status: 'ok' };
}

/** Milliseconds since `started` (a `performance.now()` reading), to a tenth. */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/**
 * Order of the observability interceptors (lower runs first), inside the policy (-500): a call
 * the policy refuses reaches them as `call.refused` and is still counted, traced, audited, logged.
 */
export const INTERCEPTOR_ORDER = { telemetry: -300, audit: -200, log: -100 } as const;
