import { ErrorCodes } from '../errors/error-codes';
import { parseTags, parseWorkflowEnv } from './workflow-meta.parser';
import { parseDurationMs } from './duration';
import {
  parseCallWorkflow,
  parseLoop,
  parseOperation,
  parseParallel,
  parseStepHooks,
  parseWorkflowHooks,
  parseWorkflowOutputs,
} from './flow-steps.parser';
import { parseInputs } from './input.parser';
import { parseAgentContext } from './agent-context.parser';
import { parseMcpProxy } from './mcp-proxy.parser';
import { expandStepTemplates, NO_STEP_TEMPLATES, type StepTemplateSource } from './step-templates';
import { checkUnknownKeys } from './unknown-keys.rules';
import { type ValidationIssue, issue } from './validation-issue.model';
import type { AgentStep, CommandStep, RetryConfig, Step, TerminalStep, Transition, Workflow } from './workflow.model';

export interface ParseResult {
  workflow?: Workflow;
  issues: ValidationIssue[];
}

type Raw = Record<string, unknown>;

/**
 * Maps the YAML document to the model the way AWF's loader does: unknown keys are ignored
 * (except in `mcp_proxy`), `type: command` means `step`, an inline `on_failure` object
 * becomes a terminal state. Every problem is collected; nothing stops at the first.
 */
export function parseWorkflow(
  source: unknown,
  id: string,
  templates: StepTemplateSource = NO_STEP_TEMPLATES,
): ParseResult {
  if (!isMap(source))
    return { issues: [issue(ErrorCodes.WORKFLOW_YAML_SYNTAX, '', 'a workflow file must be a YAML mapping')] };
  const { doc, issues } = expandStepTemplates(source, templates) as { doc: Raw; issues: ValidationIssue[] };
  issues.push(...checkUnknownKeys(doc));
  if (doc.plugins !== undefined && doc.plugins !== null)
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_NO_EFFECT,
        'plugins',
        'plugins: names aliases for plugin step types (type: <alias>.<step>), which awf does not run; it has no effect',
        'warning',
      ),
    );
  const name = str(doc.name);
  if (!name) issues.push(issue(ErrorCodes.WORKFLOW_MISSING_FIELD, 'name', 'required field missing'));
  const inputs = parseInputs(doc.inputs, issues);
  const states = doc.states;
  if (!isMap(states)) {
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_MISSING_FIELD,
        'states',
        'required field missing (a mapping with `initial` and the steps)',
      ),
    );
    return { issues };
  }
  const initial = str(states.initial);
  if (!initial) issues.push(issue(ErrorCodes.WORKFLOW_MISSING_FIELD, 'states.initial', 'required field missing'));
  const steps: Step[] = [];
  const inline: Step[] = [];
  for (const [stepName, raw] of Object.entries(states)) {
    if (stepName === 'initial') continue;
    const step = parseStep(stepName, raw, issues);
    if (!step) continue;
    steps.push(step);
    const onFailure = isMap(raw) ? raw.on_failure : undefined;
    if (isMap(onFailure)) inline.push(inlineTerminal(stepName, onFailure));
  }
  const workflow: Workflow = {
    id,
    name: name ?? id,
    version: scalar(doc.version),
    description: str(doc.description),
    inputs,
    initial: initial ?? '',
    steps: [...steps, ...inline],
    hooks: parseWorkflowHooks(doc.hooks, issues),
    outputs: parseWorkflowOutputs(doc.outputs, issues),
    author: scalar(doc.author),
    tags: parseTags(doc.tags, issues),
    env: parseWorkflowEnv(doc.env, issues),
  };
  return { workflow, issues };
}

