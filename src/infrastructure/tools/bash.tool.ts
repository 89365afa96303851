import { Inject, Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { errorResult, textResult, type ToolResult } from '../../domain/model/tool-result';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import type { ToolCallContext, ToolScope } from '../../domain/ports/tool-scope';
import { at, closeDir, openResolvedDir, reopenDir, type DirRef } from './beneath-root.resolver';
import { bashEnvironment } from './bash-environment.policy';
import type { BuiltinTool } from './builtin-tool.interface';
import { findExecutable } from './executable.lookup';
import { PathSandbox } from './path-sandbox.service';
import { pidNamespaceWrapper, runShell, type ShellOutcome } from './shell-process.runner';
import { ToolArgs } from './tool-args.reader';
import { ToolFailure } from './tool-failure.error';

/**
 * Claude Code's Bash. The sandbox bounds where the command starts (cwd = root) and what
 * environment it sees, not what it does: it runs with the user's rights.
 */
@Injectable()
export class BashTool implements BuiltinTool {
  readonly name = 'Bash';
  readonly title = 'Run shell command';
  readonly annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  readonly description =
    'Runs a bash command in the sandbox root with stdin closed and a reduced environment. Returns stdout, stderr and the exit code; ' +
    'a non-zero exit is an error. timeout is in milliseconds (default 120000, max 600000); on timeout the whole process group is killed. ' +
    'Output above 30000 characters is cut in the middle. Shell state (cd, variables) does not persist between calls.';
  readonly inputSchema = {
    type: 'object' as const,
    properties: {
      command: { type: 'string', description: 'The command to run' },
      timeout: { type: 'integer', minimum: 1, maximum: 600000, description: 'Timeout in milliseconds (max 600000)' },
      description: {
        type: 'string',
        description: 'Clear, concise description of what this command does in 5-10 words',
      },
    },
    required: ['command'],
  };

  constructor(
    private readonly sandbox: PathSandbox,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
  ) {}

  async run(raw: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const args = new ToolArgs(this.name, raw);
    const command = args.string('command', { required: true });
    const { limits, rootDir } = ctx.scope;
    const timeoutMs =
      args.integer('timeout', { min: 1, max: limits.bash_max_timeout_ms }) ?? limits.bash_default_timeout_ms;
    args.string('description');
    if (command.trim().length === 0) throw new ToolFailure('Bash: command is empty');
    // `cwd` is AWF's own argument: still accepted, still held to the sandbox.
    const cwdInput = args.string('cwd');
    const cwdDir = cwdInput === undefined ? undefined : this.directory(cwdInput, ctx.scope);
    const env = bashEnvironment(process.env, limits.env_passthrough);
    const shell = findExecutable('bash', env.PATH) ?? '/bin/sh';
    let running: Promise<ShellOutcome>;
    try {
      // The shell starts in the directory that was checked, by descriptor: spawn has chdir'ed
      // and exec'ed by the time it returns, so the descriptor can be closed right after.
      const cwd = cwdDir ? at(cwdDir) : rootDir;
      const sandbox = ctx.scope.bashSandbox;
      const wrapper = sandbox ? sandboxed(sandbox, rootDir, cwdDir, env) : pidNamespaceWrapper();
      if (sandbox) env.TMPDIR = '/tmp';
      running = runShell({
        wrapper,
        shell,
        command,
        cwd,
        env,
        timeoutMs,
        signal: ctx.signal,
        keep: limits.bash_output_max_chars,
      });
    } finally {
      if (cwdDir) closeDir(cwdDir);
    }
    return this.present(await running, timeoutMs, limits.bash_output_max_chars);
  }

  private directory(input: string, scope: ToolScope): DirRef {
    const found = this.sandbox.resolve(input, scope, 'cwd', 'exec');
    try {
      const dir = found.exists ? openResolvedDir(found.at, input) : undefined;
      if (!dir) throw new ToolFailure(`Bash: cwd ${input} is not an existing directory`);
      return dir.owned ? dir : reopenDir(dir);
    } finally {
      found.release();
    }
  }

  private present(outcome: ShellOutcome, timeoutMs: number, max: number): ToolResult {
    if (outcome.spawnError) return errorResult(`Bash: could not start the shell: ${outcome.spawnError.message}`);
    const body = this.masker.mask(renderStreams(outcome, max));
    if (outcome.timedOut)
      return errorResult(`Command timed out after ${timeoutMs} ms; its process group was killed.\n${body}`.trimEnd());
    if (outcome.aborted) return errorResult(`Command cancelled; its process group was killed.\n${body}`.trimEnd());
    if (outcome.code !== 0) {
      const status = outcome.code === null ? `Killed by signal ${outcome.signal}` : `Exit code ${outcome.code}`;
      return errorResult(`${status}\n${body}`.trimEnd());
    }
    return textResult(body.length > 0 ? body : '(no output)');
  }
}

/**
 * bwrap and its arguments for this call (bubblewrap.sandbox.ts, loaded only by a sandboxed step).
 * Inside the sandbox the path of the checked directory is what bwrap enters: below the root,
 * which is bound read-write, a directory swapped for a symlink out leads only to read-only files.
 */
function sandboxed(
  mode: NonNullable<ToolScope['bashSandbox']>,
  rootDir: string,
  cwdDir: DirRef | undefined,
  env: NodeJS.ProcessEnv,
): string[] {
  const { bubblewrap, sandboxArgs } = require('./bubblewrap.sandbox') as typeof import('./bubblewrap.sandbox');
  let binary: string;
  try {
    binary = bubblewrap();
  } catch (err) {
    if (!(err instanceof AwfError)) throw err;
    throw new ToolFailure(`Bash: [${err.code}] ${err.message}. ${err.hint ?? ''}`.trimEnd());
  }
  const cwd = cwdDir && cwdDir.rel !== '' ? `${rootDir}/${cwdDir.rel}` : rootDir;
  return [binary, ...sandboxArgs(mode, { rootDir, cwd, home: env.HOME })];
}

/** Shares the character budget between the streams, stderr getting at most half unless stdout leaves room. */
function renderStreams({ stdout, stderr }: ShellOutcome, max: number): string {
  const errBudget = Math.min(stderr.total, Math.max(Math.floor(max / 2), max - stdout.total));
  const outBudget = max - errBudget;
  const out = stdout.total > 0 ? stdout.render(outBudget) : '';
  const err = stderr.total > 0 ? stderr.render(errBudget) : '';
  if (!err) return out;
  return `${out}${out && !out.endsWith('\n') ? '\n' : ''}[stderr]\n${err}`;
}
