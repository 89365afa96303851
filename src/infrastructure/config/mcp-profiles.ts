import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { PolicySpec } from '../../domain/policy/policy.model';
import { parsePolicy, type PolicyProblem } from '../../domain/policy/policy.parser';

/** The six built-in tools, by name. */
export const BUILTIN_TOOLS = ['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep'] as const;

/**
 * What `awf serve` serves at `/mcp` (`mcp_profiles.<name>` in `.awf/config.yaml`): which
 * built-ins, which of the project's `mcp_servers`, and a policy that narrows the project's.
 */
export interface McpProfile {
  tools: string[];
  servers: string[];
  policy?: PolicySpec;
}

/** Without a profile: the read-only built-ins and every configured server. */
export function defaultMcpProfile(serverNames: readonly string[]): McpProfile {
  return { tools: ['Read', 'Glob', 'Grep'], servers: [...serverNames] };
}

/** `mcp_profiles` checked; a profile's omitted `tools`/`servers` are the default profile's. */
export function parseMcpProfiles(
  raw: Record<string, unknown>,
  file: string,
  serverNames: readonly string[],
): Record<string, McpProfile> {
  const out: Record<string, McpProfile> = {};
  for (const [name, value] of Object.entries(raw)) {
    const at = `mcp_profiles.${name}`;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw invalid(file, `${at} must be a mapping of tools, servers and policy`);
    const p = value as Record<string, unknown>;
    const unknown = Object.keys(p).filter((k) => !['tools', 'servers', 'policy'].includes(k));
    if (unknown.length) throw invalid(file, `${at} has unknown key ${unknown[0]} (allowed: tools, servers, policy)`);
    const base = defaultMcpProfile(serverNames);
    const tools = names(p.tools, `${at}.tools`, file) ?? base.tools;
    const bad = tools.find((t) => !(BUILTIN_TOOLS as readonly string[]).includes(t));
    if (bad) throw invalid(file, `${at}.tools: "${bad}" is not a built-in tool (${BUILTIN_TOOLS.join(', ')})`);
    const servers = names(p.servers, `${at}.servers`, file) ?? base.servers;
    const missing = servers.find((s) => !serverNames.includes(s));
    if (missing) throw invalid(file, `${at}.servers: "${missing}" is not one of mcp_servers`);
    const problems: PolicyProblem[] = [];
    const policy = p.policy === undefined ? undefined : parsePolicy(p.policy, `${at}.policy`, problems);
    if (problems.length) throw invalid(file, `${problems[0].path}: ${problems[0].message}`);
    out[name] = { tools, servers, ...(policy ? { policy } : {}) };
  }
  return out;
}

function names(value: unknown, at: string, file: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw invalid(file, `${at} must be a list of names`);
  return value as string[];
}

function invalid(file: string, what: string): AwfError {
  return new AwfError(
    ErrorCodes.CONFIG_INVALID,
    `${file}: ${what}`,
    { file },
    'Fix mcp_profiles in .awf/config.yaml; see docs/mcp-gateway.md.',
  );
}
