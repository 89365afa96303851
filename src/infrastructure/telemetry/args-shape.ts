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
    shape[key] =
      typeof value === 'string' || Array.isArray(value) ? value.length : value === null ? 'null' : typeof value;
  }
  if (keys.length > MAX_KEYS) shape['…'] = `${keys.length - MAX_KEYS} more keys`;
  computed.set(args, shape);
  return shape;
}

/** Values this short are left in place: replacing every `a` or `-n` would garble the text, and says little. */
const MIN_REDACTED = 3;

/**
 * `text` with each string argument value (top level, and strings in arrays) replaced by `<name>`,
 * longest first. `keep` (the policy rule that decided the call, as its author wrote it) is left
 * as it is, so a denial still names its rule when the rule's pattern is the argument itself.
 */
export function withoutArgValues(text: string, args: Readonly<Record<string, unknown>>, keep?: string): string {
  if (keep && text.includes(keep))
    return text
      .split(keep)
      .map((part) => withoutArgValues(part, args))
      .join(keep);
  const values: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(args).slice(0, MAX_KEYS)) {
    if (typeof value === 'string') values.push([value, name]);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') values.push([item, name]);
  }
  values.sort((a, b) => b[0].length - a[0].length);
  for (const [value, name] of values) if (value.length >= MIN_REDACTED) text = text.split(value).join(`<${name}>`);
  return text;
}

/** The first line of an error result, cut to `max` characters: enough to act on, never a whole dump. */
export function errorSummary(text: string, max = 500): string {
  const line = text.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
