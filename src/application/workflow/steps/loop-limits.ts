import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { DEFAULT_MAX_ITERATIONS, type LoopStep, MAX_ALLOWED_ITERATIONS } from '../../../domain/workflow/workflow.model';

/**
 * A for_each's rendered `items`: a JSON array, else comma-separated values, trimmed (AWF).
 * Unlike AWF, an empty text is no items rather than one empty item.
 */
export function parseItems(text: string): unknown[] {
  const t = text.trim();
  if (!t) return [];
  try {
    const parsed: unknown = JSON.parse(t);
    if (Array.isArray(parsed)) return parsed;
  } catch {
    // Not JSON: the comma form below.
  }
  return t.split(',').map((p) => p.trim());
}

/** The loop's limit: a fixed number, or its template rendered to an integer or arithmetic on integers. */
export function maxIterations(step: LoopStep, render: (text: string) => string): number {
  if (!step.maxIterationsExpr) return step.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  const text = render(step.maxIterationsExpr).trim();
  const value = /^-?\d+$/.test(text) ? Number(text) : arithmetic(text);
  if (value === undefined || !Number.isInteger(value)) {
    throw loopError(step, `max_iterations "${step.maxIterationsExpr}" gave "${text}", which is not an integer`);
  }
  if (value < 1 || value > MAX_ALLOWED_ITERATIONS)
    throw loopError(step, `max_iterations gave ${value}; it must be from 1 to ${MAX_ALLOWED_ITERATIONS}`);
  return value;
}

export function loopError(step: LoopStep, message: string): AwfError {
  return new AwfError(ErrorCodes.EXECUTION_LOOP_FAILED, `loop "${step.name}": ${message}`, { step: step.name });
}

/** + - * / % and parentheses over integers (`/` truncates, as Go's integer division). */
export function arithmetic(text: string): number | undefined {
  const tokens = text.match(/\d+|[-+*/%()]|\S/g) ?? [];
  let pos = 0;
  const peek = (): string | undefined => tokens[pos];
  const factor = (): number => {
    const t = tokens[pos++];
    if (t === '-') return -factor();
    if (t === '(') {
      const v = sum();
      if (tokens[pos++] !== ')') throw new Error('missing )');
      return v;
    }
    if (t === undefined || !/^\d+$/.test(t)) throw new Error(`unexpected ${t ?? 'end'}`);
    return Number(t);
  };
  const product = (): number => {
    let v = factor();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      const op = tokens[pos++];
      const r = factor();
      if (op !== '*' && r === 0) throw new Error('division by zero');
      v = op === '*' ? v * r : op === '/' ? Math.trunc(v / r) : v % r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === '+' || peek() === '-') v = tokens[pos++] === '+' ? v + product() : v - product();
    return v;
  };
  try {
    const v = sum();
    return pos === tokens.length ? v : undefined;
  } catch {
    return undefined;
  }
}
