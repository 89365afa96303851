import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/** `expect:` — a string the text must contain, or an object of checks. Default: no isError. */
export interface ScriptExpectation {
  is_error?: boolean;
  contains?: string[];
  not_contains?: string[];
  matches?: string;
}

export interface ScriptCall {
  tool: string;
  args: Record<string, unknown>;
  expect: ScriptExpectation;
}

export interface ScriptCallResult {
  tool: string;
  is_error: boolean;
  text: string;
}

export function parseScriptCalls(options: Readonly<Record<string, unknown>>, step: string): ScriptCall[] {
  const bad = (why: string): AwfError =>
    new AwfError(
      ErrorCodes.WORKFLOW_INVALID_FIELD,
      `states.${step}.options.calls: ${why}`,
      { step },
      'Write options.calls as a list of {tool, args, expect}.',
    );
  const raw = options.calls;
  if (!Array.isArray(raw) || raw.length === 0) throw bad('a non-empty list of tool calls is required');
  return raw.map((c: unknown, i) => {
    if (typeof c !== 'object' || c === null || typeof (c as { tool?: unknown }).tool !== 'string')
      throw bad(`entry ${i + 1} needs a tool name`);
    const { tool, args, expect } = c as { tool: string; args?: unknown; expect?: unknown };
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
      throw bad(`entry ${i + 1}: args must be a mapping`);
    return { tool, args: (args ?? {}) as Record<string, unknown>, expect: parseExpect(expect) };
  });
}

function parseExpect(raw: unknown): ScriptExpectation {
  if (raw === undefined || raw === null) return { is_error: false };
  if (typeof raw === 'string') return { is_error: false, contains: [raw] };
  const r = raw as Record<string, unknown>;
  const list = (v: unknown): string[] | undefined =>
    v === undefined ? undefined : Array.isArray(v) ? v.map(String) : [String(v)];
  return {
    is_error: typeof r.is_error === 'boolean' ? r.is_error : false,
    contains: list(r.contains),
    not_contains: list(r.not_contains),
    matches: typeof r.matches === 'string' ? r.matches : undefined,
  };
}

/** Undefined when the result meets the expectation, else why not. */
export function meetsExpectation(call: ScriptCall, result: ScriptCallResult): string | undefined {
  const e = call.expect;
  if (e.is_error !== undefined && result.is_error !== e.is_error) {
    return e.is_error
      ? 'succeeded but was expected to fail'
      : `failed: ${result.text.split('\n').slice(0, 3).join(' ')}`;
  }
  const missing = e.contains?.find((s) => !result.text.includes(s));
  if (missing !== undefined) return `output does not contain ${JSON.stringify(missing)}`;
  const present = e.not_contains?.find((s) => result.text.includes(s));
  if (present !== undefined) return `output contains ${JSON.stringify(present)}`;
  if (e.matches && !new RegExp(e.matches).test(result.text)) return `output does not match /${e.matches}/`;
  return undefined;
}
