/** A YAML mapping as the parser reads it, before any of its keys are checked. */
export type Raw = Record<string, unknown>;

export function isMap(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A string or a number as text (YAML reads `version: 1.0` as a number). */
export function scalar(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** Scalars as text: `while: true` and `items: 3` are written without quotes in YAML. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}
