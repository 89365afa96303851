import { hostname, userInfo } from 'node:os';
import { AwfError, isAwfError } from '../../../domain/errors/awf-error';
import type { ErrorData, LoopData, StepStateData, TemplateContext } from '../../../domain/workflow/interpolation.types';
import type { RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { StepResult } from '../../../domain/workflow/run-report.model';
import type { TraceSpan } from '../../../domain/ports/tracer.port';
import type { WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import type { Workflow } from '../../../domain/workflow/workflow.model';
import type { BranchRunner } from '../../../domain/workflow/ports/branch-runner.port';
import type { AwfDirs } from './awf-dirs';
import type { ConversationRecord } from '../steps/agent-conversation';
import { templateInputs } from './input-resolver';
import { renderTemplate } from '../template/template-engine';

/** The state of one run as steps see it. */
export interface RunContext {
  workflow: Workflow;
  runId: string;
  inputs: Record<string, string>;
  env: Record<string, string>;
  states: Record<string, StepStateData>;
  startedAt: Date;
  current: string;
  signal: AbortSignal;
  /** Where the run keeps its files (the steps' audit events). */
  runDir: string;
  cwd: string;
  /** The running step's span: its traceparent goes into the step's proxy config. */
  stepSpan?: TraceSpan;
  /** Each finished agent step's session and turns, for a later `conversation.continue_from`. */
  conversations?: Record<string, ConversationRecord>;
  /** The next user turn of a `mode: conversation` step (`undefined`: no more input). */
  userInput?: (step: string) => Promise<string | undefined>;
  /** Where new step spans hang: the run's span, or the parallel / loop step running them. */
  parentSpan?: TraceSpan;
  /** Inside a loop body: the iteration's `.loop`. */
  loop?: LoopData;
  /** In `workflow_error` hooks: what failed. */
  error?: ErrorData;
  /** Workflow names from the top run down to this one (call_workflow). */
  callStack: string[];
  /** Every step report of this run, shared by the branches and bodies that add to it. */
  reports: StepResult[];
  observer?: RunObserver;
  /** What script_file, prompt_file and readFile read through (absent: they fail with a coded error). */
  files?: WorkflowFiles;
  /** `.awf.*`: AWF's directories, also the global side of the local-before-global rewrite. */
  awf: AwfDirs;
  /** Where `fan_out: true` steps send their tasks (a queue worker's child jobs); absent: this process. */
  branches?: BranchRunner;
}

/**
 * The context a branch or loop body step runs in: its own signal, span parent and `.loop`;
 * the states and reports shared with the run (a branch's output is readable afterwards).
 */
export function scopedContext(
  ctx: RunContext,
  scope: Partial<Pick<RunContext, 'signal' | 'parentSpan' | 'loop' | 'current'>>,
): RunContext {
  return { ...ctx, ...scope, stepSpan: undefined };
}

export function templateData(ctx: RunContext): TemplateContext {
  return {
    inputs: templateInputs(ctx.workflow.inputs, ctx.inputs),
    states: ctx.states,
    env: ctx.env,
    workflow: {
      ID: ctx.runId,
      Name: ctx.workflow.name,
      CurrentState: ctx.current,
      StartedAt: ctx.startedAt.toISOString(),
    },
    context: { WorkingDir: ctx.cwd, User: userName(ctx.env), Hostname: hostname() },
    awf: ctx.awf,
    ...(ctx.loop ? { loop: ctx.loop } : {}),
    ...(ctx.error ? { error: ctx.error } : {}),
  };
}

/** Renders one field of a step; a failure names the step and the field. */
export function interpolate(ctx: RunContext, text: string, step: string, field: string): string {
  return interpolateAt(ctx, text, `states.${step}.${field}`, { step, field });
}

/**
 * Renders a template of the workflow at `path` (`states.x.command`, `hooks.workflow_start[0].log`);
 * a failure names the path, and an unset `{{.env.X}}` names the variable and how to set it.
 */
export function interpolateAt(ctx: RunContext, text: string, path: string, details: Record<string, unknown> = {}) {
  try {
    const files = ctx.files && { files: ctx.files, cwd: ctx.cwd };
    return renderTemplate(text, templateData(ctx) as unknown as Record<string, unknown>, files);
  } catch (err) {
    if (!isAwfError(err)) throw err;
    const env = /^\.env\.(\w+)$/.exec(String(err.details.reference ?? ''))?.[1];
    if (env)
      return fail(
        `${path}: environment variable ${env} is not set`,
        `Set ${env} for the run (${env}=… awf run …), or give it a value in the workflow's env: mapping.`,
      );
    return fail(
      `${path}: ${err.message}`,
      'Run `awf validate` on the workflow; a state can only be read after it has run.',
    );
    function fail(message: string, hint: string): never {
      throw new AwfError((err as AwfError).code, message, { ...(err as AwfError).details, ...details }, hint);
    }
  }
}

/** Agent options may hold templates at any depth (AWF's docs show them; see ADR). */
export function interpolateDeep(ctx: RunContext, value: unknown, step: string, path: string): unknown {
  if (typeof value === 'string') return interpolate(ctx, value, step, path);
  if (Array.isArray(value)) return value.map((v, i) => interpolateDeep(ctx, v, step, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, interpolateDeep(ctx, v, step, `${path}.${k}`)]),
    );
  }
  return value;
}

/** AWF's order: the OS user, then $USER, then `unknown`. */
function userName(env: Record<string, string>): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER || 'unknown';
  }
}