function parseStep(name: string, raw: unknown, issues: ValidationIssue[]): Step | undefined {
  const at = `states.${name}`;
  if (!isMap(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, 'expected a mapping'));
    return undefined;
  }
  // A `use_template` step still here could not be expanded, and an error already says why; it
  // stands in as a command step so no follow-on error (a missing type, a missing state) buries that one.
  const unexpanded = 'use_template' in raw;
  const type = unexpanded ? 'step' : str(raw.type)?.toLowerCase();
  const base = {
    name,
    description: str(raw.description),
    onSuccess: str(raw.on_success),
    onFailure:
      typeof raw.on_failure === 'string' ? raw.on_failure : isMap(raw.on_failure) ? inlineName(name) : undefined,
    transitions: parseTransitions(raw.transitions, at, issues),
    continueOnError: raw.continue_on_error === true,
    timeoutMs: parseTimeout(raw.timeout, at, issues),
    mcpProxy: parseMcpProxy(raw.mcp_proxy, `${at}.mcp_proxy`, issues),
    hooks: parseStepHooks(raw.hooks, `${at}.hooks`, issues),
  };
  if (!type) {
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_MISSING_FIELD,
        `${at}.type`,
        'required field missing (step, agent, terminal, parallel, for_each, while, call_workflow or operation)',
      ),
    );
    return undefined;
  }
  if (type === 'step' || type === 'command') {
    const command = str(raw.command);
    const scriptFile = str(raw.script_file);
    if (command && scriptFile)
      issues.push(
        issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.script_file`, 'command and script_file are mutually exclusive'),
      );
    else if (!command && !scriptFile && !unexpanded)
      issues.push(issue(ErrorCodes.WORKFLOW_MISSING_FIELD, `${at}.command`, 'a step needs a command or a script_file'));
    const step: CommandStep = {
      ...base,
      type: 'step',
      command: command ?? '',
      ...(scriptFile ? { scriptFile } : {}),
      dir: str(raw.dir),
      retry: parseRetry(raw.retry, `${at}.retry`, issues),
    };
    return step;
  }
  if (type === 'agent') {
    const provider = str(raw.provider);
    if (!provider)
      issues.push(issue(ErrorCodes.WORKFLOW_MISSING_FIELD, `${at}.provider`, 'an agent step needs a provider'));
    const prompt = str(raw.prompt);
    const promptFile = str(raw.prompt_file);
    if (prompt && promptFile)
      issues.push(
        issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.prompt_file`, 'prompt and prompt_file are mutually exclusive'),
      );
    else if (promptFile && raw.mode === 'conversation')
      issues.push(
        issue(
          ErrorCodes.WORKFLOW_INVALID_FIELD,
          `${at}.prompt_file`,
          'prompt_file is not supported in conversation mode (as in AWF); give the first turn in `prompt`',
        ),
      );
    else if (prompt === undefined && !promptFile)
      issues.push(
        issue(ErrorCodes.WORKFLOW_MISSING_FIELD, `${at}.prompt`, 'an agent step needs a prompt or a prompt_file'),
      );
    if (raw.options !== undefined && !isMap(raw.options))
      issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.options`, 'options must be a mapping'));
    const step: AgentStep = {
      ...base,
      type: 'agent',
      provider: provider ?? '',
      prompt: prompt ?? '',
      ...(promptFile ? { promptFile } : {}),
      options: isMap(raw.options) ? raw.options : {},
      dir: str(raw.dir),
      ...parseAgentConversation(raw, at, issues),
      ...parseAgentContext(raw, at, issues),
    };
    return step;
  }
  if (type === 'terminal') {
    const status = raw.status === undefined || raw.status === '' ? 'success' : raw.status;
    if (status !== 'success' && status !== 'failure') {
      issues.push(
        issue(
          ErrorCodes.WORKFLOW_INVALID_FIELD,
          `${at}.status`,
          `status must be success or failure, not ${JSON.stringify(raw.status)}`,
        ),
      );
    }
    const step: TerminalStep = {
      ...base,
      type: 'terminal',
      status: status === 'failure' ? 'failure' : 'success',
      message: str(raw.message),
    };
    return step;
  }
  if (type === 'parallel') return parseParallel(base, raw, at, issues);
  if (type === 'for_each' || type === 'while') return parseLoop(base, type, raw, at, issues);
  if (type === 'call_workflow') return parseCallWorkflow(base, raw, at, issues);
  if (type === 'operation') return parseOperation(base, raw, at, issues);
  issues.push(
    issue(
      ErrorCodes.WORKFLOW_INVALID_FIELD,
      `${at}.type`,
      `unknown step type "${type}" (expected step, agent, terminal, parallel, for_each, while, call_workflow or operation)`,
    ),
  );
  return undefined;
}

/** `mode`, `system_prompt`, `conversation: {continue_from}` and `output_format` of an agent step. */
function parseAgentConversation(
  raw: Raw,
  at: string,
  issues: ValidationIssue[],
): Pick<AgentStep, 'mode' | 'systemPrompt' | 'continueFrom' | 'outputFormat'> {
  const mode = raw.mode === undefined || raw.mode === '' ? 'single' : raw.mode;
  if (mode !== 'single' && mode !== 'conversation')
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.mode`,
        `mode must be single or conversation, not ${JSON.stringify(raw.mode)}`,
      ),
    );
  const format = raw.output_format === undefined || raw.output_format === '' ? undefined : raw.output_format;
  if (format !== undefined && format !== 'json' && format !== 'text')
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.output_format`,
        `output_format must be json or text, not ${JSON.stringify(raw.output_format)}`,
      ),
    );
  if (raw.conversation !== undefined && raw.conversation !== null && !isMap(raw.conversation))
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.conversation`,
        'conversation must be a mapping like {continue_from: step}',
      ),
    );
  const continueFrom = isMap(raw.conversation) ? str(raw.conversation.continue_from) : undefined;
  return {
    mode: mode === 'conversation' ? 'conversation' : 'single',
    systemPrompt: str(raw.system_prompt),
    continueFrom: continueFrom || undefined,
    outputFormat: format === 'json' || format === 'text' ? format : undefined,
  };
}

