import { isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { AgentProvider } from '../../../domain/ports/agent-provider.port';
import type { PluginCatalog } from '../../../domain/ports/plugin-catalog.port';
import { resolveUpstreamServers, type UpstreamServerSpec } from '../../../domain/proxy/upstream-server';
import { type ValidationIssue, issue } from '../../../domain/workflow/validation-issue.model';
import type { AgentCatalog } from '../../../domain/workflow/ports/agent-catalog.port';
import type { LoadedWorkflow, WorkflowRepository } from '../../../domain/workflow/ports/workflow-repository.port';
import { checkWorkflow } from '../../../domain/workflow/workflow.rules';
import type { AgentStep, Workflow } from '../../../domain/workflow/workflow.model';
import { checkAgentContext } from './agent-context.check';
import { checkCalls } from './call-graph.check';
import { checkOperations, checkPluginTools } from './plugin-use.check';
import { checkExternalFiles, type FileCheckContext } from './external-files.check';
import { Condition } from '../template/condition-evaluator';
import { checkTemplates } from '../template/template-references';
import type { PolicySpec } from '../../../domain/policy/policy.model';
import { PROJECT_POLICY_ORIGIN, stepPolicyLayers } from '../../../domain/policy/policy-layers';
import { type LintedProblem, lintPolicy } from '../../../domain/policy/policy-lint';

/** What `intercept_builtins` serves. */
const BUILTIN_TOOL_NAMES = ['Bash', 'Edit', 'Glob', 'Grep', 'Read', 'Write'];

/** Providers whose CLIs cannot switch their own tools off, known before their adapters land. */
const COEXISTENCE_PROVIDERS = new Set(['codex', 'copilot', 'github_copilot', 'opencode']);

/** The provider's own check of the step's options; values still holding `{{…}}` are known only at run time. */
function checkOptions(step: AgentStep, provider: AgentProvider | undefined): ValidationIssue[] {
  if (!provider?.validateOptions) return [];
  const known = Object.entries(step.options).filter(([, v]) => !(typeof v === 'string' && v.includes('{{')));
  try {
    provider.validateOptions(Object.fromEntries(known));
    return [];
  } catch (err) {
    if (!isAwfError(err)) throw err;
    return [issue(err.code, `states.${step.name}.options`, err.message)];
  }
}

/**
 * Everything `awf validate` checks, and `awf run` before the first step: parse issues, the
 * domain rules, templates and conditions, agent providers, and ADR 017's cross-checks
 * against the installed plugins. Returns all issues; warnings never fail.
 */
export class WorkflowValidator {
  constructor(
    private readonly agents: AgentCatalog,
    private readonly plugins?: PluginCatalog,
    private readonly servers: () => Readonly<Record<string, UpstreamServerSpec>> = () => ({}),
    private readonly workflows?: Pick<WorkflowRepository, 'loadCalled'>,
    private readonly builtinOperations: readonly string[] = [],
    /** `policy:` of `.awf/config.yaml`, and whether extension modules may serve tools unknown here. */
    private readonly project: { policy?: PolicySpec; extensions?: boolean } = {},
    /** script_file / prompt_file existence and content (absent: not checked). */
    private readonly files?: FileCheckContext,
  ) {}

  /**
   * `skipPlugins` (`awf validate --skip-plugins`): no plugin is started, what they serve is not
   * checked. `pluginStartMs` (`--validator-timeout`): how long each may take to start. The
   * plugins are listed (started) once, by the first check that needs them.
   */
  async validate(
    loaded: LoadedWorkflow,
    { skipPlugins = false, pluginStartMs }: { skipPlugins?: boolean; pluginStartMs?: number } = {},
  ): Promise<ValidationIssue[]> {
    const wf = loaded.workflow;
    if (!wf) return loaded.issues;
    const issues = [...loadIssues(loaded), ...checkTemplates(wf)];
    issues.push(...checkExternalFiles(wf, this.files), ...checkAgentContext(wf, this.files));
    for (const step of wf.steps) if (step.type === 'agent') issues.push(...this.checkProvider(step));
    issues.push(...(await checkCalls(wf, this.workflows)));
    const plugins = skipPlugins || !this.plugins ? undefined : listedOnce(this.plugins, pluginStartMs);
    if (!skipPlugins)
      issues.push(
        ...(await checkPluginTools(wf, plugins)),
        ...(await checkOperations(wf, plugins, this.builtinOperations)),
      );
    issues.push(...(await this.checkPolicies(wf, plugins, skipPlugins)));
    issues.push(...this.checkServers(wf));
    return issues;
  }

  private checkProvider(step: AgentStep): ValidationIssue[] {
    const out: ValidationIssue[] = [];
    const templated = step.provider.includes('{{');
    const provider = templated ? undefined : this.agents.get(step.provider);
    // A warning, as AWF's own workflows name providers an extension may add later; the run fails
    // at that step with the same code if it is still unknown then.
    if (!templated && step.provider && !provider) {
      out.push(
        issue(
          ErrorCodes.WORKFLOW_UNKNOWN_PROVIDER,
          `states.${step.name}.provider`,
          `unknown agent provider "${step.provider}" (available: ${this.agents.names().join(', ') || 'none'})`,
          'warning',
        ),
      );
    }
    if (provider && !provider.resumes && (step.continueFrom !== undefined || step.mode === 'conversation')) {
      const field = step.continueFrom !== undefined ? 'conversation.continue_from' : 'mode';
      out.push(
        issue(
          ErrorCodes.AGENT_CANNOT_RESUME,
          `states.${step.name}.${field}`,
          `provider "${step.provider}" cannot resume a conversation: each turn runs without the earlier ones (providers that can: claude, codex, gemini, github_copilot, mistral_vibe, opencode, openai_compatible)`,
          'warning',
        ),
      );
    }
    out.push(...checkOptions(step, provider));
    const coexists = provider ? !provider.canInterceptBuiltins : COEXISTENCE_PROVIDERS.has(step.provider.toLowerCase());
    if (step.mcpProxy?.enable && coexists) {
      out.push(
        issue(
          ErrorCodes.MCP_PROXY_UNSUPPORTED_PROVIDER,
          `states.${step.name}.mcp_proxy`,
          `mcp_proxy on provider=${step.provider} runs in coexistence mode; built-in tools are not blocked (each use is recorded as bypassed; policy enforce: strict fails the step)`,
          'warning',
        ),
      );
    }
    return out;
  }

  /** Each proxied step's effective policy against the tools it will serve (docs/policy.md). */
  private async checkPolicies(
    wf: Workflow,
    plugins: PluginCatalog | undefined,
    skipPlugins: boolean,
  ): Promise<ValidationIssue[]> {
    const steps = wf.steps.filter((s) => s.mcpProxy?.enable && (s.mcpProxy.policy || this.project.policy));
    if (steps.length === 0) return [];
    const installed = new Map(
      (plugins ? await plugins.list() : []).map((p) => [p.name, p.operations.map((o) => o.name)]),
    );
    const out: ValidationIssue[] = [];
    // A project-wide default is one rule, whatever number of steps it meets: said once, naming them.
    const defaults = new Map<string, { problem: LintedProblem; steps: string[] }>();
    for (const step of steps) {
      const proxy = step.mcpProxy!;
      const layers = stepPolicyLayers(this.project.policy, proxy.policy, step.name);
      const served = [
        ...(proxy.interceptBuiltins ? BUILTIN_TOOL_NAMES : []),
        ...proxy.pluginTools.flatMap((p) =>
          (p.expose.length ? p.expose : (installed.get(p.plugin) ?? [])).map((op) => `${p.plugin}_${op}`),
        ),
      ];
      const where = (origin: string): string =>
        origin === PROJECT_POLICY_ORIGIN ? `.awf/config.yaml: policy` : `states.${step.name}.mcp_proxy.policy`;
      // Tools the lint cannot list (extensions', upstream servers', unlisted plugins') may match any rule.
      const closed = !this.project.extensions && !proxy.servers?.length && !skipPlugins;
      for (const p of lintPolicy(layers, served, closed, where)) {
        if (!p.path.startsWith('.awf/')) out.push(issue(p.code, p.path, p.message, p.severity));
        else {
          const key = `${p.severity} ${p.code} ${p.path} ${p.message}`;
          defaults.set(key, { problem: p, steps: [...(defaults.get(key)?.steps ?? []), step.name] });
        }
      }
    }
    for (const { problem: p, steps: met } of defaults.values()) {
      const named = `step${met.length > 1 ? 's' : ''} ${met.join(', ')}`;
      const message = p.message.includes('this step')
        ? p.message
            .replace(/this step serves/g, `${named} serve${met.length > 1 ? '' : 's'}`)
            .replace(/this step/g, named)
        : `${p.message} (in ${named})`;
      out.push(issue(p.code, p.path, message, p.severity));
    }
    return out;
  }

  /** Every step's servers resolve against .awf/config.yaml (unknown name, listed twice). */
  private checkServers(wf: Workflow): ValidationIssue[] {
    const steps = wf.steps.filter((s) => s.mcpProxy?.servers?.length);
    if (steps.length === 0) return [];
    const out: ValidationIssue[] = [];
    const named = this.servers();
    for (const step of steps)
      resolveUpstreamServers(step.mcpProxy!.servers!, named, `states.${step.name}.mcp_proxy.servers`, out);
    return out;
  }
}

/**
 * What AWF's loader itself refuses (the YAML, the structure, the states named, `when`
 * expressions): a file with an error here does not load, and `awf validate` exits 1 for it, as
 * AWF's validate does. The later checks (templates, files, plugins, calls…) come on top.
 */
export function loadIssues(loaded: LoadedWorkflow): ValidationIssue[] {
  const wf = loaded.workflow;
  return wf ? [...loaded.issues, ...checkWorkflow(wf), ...checkConditions(wf)] : loaded.issues;
}

function checkConditions(wf: Workflow): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const check = (text: string | undefined, at: string): void => {
    if (text === undefined) return;
    try {
      Condition.compile(text);
    } catch (err) {
      out.push(issue(ErrorCodes.WORKFLOW_INVALID_CONDITION, at, isAwfError(err) ? err.message : String(err)));
    }
  };
  for (const step of wf.steps) {
    step.transitions.forEach((t, i) => check(t.when, `states.${step.name}.transitions[${i}].when`));
    if (step.type === 'while') check(step.condition, `states.${step.name}.while`);
    if (step.type === 'for_each' || step.type === 'while') check(step.breakWhen, `states.${step.name}.break_when`);
  }
  return out;
}

/** The catalog listed at most once (listing starts every enabled plugin), with `startTimeoutMs`. */
function listedOnce(catalog: PluginCatalog, startTimeoutMs?: number): PluginCatalog {
  let listed: ReturnType<PluginCatalog['list']> | undefined;
  return { list: () => (listed ??= catalog.list(startTimeoutMs === undefined ? {} : { startTimeoutMs })) };
}
