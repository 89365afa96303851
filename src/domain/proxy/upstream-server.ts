import { ErrorCodes } from '../errors/error-codes';
import { isPlainObject } from '../model/plain-object';
import { parseDurationMs } from '../workflow/duration';
import { OAUTH_VARIABLE_KEYS, parseUpstreamOAuth, type UpstreamOAuthSpec } from './upstream-oauth';
import { type ValidationIssue, issue } from '../workflow/validation-issue.model';

/**
 * Another MCP server whose tools a step's proxy serves (docs/upstream-servers.md): a command
 * spoken to over stdio, or a URL (Streamable HTTP, legacy SSE as fallback). Values of `env`,
 * `headers`, `args`, `url` and `cwd` may name variables (`${GITHUB_TOKEN}`): they are written
 * as written into the step's proxy config and expanded only by `mcp-serve`, from its own
 * environment, so no secret value ever lands in that file.
 */
export interface UpstreamServerSpec {
  name: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** How to sign in when the server asks for OAuth (remote servers). */
  oauth?: UpstreamOAuthSpec;
  /** Globs of the upstream's own tool names; absent means every tool. */
  expose?: string[];
  /** Put before each tool name; default `<name>_`. */
  prefix?: string;
  /** Bound of one call (and of the start), in ms. */
  timeout_ms?: number;
}

/** A step's `mcp_proxy.servers` entry: a name from `.awf/config.yaml`, or a definition. */
export type UpstreamServerRef = string | (Partial<UpstreamServerSpec> & { name: string });

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;
export const UPSTREAM_SERVER_KEYS = [
  'name',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'oauth',
  'expose',
  'prefix',
  'timeout',
] as const;
const SERVER_NAME = /^[A-Za-z0-9_-]{1,48}$/;
const PREFIX = /^[A-Za-z0-9_-]{0,48}$/;
const VARIABLE = /\$\{([^}]*)\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function upstreamPrefix(spec: UpstreamServerSpec): string {
  return spec.prefix ?? `${spec.name}_`;
}

/**
 * One server definition (a `mcp_servers` value, or an inline step entry). Every problem is
 * pushed as an issue; the result is undefined when the definition cannot be used.
 * `partial` admits an entry without command or url: a named server with step overrides.
 */
export function parseUpstreamServer(
  raw: unknown,
  name: string,
  at: string,
  issues: ValidationIssue[],
  partial = false,
): Partial<UpstreamServerSpec> | undefined {
  const bad = (path: string, message: string, code: string = ErrorCodes.MCP_PROXY_INVALID_SERVER) =>
    issues.push(issue(code, path, message));
  const before = issues.length;
  if (!isPlainObject(raw)) {
    bad(at, `server "${name}" must be a mapping with command (stdio) or url (remote)`);
    return undefined;
  }
  if (!SERVER_NAME.test(name)) bad(at, `server name "${name}" may use only letters, digits, "_" and "-" (at most 48)`);
  const unknown = Object.keys(raw).filter((k) => !(UPSTREAM_SERVER_KEYS as readonly string[]).includes(k));
  if (unknown.length)
    bad(
      at,
      `unknown field(s) in server "${name}": ${unknown.join(', ')} (allowed: ${UPSTREAM_SERVER_KEYS.join(', ')})`,
      ErrorCodes.MCP_PROXY_UNKNOWN_KEY,
    );
  const spec: Partial<UpstreamServerSpec> = { name };
  const text = (key: 'command' | 'cwd' | 'url' | 'prefix'): string | undefined => {
    const v = raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || (key !== 'prefix' && v === ''))
      bad(`${at}.${key}`, `${key} must be a non-empty string`);
    else return v;
    return undefined;
  };
  spec.command = text('command');
  spec.cwd = text('cwd');
  spec.url = text('url');
  spec.prefix = text('prefix');
  if (spec.command && spec.url)
    bad(at, `server "${name}" has both command and url: give command for stdio or url for a remote server`);
  if (!spec.command && !spec.url && !partial)
    bad(at, `server "${name}" needs command (stdio) or url (Streamable HTTP or SSE)`);
  if (spec.url !== undefined && !spec.url.includes('${')) {
    let protocol = '';
    try {
      protocol = new URL(spec.url).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'http:' && protocol !== 'https:')
      bad(`${at}.url`, `url "${spec.url}" is not an http(s) URL`, ErrorCodes.MCP_PROXY_INVALID_URL);
  }
  if (spec.prefix !== undefined && !PREFIX.test(spec.prefix))
    bad(`${at}.prefix`, 'prefix may use only letters, digits, "_" and "-"');
  spec.args = stringList(raw.args, `${at}.args`, bad);
  spec.expose = stringList(raw.expose, `${at}.expose`, bad);
  spec.env = stringMap(raw.env, `${at}.env`, bad);
  spec.headers = stringMap(raw.headers, `${at}.headers`, bad);
  if (spec.env && spec.url) bad(`${at}.env`, 'env is for stdio servers (command); a remote server takes headers');
  if (spec.headers && spec.command)
    bad(`${at}.headers`, 'headers are for remote servers (url); a stdio server takes env');
  spec.oauth = parseUpstreamOAuth(raw.oauth, `${at}.oauth`, bad);
  if (spec.oauth && spec.command) bad(`${at}.oauth`, 'oauth is for remote servers (url)');
  if (raw.timeout !== undefined && raw.timeout !== null) {
    const ms = parseDurationMs(raw.timeout);
    if (ms === undefined || ms <= 0)
      bad(`${at}.timeout`, `timeout must be a positive duration (30s, 1m, 500ms), not ${JSON.stringify(raw.timeout)}`);
    else spec.timeout_ms = ms;
  }
  for (const [path, value] of variableFields(spec, at)) {
    for (const m of value.matchAll(VARIABLE)) {
      if (!VARIABLE_NAME.test(m[1]))
        bad(path, `"${m[0]}" is not a variable reference: write \${NAME} with letters, digits and "_"`);
    }
  }
  if (issues.length > before) return undefined;
  return Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)) as Partial<UpstreamServerSpec>;
}

