import { goTypeName, printValue, sprint, sprintf, sprintln } from './go-format';

/** A template function: arity as Go checks it; `lazy` ones get thunks (and/or short-circuit). */
export interface TemplateFunction {
  min: number;
  /** Undefined: variadic. */
  max?: number;
  lazy?: boolean;
  call: (...args: unknown[]) => unknown;
}

/** A failure while executing a template that is not a missing key (Go's exec errors). */
export class TemplateExecError extends Error {}

const fail = (message: string): never => {
  throw new TemplateExecError(message);
};

/** Go's truth: false, 0, "", nil, and empty lists and maps are false; everything else is true. */
export function isTrue(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

type Kind = 'nil' | 'bool' | 'number' | 'string' | 'other';

function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  return 'other';
}

/** Go's eq: basic kinds compare by value; a nil is only equal to nil; mixed kinds are an error. */
function eq(a: unknown, ...others: unknown[]): boolean {
  if (others.length === 0) return fail('missing argument for comparison');
  const ka = kindOf(a);
  return others.some((b) => {
    const kb = kindOf(b);
    if (ka === 'nil' || kb === 'nil') return ka === kb;
    if (ka !== kb) return fail('incompatible types for comparison');
    if (ka === 'other') return fail(`non-comparable type ${printValue(a)}: ${goTypeName(a)}`);
    return a === b;
  });
}

function lt(a: unknown, b: unknown): boolean {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== 'number' && ka !== 'string') return fail('invalid type for comparison');
  if (ka !== kb) return fail('incompatible types for comparison');
  return (a as number | string) < (b as number | string);
}

function length(v: unknown): number {
  if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
  if (Array.isArray(v)) return v.length;
  if (v !== null && typeof v === 'object') return Object.keys(v).length;
  return fail(`len of type ${goTypeName(v)}`);
}

function intIndex(i: unknown, len: number, cap = len): number {
  if (typeof i !== 'number' || !Number.isInteger(i)) return fail(`cannot index slice/array with type ${goTypeName(i)}`);
  if (i < 0 || i > cap) return fail(`index out of range: ${i}`);
  return i;
}

function index(item: unknown, ...keys: unknown[]): unknown {
  let v = item;
  for (const key of keys) {
    if (v === null || v === undefined) return fail('index of untyped nil');
    if (Array.isArray(v)) v = v[intIndex(key, v.length - 1)];
    else if (typeof v === 'string') v = Buffer.from(v, 'utf8')[intIndex(key, Buffer.byteLength(v) - 1)];
    else if (typeof v === 'object') {
      if (typeof key !== 'string') return fail(`value has type ${goTypeName(key)}; should be string`);
      v = Object.prototype.hasOwnProperty.call(v, key) ? (v as Record<string, unknown>)[key] : null;
    } else return fail(`can't index item of type ${goTypeName(v)}`);
  }
  return v;
}

function slice(item: unknown, ...bounds: unknown[]): unknown {
  if (bounds.length > 3) return fail(`too many slice indexes: ${bounds.length}`);
  const isString = typeof item === 'string';
  if (!isString && !Array.isArray(item)) return fail(`can't slice item of type ${goTypeName(item)}`);
  if (isString && bounds.length === 3) return fail('cannot 3-index slice a string');
  const bytes = isString ? Buffer.from(item, 'utf8') : undefined;
  const len = bytes ? bytes.length : (item as unknown[]).length;
  const idx = bounds.map((b) => intIndex(b, len));
  const [from = 0, to = len] = idx;
  if (from > to) return fail(`invalid slice index: ${from} > ${to}`);
  if (idx[2] !== undefined && to > idx[2]) return fail(`invalid slice index: ${to} > ${idx[2]}`);
  return bytes ? bytes.subarray(from, to).toString('utf8') : (item as unknown[]).slice(from, to);
}

/** The escapers take their arguments as fmt.Sprint would print them. */
function escArg(args: unknown[]): string {
  return args.length === 1 && typeof args[0] === 'string' ? args[0] : sprint(args);
}

function htmlEscape(...args: unknown[]): string {
  const map: Record<string, string> = {
    '<': '&lt;',
    '>': '&gt;',
    '&': '&amp;',
    "'": '&#39;',
    '"': '&#34;',
    '\0': '\uFFFD',
  };
  return escArg(args).replace(/[<>&'"\0]/g, (c) => map[c]);
}

function jsEscape(...args: unknown[]): string {
  const map: Record<string, string> = {
    '\\': '\\\\',
    "'": "\\'",
    '"': '\\"',
    '<': '\\u003C',
    '>': '\\u003E',
    '&': '\\u0026',
    '=': '\\u003D',
  };
  return escArg(args).replace(
    // Go's JSEscape escapes every control character: matching them is the point of this pattern.
    // eslint-disable-next-line no-control-regex
    /[\\'"<>&=]|[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => map[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

function urlQuery(...args: unknown[]): string {
  return encodeURIComponent(escArg(args))
    .replace(/%20/g, '+')
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const thunked = (f: unknown): unknown => (f as () => unknown)();

/** The functions text/template predefines (Go's builtins), minus `call` (templates here hold no function values). */
export const GO_BUILTINS: Record<string, TemplateFunction> = {
  and: {
    min: 1,
    lazy: true,
    call: (...fs) => {
      let v: unknown;
      for (const f of fs) if (!isTrue((v = thunked(f)))) return v;
      return v;
    },
  },
  or: {
    min: 1,
    lazy: true,
    call: (...fs) => {
      let v: unknown;
      for (const f of fs) if (isTrue((v = thunked(f)))) return v;
      return v;
    },
  },
  not: { min: 1, max: 1, call: (v) => !isTrue(v) },
  len: { min: 1, max: 1, call: length },
  index: { min: 1, call: index },
  slice: { min: 1, call: slice },
  eq: { min: 1, call: eq },
  ne: { min: 2, max: 2, call: (a, b) => !eq(a, b) },
  lt: { min: 2, max: 2, call: lt },
  le: { min: 2, max: 2, call: (a, b) => lt(a, b) || eq(a, b) },
  gt: { min: 2, max: 2, call: (a, b) => !(lt(a, b) || eq(a, b)) },
  ge: { min: 2, max: 2, call: (a, b) => !lt(a, b) },
  print: { min: 0, call: (...a) => sprint(a) },
  printf: {
    min: 1,
    call: (format, ...a) =>
      typeof format === 'string'
        ? sprintf(format, a)
        : fail(`wrong type for value; expected string; got ${goTypeName(format)}`),
  },
  println: { min: 0, call: (...a) => sprintln(a) },
  html: { min: 0, call: htmlEscape },
  js: { min: 0, call: jsEscape },
  urlquery: { min: 0, call: urlQuery },
};
