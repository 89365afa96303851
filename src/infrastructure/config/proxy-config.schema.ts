import { isPlainObject } from '../../domain/model/plain-object';
import { parsePolicy, type PolicyProblem } from '../../domain/policy/policy.parser';
import { TRACEPARENT_PATTERN } from '../../domain/model/traceparent';
import { TRACE_SAMPLERS } from '../../domain/proxy/proxy-config';

/**
 * The shape of the step's proxy config, checked by hand: `awf mcp-serve` validates it on every
 * start, and class-validator costs 120–160 ms to load for one small file (docs/architecture.md,
 * "Dependencies"). A check returns what is wrong with a value, or undefined; `path` names the field.
 */
type Check = (value: unknown, path: string) => string | undefined;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const int: Check = (v, p) => (isInt(v) ? undefined : `${p} must be an integer number`);
const positiveInt: Check = (v, p) => int(v, p) ?? ((v as number) < 1 ? `${p} must not be less than 1` : undefined);
const string: Check = (v, p) => (typeof v === 'string' ? undefined : `${p} must be a string`);
const nonEmptyString: Check = (v, p) =>
  string(v, p) ?? ((v as string).length < 1 ? `${p} must be longer than or equal to 1 characters` : undefined);
const boolean: Check = (v, p) => (typeof v === 'boolean' ? undefined : `${p} must be a boolean value`);
const oneOf =
  (...allowed: unknown[]): Check =>
  (v, p) =>
    allowed.includes(v) ? undefined : `${p} must be one of the following values: ${allowed.join(', ')}`;
const matching =
  (re: RegExp, message?: string): Check =>
  (v, p) =>
    typeof v === 'string' && re.test(v) ? undefined : (message ?? `${p} must match ${re} regular expression`);
const listOf =
  (each: Check): Check =>
  (v, p) =>
    Array.isArray(v) ? v.map((x, i) => each(x, `${p}.${i}`)).find(Boolean) : `${p} must be an array`;
const all =
  (...checks: Check[]): Check =>
  (v, p) =>
    checks.map((c) => c(v, p)).find(Boolean);
/** Absent or null passes. */
const optional =
  (check: Check): Check =>
  (v, p) =>
    v === undefined || v === null ? undefined : check(v, p);

/** A nested section: an object whose every wrong field is named. */
const section =
  (fields: Record<string, Check>): Check =>
  (v, p) =>
    isPlainObject(v) ? problemsOf(v, fields, `${p}.`).join('; ') || undefined : `${p} must be an object`;

const PLUGIN_TOOL: Record<string, Check> = { plugin: nonEmptyString, expose: listOf(string) };

const stringMap: Check = (v, p) =>
  isPlainObject(v)
    ? Object.entries(v)
        .map(([k, x]) => string(x, `${p}.${k}`))
        .find(Boolean)
    : `${p} must be an object`;

const OAUTH: Record<string, Check> = {
  grant: optional(oneOf('authorization_code', 'client_credentials')),
  client_id: optional(nonEmptyString),
  client_secret: optional(nonEmptyString),
  private_key_file: optional(nonEmptyString),
  client_metadata_url: optional(nonEmptyString),
  scopes: optional(listOf(nonEmptyString)),
};

const UPSTREAM: Record<string, Check> = {
  name: all(nonEmptyString, matching(/^[A-Za-z0-9_-]{1,48}$/)),
  command: optional(nonEmptyString),
  args: optional(listOf(string)),
  env: optional(stringMap),
  cwd: optional(nonEmptyString),
  url: optional(nonEmptyString),
  headers: optional(stringMap),
  oauth: optional(section(OAUTH)),
  expose: optional(listOf(string)),
  prefix: optional(matching(/^[A-Za-z0-9_-]{0,48}$/)),
  timeout_ms: optional(positiveInt),
};

const PROTOCOL = optional(oneOf('http/protobuf', 'grpc'));
const METRICS: Record<string, Check> = {
  exporter: oneOf('none', 'otlp'),
  endpoint: optional(string),
  protocol: PROTOCOL,
  timeout_ms: optional(positiveInt),
  interval_ms: optional(positiveInt),
};

