/**
 * How values print, and Go's fmt verbs for `printf`. One deliberate difference from Go's `%v`:
 * maps and lists print as JSON (Go prints `map[a:1]`, which no command or prompt can read), and
 * nil prints as nothing rather than `<no value>`.
 */
export function printValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Go's type names, for `%T` and for error messages. */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float64';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'function') return 'func';
  return 'map[string]interface {}';
}

/** fmt.Sprint: a space between operands when neither side is a string. */
export function sprint(args: unknown[]): string {
  let out = '';
  args.forEach((a, i) => {
    if (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += printValue(a);
  });
  return out;
}

/** fmt.Sprintln: always spaces, and a newline. */
export function sprintln(args: unknown[]): string {
  return `${args.map(printValue).join(' ')}\n`;
}

const VERB = /%([-+# 0]*)(\*|\d+)?(?:\.(\*|\d*))?([a-zA-Z%])/g;

/** fmt.Sprintf for the verbs templates use: v s q d b o x X c e E f F g G t T and %%. */
export function sprintf(format: string, args: unknown[]): string {
  let next = 0;
  const take = (): { ok: boolean; value?: unknown } =>
    next < args.length ? { ok: true, value: args[next++] } : { ok: false };
  const out = format.replace(
    VERB,
    (_all, flags: string, width: string | undefined, precision: string | undefined, verb: string) => {
      if (verb === '%') return '%';
      const w = width === '*' ? Number(take().value) : width ? Number(width) : undefined;
      const p = precision === '*' ? Number(take().value) : precision !== undefined ? Number(precision || 0) : undefined;
      const arg = take();
      if (!arg.ok) return `%!${verb}(MISSING)`;
      const text = formatVerb(verb, flags, p, arg.value);
      return pad(text, w, flags, typeof arg.value === 'number');
    },
  );
  if (next < args.length) {
    return `${out}%!(EXTRA ${args
      .slice(next)
      .map((a) => `${goTypeName(a)}=${printValue(a)}`)
      .join(', ')})`;
  }
  return out;
}

function formatVerb(verb: string, flags: string, precision: number | undefined, v: unknown): string {
  const bad = (): string => `%!${verb}(${goTypeName(v)}=${printValue(v)})`;
  const sign = (n: number, s: string): string =>
    n >= 0 && flags.includes('+') ? `+${s}` : flags.includes(' ') && n >= 0 ? ` ${s}` : s;
  switch (verb) {
    case 'v':
      return typeof v === 'string' && flags.includes('#') ? JSON.stringify(v) : printValue(v);
    case 's':
      return precision !== undefined ? printValue(v).slice(0, precision) : printValue(v);
    case 'q':
      if (typeof v === 'number' && Number.isInteger(v)) return `'${String.fromCodePoint(v)}'`;
      return typeof v === 'string' ? JSON.stringify(v) : bad();
    case 't':
      return typeof v === 'boolean' ? String(v) : bad();
    case 'T':
      return goTypeName(v);
    case 'c':
      return typeof v === 'number' && Number.isInteger(v) ? String.fromCodePoint(v) : bad();
    case 'd':
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      if ((verb === 'x' || verb === 'X') && typeof v === 'string') {
        const hex = Buffer.from(v, 'utf8').toString('hex');
        return verb === 'X' ? hex.toUpperCase() : hex;
      }
      if (typeof v !== 'number' || !Number.isInteger(v)) return bad();
      const base = { d: 10, b: 2, o: 8, x: 16, X: 16 }[verb];
      let s = Math.abs(v).toString(base);
      if (verb === 'X') s = s.toUpperCase();
      if (flags.includes('#') && verb !== 'd')
        s = (verb === 'o' ? '0' : verb === 'b' ? '0b' : verb === 'x' ? '0x' : '0X') + s;
      return sign(v, v < 0 ? `-${s}` : s);
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      if (typeof v !== 'number') return bad();
      const lower = verb.toLowerCase();
      let s =
        lower === 'f'
          ? v.toFixed(precision ?? 6)
          : lower === 'e'
            ? goExponent(v.toExponential(precision ?? 6))
            : precision !== undefined
              ? goExponent(String(Number(v.toPrecision(precision || 1))))
              : String(v);
      if (verb === 'E' || verb === 'G') s = s.toUpperCase();
      return sign(v, s);
    }
    default:
      return `%!${verb}(${goTypeName(v)}=${printValue(v)})`;
  }
}

/** JS writes `1e+2`; Go writes `1e+02`. */
function goExponent(s: string): string {
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

function pad(text: string, width: number | undefined, flags: string, numeric: boolean): string {
  if (width === undefined || text.length >= width) return text;
  if (flags.includes('-')) return text.padEnd(width, ' ');
  if (flags.includes('0') && numeric) {
    const neg = /^[+-]/.test(text) ? text[0] : '';
    return neg + text.slice(neg.length).padStart(width - neg.length, '0');
  }
  return text.padStart(width, ' ');
}
