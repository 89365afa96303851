import { ErrorCodes } from '../errors/error-codes';
import { parseAgentContext } from './agent-context.parser';
import { parseCallWorkflow, parseLoop, parseOperation, parseParallel } from './flow-steps.parser';
import { parseStepHooks } from './hooks.parser';
import { parseMcpProxy } from './mcp-proxy.parser';
import { isMap, type Raw, str } from './raw-yaml';
import { parseAgentConversation, parseRetry, parseTimeout, parseTransitions } from './step-fields.parser';
import { type ValidationIssue, issue } from './validation-issue.model';
import type { AgentStep, CommandStep, Step, TerminalStep } from './workflow.model';

/** One state of `states:` as its type reads it; undefined (with an issue) when it cannot be one. */
export function parseStep(name: string, raw: unknown, issues: ValidationIssue[]): Step | undefined {
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

export function inlineName(step: string): string {
  return `__inline_error_${step}`;
}

export function inlineTerminal(step: string, raw: Raw): TerminalStep {
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
