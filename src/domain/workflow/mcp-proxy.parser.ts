import { ErrorCodes } from '../errors/error-codes';
import { parseUpstreamServer, type UpstreamServerRef } from '../proxy/upstream-server';
import { type ValidationIssue, issue } from './validation-issue.model';
import { parsePolicy, type PolicyProblem } from '../policy/policy.parser';
import type { McpProxySettings } from './workflow.model';

export const MCP_PROXY_KEYS = ['enable', 'intercept_builtins', 'plugin_tools', 'servers', 'policy'] as const;

/** The keys awf adds to AWF's block, and the shape that makes them awf's rather than unknown. */
const AWF_OWN_KEYS: readonly [string, (v: unknown) => boolean, string][] = [
  ['servers', Array.isArray, 'a list of server names or definitions (docs/upstream-servers.md)'],
  ['policy', (v) => typeof v === 'object' && !Array.isArray(v), 'a mapping (docs/policy.md)'],
];

/**
 * The one strict block of the format (ADR 017): unknown keys are all named in one
 * UNKNOWN_KEY issue, in document order. `intercept_builtins` defaults to `enable`.
 * `servers` and `policy` are awf's own keys; written in another shape (`policy: bogus`),
 * they are what AWF sees, an unknown key, and are reported as one with what awf expects.
 */
export function parseMcpProxy(raw: unknown, at: string, issues: ValidationIssue[]): McpProxySettings | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, 'mcp_proxy must be a mapping'));
    return undefined;
  }
  const r = { ...(raw as Record<string, unknown>) };
  const foreign = AWF_OWN_KEYS.filter(([key, fits]) => r[key] !== undefined && r[key] !== null && !fits(r[key]));
  for (const [key] of foreign) delete r[key];
  const unknown = Object.keys(raw).filter(
    (k) => !(MCP_PROXY_KEYS as readonly string[]).includes(k) || foreign.some(([f]) => f === k),
  );
  if (unknown.length > 0) {
    const own = foreign.length ? `; ${foreign.map(([key, , shape]) => `awf's own ${key} is ${shape}`).join(', ')}` : '';
    issues.push(
      issue(
        ErrorCodes.MCP_PROXY_UNKNOWN_KEY,
        at,
        `unknown field(s) in mcp_proxy: ${unknown.join(', ')} (allowed: ${MCP_PROXY_KEYS.join(', ')}${own})`,
      ),
    );
  }
  const enable = r.enable === true;
  const interceptBuiltins = r.intercept_builtins === undefined ? enable : r.intercept_builtins === true;
  const pluginTools: McpProxySettings['pluginTools'] = [];
  if (r.plugin_tools !== undefined && r.plugin_tools !== null) {
    if (!Array.isArray(r.plugin_tools)) {
      issues.push(
        issue(
          ErrorCodes.WORKFLOW_INVALID_FIELD,
          `${at}.plugin_tools`,
          'plugin_tools must be a list of {plugin, expose}',
        ),
      );
    } else {
      r.plugin_tools.forEach((entry, i) => {
        const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
        if (typeof e.plugin !== 'string' || !e.plugin) {
          issues.push(
            issue(
              ErrorCodes.WORKFLOW_MISSING_FIELD,
              `${at}.plugin_tools[${i}].plugin`,
              'a plugin_tools entry needs a plugin name',
            ),
          );
          return;
        }
        const expose = Array.isArray(e.expose) ? e.expose.map(String) : [];
        pluginTools.push({ plugin: e.plugin, expose });
      });
    }
  }
  const servers = parseServers(r.servers, `${at}.servers`, issues);
  const problems: PolicyProblem[] = [];
  const policy =
    r.policy === undefined || r.policy === null ? undefined : parsePolicy(r.policy, `${at}.policy`, problems);
  issues.push(...problems.map((p) => issue(p.code, p.path, p.message)));
  return {
    enable,
    interceptBuiltins,
    pluginTools,
    ...(servers.length ? { servers } : {}),
    ...(policy ? { policy } : {}),
  };
}

/** `servers:` entries: a name from .awf/config.yaml, or a mapping with `name` (a definition or overrides). */
function parseServers(raw: unknown, at: string, issues: ValidationIssue[]): UpstreamServerRef[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, 'servers must be a list of server names or definitions'));
    return [];
  }
  const out: UpstreamServerRef[] = [];
  raw.forEach((entry, i) => {
    if (typeof entry === 'string' && entry) return void out.push(entry);
    const name = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).name : undefined;
    if (typeof name !== 'string' || !name) {
      issues.push(
        issue(
          ErrorCodes.WORKFLOW_MISSING_FIELD,
          `${at}[${i}]`,
          'a servers entry is a server name, or a mapping with a name',
        ),
      );
      return;
    }
    const spec = parseUpstreamServer(entry, name, `${at}[${i}]`, issues, true);
    if (spec) out.push({ ...spec, name });
  });
  return out;
}
