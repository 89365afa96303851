/** A JSON object: not null, not an array. Tool arguments, JSON-RPC params and config sections must be one. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
