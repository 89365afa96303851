import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { DEFAULT_HISTORY_OUTPUT_BYTES } from '../../domain/workflow/output-truncation';
import type { PolicySpec } from '../../domain/policy/policy.model';
import { parsePolicy, type PolicyProblem } from '../../domain/policy/policy.parser';
import { parseUpstreamServer, type UpstreamServerSpec } from '../../domain/proxy/upstream-server';
import { type McpProfile, parseMcpProfiles } from './mcp-profiles';
import { formatIssue, type ValidationIssue } from '../../domain/workflow/validation-issue.model';

/** `.awf/config.yaml` of the working directory: project-wide settings for every command. */
export interface ProjectConfig {
  /** Compiled Nest modules (paths relative to the project dir, or package names). */
  extensions: string[];
  /** Default workflow inputs; `--input` flags win. */
  inputs: Record<string, unknown>;
  /** Telemetry defaults, overridden by `OTEL_*` variables and `--otel-*` flags. */
  telemetry: Record<string, unknown>;
  /** Tool policy defaults of every proxied step; a step can narrow them, never widen them. */
  policy?: PolicySpec;
  /** Named MCP servers that steps list in `mcp_proxy.servers` (docs/upstream-servers.md). */
  mcpServers: Record<string, UpstreamServerSpec>;
  /** What `awf serve` may serve at `/mcp`, by profile name (docs/mcp-gateway.md). */
  mcpProfiles: Record<string, McpProfile>;
  /** Project defaults of agent providers' options, by provider (`agents.openai_compatible`). */
  agents: AgentDefaults;
  /** What the run history keeps (`history.max_output_bytes`: a step's output, per stream). */
  history: { maxOutputBytes: number };
  /** Where the file was found, or undefined when there is none. */
  file?: string;
}

/** The options a project may set once for every step of a provider; a step's own option wins. */
export interface AgentDefaults {
  openai_compatible?: { base_url?: string; api_key?: string; model?: string };
}

/** What a project without `.awf/config.yaml` has: nothing configured. */
export function emptyProjectConfig(): ProjectConfig {
  return {
    extensions: [],
    inputs: {},
    telemetry: {},
    mcpServers: {},
    mcpProfiles: {},
    agents: {},
    history: { maxOutputBytes: DEFAULT_HISTORY_OUTPUT_BYTES },
  };
}

const KNOWN = ['extensions', 'inputs', 'telemetry', 'mcp_servers', 'mcp_profiles', 'policy', 'agents', 'history'];

export function loadProjectConfig(projectDir: string = process.cwd()): ProjectConfig {
  const file = join(projectDir, '.awf', 'config.yaml');
  if (!existsSync(file)) return emptyProjectConfig();
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8')) ?? {};
  } catch (err) {
    throw invalid(file, `is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid(file, 'must be a mapping');
  const data = raw as Record<string, unknown>;
  const unknown = Object.keys(data).filter((k) => !KNOWN.includes(k));
  if (unknown.length)
    throw invalid(
      file,
      `has unknown key${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (allowed: ${KNOWN.join(', ')})`,
    );
  const extensions = data.extensions ?? [];
  if (!Array.isArray(extensions) || extensions.some((e) => typeof e !== 'string' || e === '')) {
    throw invalid(file, 'extensions must be a list of module paths or package names');
  }
  const problems: PolicyProblem[] = [];
  const policy =
    data.policy === undefined || data.policy === null ? undefined : parsePolicy(data.policy, 'policy', problems);
  if (problems.length) {
    throw new AwfError(
      problems[0].code as AwfError['code'],
      `${file} has ${problems.length} policy problem${problems.length > 1 ? 's' : ''}:\n${problems.map((p) => `[${p.code}] ${p.path}: ${p.message}`).join('\n')}`,
      { file, problems },
      'Fix the policy section; docs/policy.md describes every key.',
    );
  }
  const servers = mcpServers(asMap(data.mcp_servers, file, 'mcp_servers'), file);
  return {
    extensions,
    inputs: asMap(data.inputs, file, 'inputs'),
    telemetry: asMap(data.telemetry, file, 'telemetry'),
    mcpServers: servers,
    mcpProfiles: parseMcpProfiles(asMap(data.mcp_profiles, file, 'mcp_profiles'), file, Object.keys(servers)),
    agents: agentDefaults(asMap(data.agents, file, 'agents'), file),
    history: historySettings(asMap(data.history, file, 'history'), file),
    ...(policy ? { policy } : {}),
    file,
  };
}

/** Every server definition checked; all problems in one error, coded by the first. */
function mcpServers(raw: Record<string, unknown>, file: string): Record<string, UpstreamServerSpec> {
  const issues: ValidationIssue[] = [];
  const out: Record<string, UpstreamServerSpec> = {};
  for (const [name, definition] of Object.entries(raw)) {
    const spec = parseUpstreamServer(definition, name, `mcp_servers.${name}`, issues);
    if (spec) out[name] = spec as UpstreamServerSpec;
  }
  if (issues.length) {
    throw new AwfError(
      issues[0].code as AwfError['code'],
      `${file}: ${issues.map(formatIssue).join('; ')}`,
      { file, issues },
      'Fix mcp_servers in .awf/config.yaml; see docs/upstream-servers.md.',
    );
  }
  return out;
}

const AGENT_KEYS: Record<keyof AgentDefaults, readonly string[]> = {
  openai_compatible: ['base_url', 'api_key', 'model'],
};

function agentDefaults(raw: Record<string, unknown>, file: string): AgentDefaults {
  const out: Record<string, Record<string, string>> = {};
  for (const [provider, value] of Object.entries(raw)) {
    const keys = AGENT_KEYS[provider as keyof AgentDefaults];
    if (!keys)
      throw invalid(file, `agents.${provider} is not a provider with project defaults (allowed: openai_compatible)`);
    const options = asMap(value, file, `agents.${provider}`);
    for (const [key, v] of Object.entries(options)) {
      if (!keys.includes(key))
        throw invalid(file, `agents.${provider}.${key} is unknown (allowed: ${keys.join(', ')})`);
      if (typeof v !== 'string' || v === '')
        throw invalid(file, `agents.${provider}.${key} must be a non-empty string`);
    }
    out[provider] = options as Record<string, string>;
  }
  return out;
}

function historySettings(raw: Record<string, unknown>, file: string): ProjectConfig['history'] {
  const unknown = Object.keys(raw).filter((k) => k !== 'max_output_bytes');
  if (unknown.length) throw invalid(file, `history.${unknown[0]} is unknown (allowed: max_output_bytes)`);
  const bytes = raw.max_output_bytes ?? DEFAULT_HISTORY_OUTPUT_BYTES;
  if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 1024)
    throw invalid(file, 'history.max_output_bytes must be a whole number of bytes, at least 1024');
  return { maxOutputBytes: bytes };
}

function asMap(value: unknown, file: string, key: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(file, `${key} must be a mapping`);
  return value as Record<string, unknown>;
}

function invalid(file: string, what: string): AwfError {
  return new AwfError(
    ErrorCodes.CONFIG_INVALID,
    `${file} ${what}`,
    { file },
    'Fix or remove .awf/config.yaml; see docs/extending.md.',
  );
}
