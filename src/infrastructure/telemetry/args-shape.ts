/** More keys than this are summarised, so a hostile argument object cannot bloat a log line. */
const MAX_KEYS = 32;

const computed = new WeakMap<object, Readonly<Record<string, number | string>>>();

/**
 * The shape of a call's arguments: name → string length, array length, or the type name
 * for anything else. Logs, spans and the audit trail carry this instead of values, which
 * may hold file contents, commands or secrets.
 */
export function argsShape(args: Readonly<Record<string, unknown>>): Readonly<Record<string, number | string>> {
  // The span, the log line and the audit line each ask for the same call's shape: work it out once.
  const known = computed.get(args);
  if (known) return known;
  const shape: Record<string, number | string> = {};
  const keys = Object.keys(args);
  for (const key of keys.slice(0, MAX_KEYS)) {
    const value = args[key];
    shape[key] = typeof value === 'string' || Array.isArray(value) ? value.length : value === null ? 'null' : typeof value;
  }
  if (keys.length > MAX_KEYS) shape['…'] = `${keys.length - MAX_KEYS} more keys`;
  computed.set(args, shape);
  return shape;
}

/** The first line of an error result, cut to `max` characters: enough to act on, never a whole dump. */
export function errorSummary(text: string, max = 500): string {
  const line = text.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
