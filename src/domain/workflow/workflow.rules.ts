import { ErrorCodes } from '../errors/error-codes';
import { type ValidationIssue, issue } from './validation-issue.model';
import type { McpProxySettings, Step, Workflow } from './workflow.model';

/**
 * The load-time rules of AWF that need nothing but the model: the graph's references,
 * a terminal to end on, a route out of every command step, and ADR 017's proxy rules.
 * Rules that need the outside world (plugins, providers, templates) live in the validator.
 */
export function checkWorkflow(workflow: Workflow): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const names = new Set(workflow.steps.map((s) => s.name));
  const available = [...names].filter((n) => !n.startsWith('__inline_error_')).join(', ');
  if (workflow.initial && !names.has(workflow.initial)) {
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_MISSING_STATE,
        'states.initial',
        `initial state "${workflow.initial}" does not exist (states: ${available})`,
      ),
    );
  }
  if (!workflow.steps.some((s) => s.type === 'terminal')) {
    issues.push(issue(ErrorCodes.WORKFLOW_NO_TERMINAL, 'states', 'a workflow needs at least one terminal state'));
  }
  const inner = innerStates(workflow);
  for (const step of workflow.steps) {
    const at = `states.${step.name}`;
    const ref = (field: string, target: string | undefined): void => {
      if (target !== undefined && !names.has(target)) {
        issues.push(
          issue(
            ErrorCodes.WORKFLOW_MISSING_STATE,
            `${at}.${field}`,
            `state "${target}" does not exist (states: ${available})`,
          ),
        );
      }
    };
    ref('on_success', step.onSuccess);
    ref('on_failure', step.onFailure);
    step.transitions.forEach((t, i) => ref(`transitions[${i}].goto`, t.goto));
    if (step.type === 'agent' && step.continueFrom !== undefined) {
      ref('conversation.continue_from', step.continueFrom);
      const from = workflow.steps.find((s) => s.name === step.continueFrom);
      if (from && from.type !== 'agent') {
        issues.push(
          issue(
            ErrorCodes.WORKFLOW_INVALID_FIELD,
            `${at}.conversation.continue_from`,
            `"${step.continueFrom}" is a ${from.type} step; a conversation continues an agent step`,
          ),
        );
      }
      if (step.continueFrom === step.name)
        issues.push(
          issue(
            ErrorCodes.WORKFLOW_INVALID_FIELD,
            `${at}.conversation.continue_from`,
            'a step cannot continue its own conversation',
          ),
        );
    }
    issues.push(...checkInnerStates(step, workflow, available));
    if (step.type === 'for_each' || step.type === 'while') ref('on_complete', step.onComplete);
    // Branches and loop bodies are routed by their parent step (AWF exempts both).
    if (
      step.type === 'step' &&
      !inner.has(step.name) &&
      !step.onSuccess &&
      !step.onFailure &&
      step.transitions.length === 0
    ) {
      issues.push(
        issue(ErrorCodes.WORKFLOW_NO_ROUTE, at, 'a command step needs on_success, on_failure or transitions'),
      );
    }
    issues.push(...checkMcpProxy(step));
  }
  return issues;
}

/** The states run by a parallel step or a loop rather than by the main loop. */
function innerStates(workflow: Workflow): Set<string> {
  const out = new Set<string>();
  for (const s of workflow.steps) {
    if (s.type === 'parallel') s.branches.forEach((b) => out.add(b));
    if (s.type === 'for_each' || s.type === 'while') s.body.forEach((b) => out.add(b));
  }
  return out;
}

/** A branch or body entry names an existing, runnable state other than its parent. */
function checkInnerStates(step: Step, workflow: Workflow, available: string): ValidationIssue[] {
  const list =
    step.type === 'parallel' ? step.branches : step.type === 'for_each' || step.type === 'while' ? step.body : [];
  const key = step.type === 'parallel' ? 'parallel' : 'body';
  const out: ValidationIssue[] = [];
  list.forEach((name, i) => {
    const at = `states.${step.name}.${key}[${i}]`;
    const target = workflow.steps.find((s) => s.name === name);
    if (!target)
      out.push(issue(ErrorCodes.WORKFLOW_MISSING_STATE, at, `state "${name}" does not exist (states: ${available})`));
    else if (target.type === 'terminal')
      out.push(
        issue(
          ErrorCodes.WORKFLOW_INVALID_FIELD,
          at,
          `"${name}" is a terminal state; only runnable states can be ${key === 'body' ? 'in a loop body' : 'branches'}`,
        ),
      );
    else if (name === step.name) out.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, `"${name}" cannot run itself`));
  });
  return out;
}

/** EMPTY_PROXY and duplicate plugin entries; checked only when the proxy is enabled. */
export function checkMcpProxy(step: Step): ValidationIssue[] {
  const proxy: McpProxySettings | undefined = step.mcpProxy;
  if (!proxy?.enable) return [];
  const at = `states.${step.name}.mcp_proxy`;
  const issues: ValidationIssue[] = [];
  if (!proxy.interceptBuiltins && proxy.pluginTools.length === 0 && !proxy.servers?.length) {
    issues.push(
      issue(
        ErrorCodes.MCP_PROXY_EMPTY_PROXY,
        at,
        'MCP proxy enabled with intercept_builtins=false but no plugin_tools specified',
      ),
    );
  }
  const seen = new Set<string>();
  proxy.pluginTools.forEach((p, i) => {
    if (seen.has(p.plugin))
      issues.push(
        issue(
          ErrorCodes.MCP_PROXY_NAME_COLLISION,
          `${at}.plugin_tools[${i}].plugin`,
          `duplicate plugin entry: ${p.plugin}`,
        ),
      );
    seen.add(p.plugin);
  });
  return issues;
}
