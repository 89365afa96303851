import { ErrorCodes } from '../errors/error-codes';
import { parseDurationMs } from './duration';
import { isMap, type Raw, str } from './raw-yaml';
import { type ValidationIssue, issue } from './validation-issue.model';
import type { AgentStep, RetryConfig, Transition } from './workflow.model';

// The fields that several step types share (routing, timeout, retry) and an agent's conversation
// fields, each read with every problem collected.

/** `mode`, `system_prompt`, `conversation: {continue_from}` and `output_format` of an agent step. */
export function parseAgentConversation(
  raw: Raw,
  at: string,
  issues: ValidationIssue[],
): Pick<AgentStep, 'mode' | 'systemPrompt' | 'continueFrom' | 'outputFormat'> {
  const mode = raw.mode === undefined || raw.mode === '' ? 'single' : raw.mode;
  if (mode !== 'single' && mode !== 'conversation')
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.mode`,
        `mode must be single or conversation, not ${JSON.stringify(raw.mode)}`,
      ),
    );
  const format = raw.output_format === undefined || raw.output_format === '' ? undefined : raw.output_format;
  if (format !== undefined && format !== 'json' && format !== 'text')
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.output_format`,
        `output_format must be json or text, not ${JSON.stringify(raw.output_format)}`,
      ),
    );
  if (raw.conversation !== undefined && raw.conversation !== null && !isMap(raw.conversation))
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.conversation`,
        'conversation must be a mapping like {continue_from: step}',
      ),
    );
  const continueFrom = isMap(raw.conversation) ? str(raw.conversation.continue_from) : undefined;
  return {
    mode: mode === 'conversation' ? 'conversation' : 'single',
    systemPrompt: str(raw.system_prompt),
    continueFrom: continueFrom || undefined,
    outputFormat: format === 'json' || format === 'text' ? format : undefined,
  };
}

export function parseTransitions(raw: unknown, at: string, issues: ValidationIssue[]): Transition[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    issues.push(
      issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.transitions`, 'transitions must be a list of {when, goto}'),
    );
    return [];
  }
  const out: Transition[] = [];
  raw.forEach((t, i) => {
    const goto = isMap(t) ? str(t.goto) : undefined;
    if (!isMap(t) || !goto) {
      issues.push(
        issue(ErrorCodes.WORKFLOW_MISSING_FIELD, `${at}.transitions[${i}].goto`, 'a transition needs a goto'),
      );
      return;
    }
    out.push({ goto, when: t.when === undefined || t.when === null ? undefined : String(t.when) });
  });
  return out;
}

export function parseTimeout(raw: unknown, at: string, issues: ValidationIssue[]): number {
  if (raw === undefined || raw === null) return 0;
  const ms = parseDurationMs(raw);
  if (ms === undefined) {
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.timeout`,
        `timeout must be seconds or a duration like "90s" or "2m", not ${JSON.stringify(raw)}`,
      ),
    );
    return 0;
  }
  return ms;
}

export function parseRetry(raw: unknown, at: string, issues: ValidationIssue[]): RetryConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isMap(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, 'retry must be a mapping'));
    return undefined;
  }
  const bad = (key: string, why: string): void =>
    void issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.${key}`, why));
  const maxAttempts = raw.max_attempts === undefined ? 1 : Number(raw.max_attempts);
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) bad('max_attempts', 'max_attempts must be an integer ≥ 1');
  const delay = (key: string): number | undefined => {
    if (raw[key] === undefined) return undefined;
    const ms = parseDurationMs(raw[key]);
    if (ms === undefined) bad(key, `${key} must be seconds or a duration like "2s"`);
    return ms;
  };
  const backoff = raw.backoff === undefined ? 'constant' : String(raw.backoff);
  if (!['constant', 'linear', 'exponential'].includes(backoff))
    bad('backoff', 'backoff must be constant, linear or exponential');
  const multiplier = raw.multiplier === undefined ? 2 : Number(raw.multiplier);
  if (!(multiplier >= 0)) bad('multiplier', 'multiplier must be a number ≥ 0');
  const jitter = raw.jitter === undefined ? 0 : Number(raw.jitter);
  if (!(jitter >= 0 && jitter <= 1)) bad('jitter', 'jitter must be between 0 and 1');
  const codes = raw.retryable_exit_codes ?? [];
  if (!Array.isArray(codes) || codes.some((c) => !Number.isInteger(c)))
    bad('retryable_exit_codes', 'retryable_exit_codes must be a list of integers');
  return {
    maxAttempts: Number.isInteger(maxAttempts) && maxAttempts >= 1 ? maxAttempts : 1,
    initialDelayMs: delay('initial_delay') ?? 1000,
    maxDelayMs: delay('max_delay'),
    backoff: backoff as RetryConfig['backoff'],
    multiplier: multiplier >= 0 ? multiplier : 2,
    jitter: jitter >= 0 && jitter <= 1 ? jitter : 0,
    retryableExitCodes: Array.isArray(codes) ? codes.filter(Number.isInteger) : [],
  };
}
