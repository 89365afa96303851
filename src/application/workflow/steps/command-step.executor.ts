import { isAbsolute, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { CommandExecutor, CommandResult } from '../../../domain/workflow/ports/command-executor.port';
import type { RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { CommandStep, RetryConfig } from '../../../domain/workflow/workflow.model';
import { CAPTURE_OUTPUT_BYTES } from '../../../domain/workflow/output-truncation';
import { placesFor, rewriteAwfPaths } from '../validation/awf-path-tiers';
import { externalFilePath, readExternalFile } from '../validation/external-files';
import { interpolate, type RunContext } from '../run/run-context';
import type { StepOutcome } from './step-outcome';

/**
 * A `type: step`: interpolate, run in the shell with the inputs as environment variables,
 * retry per `retry:`. Neither a cancel nor a timeout is retried (as in AWF).
 */
export class CommandStepExecutor {
  constructor(private readonly executor: CommandExecutor) {}

  async execute(step: CommandStep, ctx: RunContext, observer?: RunObserver): Promise<StepOutcome> {
    const sourceDir = ctx.workflow.sourceDir ?? ctx.cwd;
    const field = step.scriptFile !== undefined ? 'script_file' : 'command';
    const text = step.scriptFile !== undefined ? loadScript(step, ctx, sourceDir) : step.command;
    const command = rewriteAwfPaths(interpolate(ctx, text, step.name, field), sourceDir, ctx.awf, ctx.files, ctx.cwd);
    const rendered = step.dir ? interpolate(ctx, step.dir, step.name, 'dir') : undefined;
    const dir = rendered && rewriteAwfPaths(rendered, sourceDir, ctx.awf, ctx.files, ctx.cwd);
    const cwd = dir ? (isAbsolute(dir) ? dir : resolve(ctx.cwd, dir)) : ctx.cwd;
    const script = step.scriptFile !== undefined && command.startsWith('#!');
    const env = { ...ctx.env, ...ctx.inputs };
    const retry = step.retry;
    const onOutput =
      observer?.stepOutput && ((s: 'stdout' | 'stderr', t: string) => observer.stepOutput?.(step.name, s, t));
    let attempt = 0;
    for (;;) {
      attempt++;
      const result = await this.executor.run({
        command,
        cwd,
        env,
        timeoutMs: step.timeoutMs,
        signal: ctx.signal,
        ...(script ? { script } : {}),
        ...(onOutput ? { onOutput } : {}),
      });
      if (result.truncated) warnTruncated(step.name, result.truncated, observer);
      const outcome = toOutcome(step, result, attempt);
      if (outcome.status !== 'failure' || !shouldRetry(retry, result, attempt)) return outcome;
      const delay = delayFor(retry!, attempt);
      observer?.stepRetrying?.(step.name, attempt, delay);
      try {
        await sleep(delay, undefined, { signal: ctx.signal });
      } catch {
        return { ...outcome, status: 'cancelled' };
      }
    }
  }
}

/** The output kept is what later steps see: say so, and how much is gone, once per attempt. */
function warnTruncated(step: string, cut: { stdout: number; stderr: number }, observer?: RunObserver): void {
  for (const stream of ['stdout', 'stderr'] as const) {
    if (!cut[stream]) continue;
    observer?.warn?.(
      `step "${step}": its ${stream} was too long; the first and last ${CAPTURE_OUTPUT_BYTES / 2 / 1024 / 1024} MiB ` +
        `are kept with "[… ${cut[stream]} bytes truncated …]" between (write large output to a file instead)`,
    );
  }
}

/** script_file: the path is a template; the file's text is then rendered like a command (AWF). */
function loadScript(step: CommandStep, ctx: RunContext, sourceDir: string): string {
  const field = `states.${step.name}.script_file`;
  const rendered = interpolate(ctx, step.scriptFile!, step.name, 'script_file');
  const path = ctx.files ? externalFilePath(rendered, sourceDir, ctx.awf, ctx.files, ctx.env, ctx.cwd) : rendered;
  return readExternalFile(ctx.files, path, field, placesFor(rendered, sourceDir, ctx.awf, ctx.cwd));
}

function toOutcome(step: CommandStep, r: CommandResult, attempts: number): StepOutcome {
  const state = { Output: r.stdout, Stderr: r.stderr, ExitCode: r.exitCode, Status: 'success' as const };
  if (r.cancelled) return { status: 'cancelled', state: { ...state, Status: 'cancelled' }, attempts, tool_calls: 0 };
  if (r.timedOut) {
    const error = new AwfError(
      ErrorCodes.EXECUTION_STEP_TIMEOUT,
      `step "${step.name}" timed out after ${step.timeoutMs} ms`,
      { step: step.name, timeout_ms: step.timeoutMs },
    );
    return { status: 'failure', state: { ...state, Status: 'failure' }, error, attempts, tool_calls: 0 };
  }
  if (r.exitCode !== 0) {
    const why = r.stderr.trim().split('\n').slice(-5).join('\n') || `exit code ${r.exitCode}`;
    const error = new AwfError(
      ErrorCodes.EXECUTION_STEP_FAILED,
      `step "${step.name}" failed (exit code ${r.exitCode}): ${why}`,
      { step: step.name, exit_code: r.exitCode },
      shellHint(r),
    );
    return { status: 'failure', state: { ...state, Status: 'failure' }, error, attempts, tool_calls: 0 };
  }
  return { status: 'success', state, attempts, tool_calls: 0 };
}

/** The shell's own exit codes for a command it could not start get a hint, as AWF gives them. */
function shellHint(r: CommandResult): string | undefined {
  if (r.exitCode === 127) {
    const name = missingCommand(r.stderr);
    return `The command is not installed or not in PATH${name ? `: check with \`command -v ${name}\`` : ''}.`;
  }
  if (r.exitCode === 126) return 'The command is not executable: check its permissions (`chmod +x <file>`).';
  return undefined;
}

/** The name in bash's "X: command not found", dash's "sh: 1: X: not found" or zsh's "command not found: X". */
export function missingCommand(stderr: string): string | undefined {
  const m = /command not found: (\S+)/.exec(stderr) ?? /([^\s:]+): (?:command )?not found/.exec(stderr);
  return m?.[1];
}

function shouldRetry(retry: RetryConfig | undefined, r: CommandResult, attempt: number): boolean {
  if (!retry || attempt >= retry.maxAttempts || r.cancelled || r.timedOut) return false;
  return retry.retryableExitCodes.length === 0 || retry.retryableExitCodes.includes(r.exitCode);
}

/** Delay before attempt `attempt + 1`. */
export function delayFor(retry: RetryConfig, attempt: number, random: () => number = Math.random): number {
  const base =
    retry.backoff === 'constant'
      ? retry.initialDelayMs
      : retry.backoff === 'linear'
        ? retry.initialDelayMs * attempt
        : retry.initialDelayMs * retry.multiplier ** (attempt - 1);
  const capped = retry.maxDelayMs !== undefined ? Math.min(base, retry.maxDelayMs) : base;
  const jittered = capped * (1 + retry.jitter * (random() * 2 - 1));
  return Math.max(0, Math.round(jittered));
}
