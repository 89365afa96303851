import { Inject } from '@nestjs/common';
import { Command, Option } from 'nest-commander';
import { QueuedRuns } from '../../../application/queue/queued-runs.service';
import { RUN_QUEUES, type RunQueues } from '../../../domain/ports/run-queue.port';
import { parseInputFlags } from '../../../application/workflow/run/input-resolver';
import { parseMockFlags } from '../../../application/workflow/run/mock-states';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { renderDryRun } from './dry-run.renderer';
import { runOnQueue } from './queued-run';
import { globalFlags } from '../global-flags';
import { InteractiveGate } from './interactive.gate';
import { RunSessionCommand, type RunSessionOptions, stringEnv } from './run-session.command-base';
import { renderWorkflowHelp } from './workflow-help.renderer';

interface RunOptions extends RunSessionOptions {
  queue?: string | true;
  detach?: boolean;
  dryRun?: boolean;
  step?: string;
  mock?: string[];
  skipPlugins?: boolean;
  interactive?: boolean;
  breakpoint?: string[];
  debugTranscriptMirror?: string;
  help?: boolean;
}

/** `awf run <workflow>`: progress on stderr, the run's output (or its JSON report) on stdout. */
@Command({
  name: 'run',
  arguments: '[workflow]',
  description: 'Run a workflow, given by name or by path to its .yaml file',
})
export class RunCommand extends RunSessionCommand {
  // Property-injected, so `awf resume` (the same base class) needs no queue.
  @Inject(RUN_QUEUES) private readonly queues!: RunQueues;
  @Inject(QueuedRuns) private readonly queued!: QueuedRuns;

  async run([target]: string[], options: RunOptions): Promise<void> {
    const flags = globalFlags(this.command);
    if (options.help) {
      const workflow = target ? await this.workflows.describe(target) : undefined;
      // Our -h replaces commander's, which would otherwise be listed twice.
      this.command.helpOption(false);
      process.stdout.write(renderWorkflowHelp(workflow, this.command.helpInformation(), flags.format));
      return;
    }
    if (!target)
      throw usage('awf run needs a workflow', 'Give a name (`awf list` shows them) or a path to a .yaml file.');
    checkCombination(options);
    if (options.queue !== undefined) {
      const { queues, queued } = this;
      const session = (start: Parameters<RunSessionCommand['session']>[1]) =>
        this.session(options, start, { resumable: false });
      return runOnQueue({
        target,
        queue: options.queue,
        detach: options.detach,
        input: options.input,
        flags,
        projectInputs: this.project.inputs,
        queues,
        queued,
        session,
      });
    }
    if (options.dryRun) {
      const plan = await this.workflows.dryRun({
        target,
        inputs: parseInputFlags(options.input ?? []),
        projectInputs: this.project.inputs,
        env: stringEnv(process.env),
        cwd: process.cwd(),
      });
      process.stdout.write(renderDryRun(plan, flags.format, (s) => this.masker.mask(s)));
      return;
    }
    if (options.step) {
      const step = options.step;
      const mocks = parseMockFlags(options.mock ?? []);
      if (!flags.quiet && flags.format !== 'json')
        process.stderr.write(`Running single step: ${step} from workflow: ${target}\n`);
      await this.session(options, (base) => this.workflows.runStep({ ...base, target, step, mocks }), {
        resumable: false,
      });
      return;
    }
    const breakpoints = (options.breakpoint ?? [])
      .flatMap((b) => b.split(','))
      .map((b) => b.trim())
      .filter(Boolean);
    const interactive = options.interactive || breakpoints.length > 0;
    if (interactive && !process.stdin.isTTY) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        '--interactive and --breakpoint need a terminal on stdin',
        {},
        'Run it from a terminal; in scripts use --dry-run to see the plan, or -s <step> to run one step.',
      );
    }
    await this.session(options, (base) =>
      this.workflows.run({
        ...base,
        target,
        transcriptMirror: options.debugTranscriptMirror,
        gate: interactive
          ? new InteractiveGate(base.turns, this.masker, breakpoints.length ? new Set(breakpoints) : undefined)
          : undefined,
      }),
    );
  }

  @Option({ flags: '--dry-run', description: 'print the plan with its commands interpolated; run nothing' })
  parseDryRun(): boolean {
    return true;
  }

  @Option({ flags: '-s, --step <name>', description: 'run only this step (with -m for the states it reads)' })
  parseStep(value: string): string {
    return value;
  }

  @Option({
    flags: '-m, --mock <states.x.Output=value>',
    description: 'a state for -s, as if step x had run (repeatable)',
  })
  parseMock(value: string, previous: string[] = []): string[] {
    return [...previous, value];
  }

  @Option({ flags: '--skip-plugins', description: 'do not look for plugins (a workflow that needs one is refused)' })
  parseSkipPlugins(): boolean {
    return true;
  }

  @Option({
    flags: '--interactive',
    description: 'pause before each step: continue, skip, abort, inspect, edit, retry',
  })
  parseInteractive(): boolean {
    return true;
  }

  @Option({ flags: '-b, --breakpoint <steps>', description: 'pause only at these steps (comma-separated, repeatable)' })
  parseBreakpoint(value: string, previous: string[] = []): string[] {
    return [...previous, value];
  }

  @Option({
    flags: '--queue [url]',
    description:
      'run it on a worker through this queue (redis://… or postgres://…; alone: AWF_QUEUE_URL) and follow it',
  })
  parseQueue(value?: string): string | true {
    return value ?? true;
  }

  @Option({ flags: '--detach', description: 'with --queue: print the run id and return without following' })
  parseDetach(): boolean {
    return true;
  }

  @Option({
    flags: '--debug-transcript-mirror <path>',
    description: "[debug] append every transcript event to this file too (awf runs transcript reads the run's own)",
  })
  parseTranscriptMirror(value: string): string {
    return value;
  }

  @Option({ flags: '-h, --help', description: "this help; with a workflow, that workflow's inputs too" })
  parseHelp(): boolean {
    return true;
  }
}

function checkCombination(o: RunOptions): void {
  const modes = [o.dryRun && '--dry-run', o.step && '--step', (o.interactive || o.breakpoint) && '--interactive'];
  const given = modes.filter(Boolean);
  if (given.length > 1) throw usage(`${given.join(' and ')} cannot be combined`, 'Pick one of them.');
  if (o.queue !== undefined && given.length)
    throw usage(`${given[0]} cannot be combined with --queue`, 'A queued run runs whole on a worker.');
  if (o.detach && o.queue === undefined) throw usage('--detach needs --queue', 'Use --queue URL --detach.');
  if (o.mock?.length && !o.step) throw usage('--mock needs --step', 'Use -s <step> -m states.x.Output=value.');
}

function usage(message: string, hint: string): AwfError {
  return new AwfError(ErrorCodes.CLI_INVALID_ARGS, message, {}, hint);
}