/**
 * A step's server entries made whole: names looked up in `named` (`.awf/config.yaml`), an
 * entry that names a known server with only expose/prefix/timeout overrides it for the step.
 */
export function resolveUpstreamServers(
  refs: readonly UpstreamServerRef[],
  named: Readonly<Record<string, UpstreamServerSpec>>,
  at: string,
  issues: ValidationIssue[],
): UpstreamServerSpec[] {
  const out: UpstreamServerSpec[] = [];
  const seen = new Set<string>();
  refs.forEach((ref, i) => {
    const name = typeof ref === 'string' ? ref : ref.name;
    const path = `${at}[${i}]`;
    if (seen.has(name)) {
      issues.push(issue(ErrorCodes.MCP_PROXY_NAME_COLLISION, path, `server "${name}" is listed twice`));
      return;
    }
    seen.add(name);
    const inline = typeof ref !== 'string' && (ref.command !== undefined || ref.url !== undefined);
    const base = inline ? undefined : named[name];
    if (!inline && !base) {
      const known = Object.keys(named);
      issues.push(
        issue(
          ErrorCodes.MCP_PROXY_UNKNOWN_SERVER,
          path,
          `unknown server "${name}" (in .awf/config.yaml mcp_servers: ${known.join(', ') || 'none'}); name one, or define it here with command or url`,
        ),
      );
      return;
    }
    out.push({ ...base, ...(typeof ref === 'string' ? {} : ref), name } as UpstreamServerSpec);
  });
  return out;
}

/** Every `${NAME}` replaced from `env`; the names that are unset are returned, not guessed. */
export function expandVariables(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
  missing: Set<string>,
): string {
  return value.replace(VARIABLE, (whole, name: string) => {
    const v = env[name];
    if (v === undefined) missing.add(name);
    return v ?? '';
  });
}

/** The fields of a spec that may hold `${NAME}`, with their paths. */
function variableFields(spec: Partial<UpstreamServerSpec>, at: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const key of ['command', 'cwd', 'url'] as const) if (spec[key]) out.push([`${at}.${key}`, spec[key]!]);
  spec.args?.forEach((a, i) => out.push([`${at}.args[${i}]`, a]));
  for (const key of ['env', 'headers'] as const)
    for (const [k, v] of Object.entries(spec[key] ?? {})) out.push([`${at}.${key}.${k}`, v]);
  for (const key of OAUTH_VARIABLE_KEYS) if (spec.oauth?.[key]) out.push([`${at}.oauth.${key}`, spec.oauth[key]]);
  return out;
}

type Bad = (path: string, message: string) => void;

function stringList(value: unknown, path: string, bad: Bad): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' && typeof v !== 'number')) {
    bad(path, 'must be a list of strings');
    return undefined;
  }
  return value.map(String);
}

function stringMap(value: unknown, path: string, bad: Bad): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value) || Object.values(value).some((v) => !['string', 'number', 'boolean'].includes(typeof v))) {
    bad(path, 'must be a mapping of names to strings');
    return undefined;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}