export function inlineName(step: string): string {
  return `__inline_error_${step}`;
}

function inlineTerminal(step: string, raw: Raw): TerminalStep {
  return {
    name: inlineName(step),
    type: 'terminal',
    status: 'failure',
    message: str(raw.message),
    transitions: [],
    continueOnError: false,
    timeoutMs: 0,
  };
}

function parseTransitions(raw: unknown, at: string, issues: ValidationIssue[]): Transition[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    issues.push(
      issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.transitions`, 'transitions must be a list of {when, goto}'),
    );
    return [];
  }
  const out: Transition[] = [];
  raw.forEach((t, i) => {
    const goto = isMap(t) ? str(t.goto) : undefined;
    if (!isMap(t) || !goto) {
      issues.push(
        issue(ErrorCodes.WORKFLOW_MISSING_FIELD, `${at}.transitions[${i}].goto`, 'a transition needs a goto'),
      );
      return;
    }
    out.push({ goto, when: t.when === undefined || t.when === null ? undefined : String(t.when) });
  });
  return out;
}

function parseTimeout(raw: unknown, at: string, issues: ValidationIssue[]): number {
  if (raw === undefined || raw === null) return 0;
  const ms = parseDurationMs(raw);
  if (ms === undefined) {
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.timeout`,
        `timeout must be seconds or a duration like "90s" or "2m", not ${JSON.stringify(raw)}`,
      ),
    );
    return 0;
  }
  return ms;
}

function parseRetry(raw: unknown, at: string, issues: ValidationIssue[]): RetryConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isMap(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, 'retry must be a mapping'));
    return undefined;
  }
  const bad = (key: string, why: string): void =>
    void issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.${key}`, why));
  const maxAttempts = raw.max_attempts === undefined ? 1 : Number(raw.max_attempts);
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) bad('max_attempts', 'max_attempts must be an integer ≥ 1');
  const delay = (key: string): number | undefined => {
    if (raw[key] === undefined) return undefined;
    const ms = parseDurationMs(raw[key]);
    if (ms === undefined) bad(key, `${key} must be seconds or a duration like "2s"`);
    return ms;
  };
  const backoff = raw.backoff === undefined ? 'constant' : String(raw.backoff);
  if (!['constant', 'linear', 'exponential'].includes(backoff))
    bad('backoff', 'backoff must be constant, linear or exponential');
  const multiplier = raw.multiplier === undefined ? 2 : Number(raw.multiplier);
  if (!(multiplier >= 0)) bad('multiplier', 'multiplier must be a number ≥ 0');
  const jitter = raw.jitter === undefined ? 0 : Number(raw.jitter);
  if (!(jitter >= 0 && jitter <= 1)) bad('jitter', 'jitter must be between 0 and 1');
  const codes = raw.retryable_exit_codes ?? [];
  if (!Array.isArray(codes) || codes.some((c) => !Number.isInteger(c)))
    bad('retryable_exit_codes', 'retryable_exit_codes must be a list of integers');
  return {
    maxAttempts: Number.isInteger(maxAttempts) && maxAttempts >= 1 ? maxAttempts : 1,
    initialDelayMs: delay('initial_delay') ?? 1000,
    maxDelayMs: delay('max_delay'),
    backoff: backoff as RetryConfig['backoff'],
    multiplier: multiplier >= 0 ? multiplier : 2,
    jitter: jitter >= 0 && jitter <= 1 ? jitter : 0,
    retryableExitCodes: Array.isArray(codes) ? codes.filter(Number.isInteger) : [],
  };
}

export function isMap(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function scalar(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
