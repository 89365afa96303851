import type { TemplateFunction } from './go-builtins';
import { UndefinedReferenceError } from './template-evaluator';

type Data = Record<string, unknown>;

/** Every namespace is also a function (`{{inputs.x}}`, `{{loop.index1}}`), as in AWF's FuncMap. */
export const NAMESPACE_FUNCTION_NAMES = [
  'inputs',
  'states',
  'workflow',
  'env',
  'loop',
  'context',
  'error',
  'awf',
] as const;

/**
 * The fields of AWF's StepStateData struct: present (zero) on every state, so
 * `{{if .states.a.JSON}}` is false, not an error.
 */
const STATE_ZERO = {
  Output: '',
  Stderr: '',
  ExitCode: 0,
  Status: '',
  Response: null,
  TokensUsed: 0,
  TokensInput: 0,
  TokensOutput: 0,
  TokensEstimated: false,
  JSON: null,
  Data: null,
};

/**
 * AWF's namespaces are Go structs: their fields exist even when zero (a nil `Response`, a
 * top-level loop's nil `Parent`), and `.workflow.Duration` is a method. The run context
 * gives plain objects; this fills in what the structs would hold.
 */
export function withStructDefaults(data: Data): Data {
  const root: Data = { ...data };
  if (isMap(data.states)) {
    root.states = Object.fromEntries(
      Object.entries(data.states).map(([k, v]) => [k, isMap(v) ? { ...STATE_ZERO, ...dropUndefined(v) } : v]),
    );
  }
  if (isMap(data.workflow) && data.workflow.Duration === undefined) {
    const started = Date.parse(String(data.workflow.StartedAt));
    root.workflow = { ...data.workflow, Duration: () => goDuration(Number.isNaN(started) ? 0 : Date.now() - started) };
  }
  if (isMap(data.loop)) root.loop = loopStruct(data.loop);
  if (isMap(data.error)) root.error = { Message: '', State: '', ExitCode: 0, Type: '', ...dropUndefined(data.error) };
  return root;
}

function loopStruct(loop: Data): Data {
  const index = typeof loop.Index === 'number' ? loop.Index : 0;
  return {
    Item: null,
    Index: index,
    Index1: index + 1,
    First: false,
    Last: false,
    Length: -1,
    ...dropUndefined(loop),
    Parent: isMap(loop.Parent) ? loopStruct(loop.Parent) : null,
  };
}

/**
 * The function forms: loop, error and context answer AWF's lowercase keys (its accessor maps)
 * and also the PascalCase ones its validator and docs use (`{{loop.Item}}`, `{{error.Message}}`,
 * `{{context.WorkingDir}}`): AWF's `validate` accepts those, then its run fails on them
 * ("map has no entry for key"); here both spellings give the value.
 */
export function namespaceFunctions(root: Data): Record<string, TemplateFunction> {
  const accessor = (call: () => unknown): TemplateFunction => ({ min: 0, max: 0, call });
  const required = (name: string): Data => {
    if (!isMap(root[name]))
      throw new UndefinedReferenceError(
        name,
        `"${name}" is only defined ${name === 'loop' ? 'inside a loop' : 'in error hooks'}`,
      );
    return root[name] as Data;
  };
  const context = isMap(root.context) ? root.context : {};
  return {
    inputs: accessor(() => root.inputs),
    states: accessor(() => root.states),
    workflow: accessor(() => root.workflow),
    env: accessor(() => root.env),
    awf: accessor(() => root.awf ?? {}),
    context: accessor(() => bothSpellings(context, CONTEXT_KEYS)),
    loop: accessor(() => loopMap(required('loop'))),
    error: accessor(() => bothSpellings(required('error'), ERROR_KEYS)),
  };
}

/** AWF's lowercase accessor key → the struct field it reads. */
export const CONTEXT_KEYS: Readonly<Record<string, string>> = {
  working_dir: 'WorkingDir',
  user: 'User',
  hostname: 'Hostname',
};
export const ERROR_KEYS: Readonly<Record<string, string>> = {
  message: 'Message',
  type: 'Type',
  exit_code: 'ExitCode',
  state: 'State',
};
export const LOOP_KEYS: Readonly<Record<string, string>> = {
  index: 'Index',
  index1: 'Index1',
  first: 'First',
  last: 'Last',
  length: 'Length',
  item: 'Item',
  parent: 'Parent',
};

/** The accessor map: each lowercase key and its PascalCase field, both with the field's value. */
function bothSpellings(struct: Data, keys: Readonly<Record<string, string>>, value = (f: string) => struct[f]): Data {
  const out: Data = {};
  for (const [lower, field] of Object.entries(keys)) out[lower] = out[field] = value(field);
  return out;
}

function loopMap(loop: Data): Data {
  return bothSpellings(loop, LOOP_KEYS, (f) =>
    f === 'Parent' ? (isMap(loop.Parent) ? loopMap(loop.Parent) : null) : loop[f],
  );
}

/** Go's time.Duration.String() after rounding to milliseconds: `1.5s`, `2m3.25s`, `150ms`, `0s`. */
export function goDuration(ms: number): string {
  const total = Math.round(ms);
  if (total === 0) return '0s';
  if (total < 1000) return `${total}ms`;
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = ((total % 60_000) / 1000).toFixed(3).replace(/\.?0+$/, '');
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

function isMap(v: unknown): v is Data {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function dropUndefined(v: Data): Data {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
}
