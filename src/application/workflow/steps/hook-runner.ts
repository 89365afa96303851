import { AwfError, isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { CommandExecutor } from '../../../domain/workflow/ports/command-executor.port';
import type { HookAction } from '../../../domain/workflow/workflow.model';
import { interpolate, type RunContext } from '../run/run-context';

/**
 * Runs one hook list (AWF's HookExecutor): actions in order, `log` written through the run's
 * observer, `command` in the shell like a command step. Returns the first failure instead of
 * throwing; the caller decides whether it stops the run (workflow_start) or is a warning.
 * Unlike AWF, which drops a hook command's stdout, awf shows it: a hook that echoes means it.
 */
export class HookRunner {
  constructor(private readonly executor: CommandExecutor) {}

  async run(
    actions: HookAction[] | undefined,
    ctx: RunContext,
    at: string,
    failFast: boolean,
  ): Promise<AwfError | undefined> {
    let first: AwfError | undefined;
    for (const [i, action] of (actions ?? []).entries()) {
      const error = await this.action(action, ctx, `${at}[${i}]`);
      if (!error) continue;
      if (ctx.signal.aborted || failFast) return error;
      ctx.observer?.warn?.(`${error.message} (the run goes on: only a workflow_start hook stops it)`);
      first ??= error;
    }
    return first;
  }

  private async action(action: HookAction, ctx: RunContext, at: string): Promise<AwfError | undefined> {
    const [field, text] = action.log !== undefined ? ['log', action.log] : ['command', action.command ?? ''];
    let rendered: string;
    try {
      rendered = interpolate(ctx, text, ctx.current, `${at.replace(/^states\.[^.]+\./, '')}.${field}`);
    } catch (err) {
      return isAwfError(err) ? hookError(at, err.message) : hookError(at, String(err));
    }
    if (field === 'log') {
      ctx.observer?.log?.(rendered);
      return undefined;
    }
    const result = await this.executor.run({
      command: rendered,
      cwd: ctx.cwd,
      env: { ...ctx.env, ...ctx.inputs },
      timeoutMs: 0,
      signal: ctx.signal,
    });
    for (const line of result.stdout.split('\n')) if (line.trim()) ctx.observer?.log?.(line);
    if (result.cancelled) return hookError(at, 'hook command was cancelled');
    if (result.exitCode !== 0) {
      const why = result.stderr.trim().split('\n').slice(-3).join('\n');
      return hookError(at, `hook command exited with code ${result.exitCode}${why ? `: ${why}` : ''}`, result.exitCode);
    }
    return undefined;
  }
}

function hookError(at: string, message: string, exitCode?: number): AwfError {
  return new AwfError(
    ErrorCodes.EXECUTION_HOOK_FAILED,
    `${at}: ${message}`,
    { hook: at, ...(exitCode !== undefined ? { exit_code: exitCode } : {}) },
    'Fix the hook command, or remove it; run it by hand in a shell to see why it fails.',
  );
}