const TELEMETRY: Record<string, Check> = {
  exporter: oneOf('none', 'otlp', 'console', 'file'),
  traceparent: optional(matching(TRACEPARENT_PATTERN)),
  endpoint: optional(string),
  protocol: PROTOCOL,
  timeout_ms: optional(positiveInt),
  file: optional(string),
  service_name: optional(string),
  resource: optional(stringMap),
  sampler: optional(oneOf(...TRACE_SAMPLERS)),
  sampler_ratio: optional((v, p) => (typeof v === 'number' && v >= 0 && v <= 1 ? undefined : `${p} must be 0 to 1`)),
  metrics: optional(section(METRICS)),
};

const LIMITS: Record<string, Check> = {
  read_max_bytes: optional(positiveInt),
  read_default_lines: optional(positiveInt),
  line_max_chars: optional(positiveInt),
  write_max_bytes: optional(positiveInt),
  bash_default_timeout_ms: optional(positiveInt),
  bash_max_timeout_ms: optional(positiveInt),
  bash_output_max_chars: optional(positiveInt),
  glob_max_results: optional(positiveInt),
  grep_max_results: optional(positiveInt),
  env_passthrough: optional(listOf(matching(/^[A-Za-z_][A-Za-z0-9_]*$/))),
  bash_sandbox: optional(boolean),
  bash_sandbox_network: optional(boolean),
};

/** The policy travels as parsed layers; the same parser that read the YAML checks them here. */
const POLICY: Check = (v, p) => {
  if (!isPlainObject(v) || !Array.isArray(v.layers)) return `${p} must be an object with a layers list`;
  const problems: PolicyProblem[] = [];
  v.layers.forEach((layer, i) => {
    if (!isPlainObject(layer) || typeof layer.origin !== 'string')
      return problems.push({ code: '', path: `${p}.layers.${i}`, message: 'must be an object with an origin' });
    const { origin: _origin, ...spec } = layer;
    parsePolicy(spec, `${p}.layers.${i}`, problems);
  });
  return problems.map((x) => `${x.path}: ${x.message}`).join('; ') || undefined;
};

const ROOT: Record<string, Check> = {
  version: all(int, oneOf(1)),
  intercept_builtins: boolean,
  plugin_tools: listOf((v, p) =>
    isPlainObject(v) ? problemsOf(v, PLUGIN_TOOL, `${p}.`)[0] : `${p} must be an object`,
  ),
  upstreams: optional(
    listOf((v, p) =>
      isPlainObject(v) ? (problemsOf(v, UPSTREAM, `${p}.`)[0] ?? oneTransport(v, p)) : `${p} must be an object`,
    ),
  ),
  root_dir: optional(all(string, matching(/^\//, 'root_dir must be an absolute path'))),
  project_dir: optional(all(string, matching(/^\//, 'project_dir must be an absolute path'))),
  workflow: optional(string),
  step: optional(string),
  run_id: optional(string),
  owner_pid: optional(positiveInt),
  events_path: optional(all(string, matching(/^\//, 'events_path must be an absolute path'))),
  telemetry: optional(section(TELEMETRY)),
  limits: optional(section(LIMITS)),
  policy: optional(POLICY),
  approval_socket: optional(all(string, matching(/^\//, 'approval_socket must be an absolute path'))),
  pins_dir: optional(all(string, matching(/^\//, 'pins_dir must be an absolute path'))),
};

export const KNOWN_KEYS = {
  root: Object.keys(ROOT),
  plugin_tools: Object.keys(PLUGIN_TOOL),
  upstreams: Object.keys(UPSTREAM),
  telemetry: Object.keys(TELEMETRY),
  metrics: Object.keys(METRICS),
  limits: Object.keys(LIMITS),
} as const;

function oneTransport(v: Record<string, unknown>, p: string): string | undefined {
  return (v.command === undefined) === (v.url === undefined)
    ? `${p} must have exactly one of command and url`
    : undefined;
}

/** Every problem of a config object whose keys are known, one message per field. */
export function proxyConfigProblems(raw: Record<string, unknown>): string[] {
  return problemsOf(raw, ROOT, '');
}

function problemsOf(value: Record<string, unknown>, fields: Record<string, Check>, prefix: string): string[] {
  return Object.entries(fields)
    .map(([key, check]) => check(value[key], `${prefix}${key}`))
    .filter((p): p is string => p !== undefined);
}
