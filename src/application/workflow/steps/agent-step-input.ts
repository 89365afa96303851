import { isAbsolute, resolve } from 'node:path';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { AgentProvider } from '../../../domain/ports/agent-provider.port';
import type { AppLogger } from '../../../domain/ports/app-logger.port';
import type { AgentCatalog } from '../../../domain/workflow/ports/agent-catalog.port';
import type { AgentStep } from '../../../domain/workflow/workflow.model';
import { stepAgentContext } from './agent-context';
import { placesFor } from '../validation/awf-path-tiers';
import { externalFilePath, readExternalFile } from '../validation/external-files';
import { interpolate, interpolateDeep, type RunContext } from '../run/run-context';

/** What an agent step runs with, rendered from the step's templates in the run's context. */
export interface AgentStepInput {
  provider: AgentProvider;
  /** As the step named it, rendered: conversations are recorded under it. */
  providerName: string;
  /** The skills' text, then the rendered prompt. */
  prompt: string;
  options: Record<string, unknown>;
  /** The role, then `system_prompt` (AWF's order); undefined without either. */
  systemPrompt?: string;
  cwd: string;
}

/**
 * Renders what the step asks for before anything starts, so a template error or an unknown
 * provider fails the step with no proxy and no agent to stop.
 */
export function agentStepInput(
  step: AgentStep,
  ctx: RunContext,
  agents: AgentCatalog,
  logger: AppLogger,
): AgentStepInput {
  const providerName = interpolate(ctx, step.provider, step.name, 'provider');
  const provider = agents.get(providerName);
  if (!provider) {
    const available = agents.names().join(', ') || 'none';
    throw new AwfError(
      ErrorCodes.WORKFLOW_UNKNOWN_PROVIDER,
      `states.${step.name}.provider: unknown agent provider "${providerName}" (available: ${available})`,
      { step: step.name, provider: providerName, available: agents.names() },
      'Use one of the available providers, or load the extension that adds this one (.awf/config.yaml `extensions:`).',
    );
  }
  const rendered = interpolate(ctx, promptText(step, ctx), step.name, step.promptFile ? 'prompt_file' : 'prompt');
  const context = stepAgentContext(step, ctx);
  const options = { ...(interpolateDeep(ctx, step.options, step.name, 'options') as Record<string, unknown>) };
  if (context.systemPrompt !== undefined) {
    // AWF: role + system_prompt is the system prompt, whatever options.system_prompt said.
    if (options.system_prompt !== undefined)
      logger.warn({ step: step.name }, "options.system_prompt is replaced by the step's role and system_prompt");
    options.system_prompt = context.systemPrompt;
  }
  const dir = step.dir ? interpolate(ctx, step.dir, step.name, 'dir') : undefined;
  return {
    provider,
    providerName,
    prompt: context.skills ? `${context.skills}\n\n${rendered}` : rendered,
    options,
    ...(context.systemPrompt !== undefined ? { systemPrompt: context.systemPrompt } : {}),
    cwd: dir ? (isAbsolute(dir) ? dir : resolve(ctx.cwd, dir)) : ctx.cwd,
  };
}

/** The prompt's template: `prompt`, or the text of `prompt_file` (its path a template too, AWF's lookup). */
function promptText(step: AgentStep, ctx: RunContext): string {
  if (step.promptFile === undefined) return step.prompt;
  const rendered = interpolate(ctx, step.promptFile, step.name, 'prompt_file');
  const sourceDir = ctx.workflow.sourceDir ?? ctx.cwd;
  const path = ctx.files ? externalFilePath(rendered, sourceDir, ctx.awf, ctx.files, ctx.env, ctx.cwd) : rendered;
  const searched = placesFor(rendered, sourceDir, ctx.awf, ctx.cwd);
  return readExternalFile(ctx.files, path, `states.${step.name}.prompt_file`, searched);
}
