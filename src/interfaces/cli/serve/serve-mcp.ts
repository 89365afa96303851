import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { awfDirs } from '../../../application/workflow/run/awf-dirs';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { PolicyLayer } from '../../../domain/policy/policy.model';
import { stepPolicyLayers } from '../../../domain/policy/policy-layers';
import type { ApprovalChannels } from '../../../domain/ports/approval-channel.port';
import type { McpCatalogFactory } from '../../../domain/ports/mcp-catalog.port';
import type { ToolRouterFactory } from '../../../domain/ports/tool-router-factory.port';
import { PROXY_CONFIG_VERSION, type ProxyConfig } from '../../../domain/proxy/proxy-config';
import { resolveUpstreamServers } from '../../../domain/proxy/upstream-server';
import { formatIssue, type ValidationIssue } from '../../../domain/workflow/validation-issue.model';
import { BUILTIN_TOOLS, defaultMcpProfile, type McpProfile } from '../../../infrastructure/config/mcp-profiles';
import type { ProjectConfig } from '../../../infrastructure/config/project-config.loader';
import { RealToolScopeResolver } from '../../../infrastructure/config/tool-scope.resolver';
import { type McpHttpEndpoint, openMcpHttp } from '../../../infrastructure/mcp-edge/mcp-http.edge';

export interface ServeMcp {
  endpoint: McpHttpEndpoint;
  /**
   * The id its calls carry as their run's (`mcp-<profile>`): the questions of approve rules wait
   * under it in the API's approvals (`GET /api/approvals`, the dashboard) as a run's do.
   */
  channel: string;
  /** What the profile serves: its name, built-ins and servers, as the start line prints them. */
  summary: string;
  close(): Promise<void>;
}

/**
 * `/mcp` of `awf serve`: the proxy a step's `mcp-serve` would be, opened once in this process for
 * the named profile of `.awf/config.yaml` (docs/mcp-gateway.md) — sandboxed to the serve
 * directory, under the project's policy narrowed by the profile's, audited to
 * `<data>/awf/serve/mcp.events.jsonl`, traced as the server is.
 */
export async function openServeMcp(
  project: ProjectConfig,
  profileName: string,
  sources: { routers: ToolRouterFactory; catalogs: McpCatalogFactory },
  approvals: ApprovalChannels,
  onError: (err: Error) => void,
): Promise<ServeMcp> {
  const profile = profileOf(project, profileName);
  const issues: ValidationIssue[] = [];
  const upstreams = resolveUpstreamServers(profile.servers, project.mcpServers, `mcp_profiles.${profileName}`, issues);
  if (issues.length) throw new AwfError(ErrorCodes.CONFIG_INVALID, issues.map(formatIssue).join('; '));
  const eventsPath = join(awfDirs(process.env).data_dir, 'serve', 'mcp.events.jsonl');
  mkdirSync(dirname(eventsPath), { recursive: true, mode: 0o700 });
  const config: ProxyConfig = {
    version: PROXY_CONFIG_VERSION,
    intercept_builtins: profile.tools.length > 0,
    plugin_tools: [],
    ...(upstreams.length ? { upstreams } : {}),
    root_dir: process.cwd(),
    project_dir: process.cwd(),
    workflow: 'awf serve',
    step: `mcp ${profileName}`,
    run_id: `mcp-${profileName}`,
    events_path: eventsPath,
    policy: { layers: policyLayers(project, profileName, profile) },
  };
  // Questions of `approve` rules go through the channel a step's proxy uses, in a private dir.
  const dir = mkdtempSync(join(tmpdir(), 'awf-mcp-'));
  const channel = config.policy?.layers.some((l) => l.approve?.length)
    ? await approvals.open((config.approval_socket = join(dir, 'approval.sock')))
    : undefined;
  const closeChannel = (): void => {
    channel?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  const scope = new RealToolScopeResolver().resolve(config);
  const router = await sources.routers.open(scope).catch((err: unknown) => {
    closeChannel();
    throw err;
  });
  // The servers' prompts, resources and completions, over the connections the router started.
  const catalog = await sources.catalogs.open(scope).catch(async (err: unknown) => {
    await router.close();
    closeChannel();
    throw err;
  });
  const endpoint = openMcpHttp(router, onError, { catalog });
  const served = [...profile.tools, ...profile.servers.map((s) => `${s}'s tools`)];
  return {
    endpoint,
    channel: `mcp-${profileName}`,
    summary: `profile ${profileName}: ${served.join(', ') || 'nothing'}`,
    close: async () => {
      await endpoint.close();
      await router.close();
      closeChannel();
    },
  };
}

export function profileOf(project: ProjectConfig, name: string): McpProfile {
  const profile =
    project.mcpProfiles[name] ?? (name === 'default' ? defaultMcpProfile(Object.keys(project.mcpServers)) : undefined);
  if (profile) return profile;
  const known = ['default', ...Object.keys(project.mcpProfiles).filter((n) => n !== 'default')];
  throw new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    `--mcp-profile "${name}" is not a profile of .awf/config.yaml (known: ${known.join(', ')})`,
    { profile: name },
    'Define it under mcp_profiles in .awf/config.yaml (docs/mcp-gateway.md), or leave the flag out for the default.',
  );
}

/** The project's policy, then the profile's: built-ins the profile does not name are denied (and hidden). */
export function policyLayers(project: ProjectConfig, name: string, profile: McpProfile): PolicyLayer[] {
  // The project's layer as every step gets it; the profile's replaces a step's own.
  const layers = stepPolicyLayers(project.policy, undefined, name);
  const unnamed = BUILTIN_TOOLS.filter((t) => !profile.tools.includes(t));
  const own = profile.policy ?? {};
  layers.push({
    origin: `mcp_profiles.${name}`,
    ...own,
    tools: { ...own.tools, deny: [...(own.tools?.deny ?? []), ...unnamed] },
  });
  return layers;
}
