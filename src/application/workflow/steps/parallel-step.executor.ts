import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { StepStateData } from '../../../domain/workflow/interpolation.types';
import type { BranchResult } from '../../../domain/workflow/ports/branch-runner.port';
import { type ExecutableStep, findStep, type ParallelStep } from '../../../domain/workflow/workflow.model';
import { type RunContext, scopedContext } from '../run/run-context';
import { errorJson } from '../run/run-report';
import { branchRunnerFor, gather } from './fan-out';
import type { StepOutcome } from './step-outcome';
import type { StepRunner } from './step-runner';

/** The state of a branch that never started because the parallel step was already decided. */
const NOT_STARTED: StepStateData = { Output: '', Stderr: '', ExitCode: -1, Status: 'cancelled' };

/**
 * `type: parallel` (AWF's ParallelExecutor): the branches run as ordinary states, at most
 * `max_concurrent` at a time, each with its own report line and a span under this step's.
 * all_succeed stops the others at the first failure; any_succeed stops them at the first
 * success; best_effort runs all and never fails. Stopping goes through the branches' shared
 * signal, so a losing branch's process group and its agent's `mcp-serve` end as on Ctrl-C.
 * Branch states stay readable afterwards (`.states.<branch>.Output`); `.states.<this>.Response`
 * holds each branch's Status, ExitCode and Output. With `fan_out: true` on a queue worker, the
 * branches run as child jobs on any worker (ADR 290); elsewhere in this process.
 */
export class ParallelStepExecutor {
  async execute(step: ParallelStep, ctx: RunContext, runner: StepRunner): Promise<StepOutcome> {
    const scope = scopedContext(ctx, { parentSpan: ctx.stepSpan ?? ctx.parentSpan });
    const failures: { name: string; result: BranchResult }[] = [];
    const branches = branchRunnerFor(step, ctx, step.branches.length);
    const results = await branches.run({
      step: step.name,
      tasks: step.branches.map((branch) => ({ kind: 'branch', branch })),
      width: step.maxConcurrent,
      signal: ctx.signal,
      states: ctx.states,
      runHere: (task, signal) =>
        this.runBranch(task.kind === 'branch' ? task.branch : '', { ...scope, signal }, runner),
      stopAfter: (result, i) => {
        if (result.status === 'failure') failures.push({ name: step.branches[i], result });
        return (
          (step.strategy === 'all_succeed' && result.status === 'failure') ||
          (step.strategy === 'any_succeed' && result.status === 'success')
        );
      },
    });
    gather(ctx, results);
    const ran = new Map<string, BranchResult>();
    step.branches.forEach((name, i) => {
      const result = results[i];
      if (result) ran.set(name, result);
      else ctx.states[name] = NOT_STARTED;
    });
    return this.outcome(step, ctx, ran, failures);
  }

  /** One branch, as an ordinary state in the step's scope. */
  async runBranch(name: string, scope: RunContext, runner: StepRunner): Promise<BranchResult> {
    const outcome = await runner.runStep(findStep(scope.workflow, name) as ExecutableStep, scope);
    return {
      status: outcome.status,
      state: outcome.state,
      ...(outcome.error ? { error: errorJson(outcome.error) } : {}),
      states: { [name]: outcome.state },
      reports: [],
      tool_calls: outcome.tool_calls,
    };
  }

  private outcome(
    step: ParallelStep,
    ctx: RunContext,
    results: Map<string, BranchResult>,
    failures: { name: string; result: BranchResult }[],
  ): StepOutcome {
    const ran = step.branches.filter((b) => results.has(b));
    const state: StepStateData = {
      // Each branch's output on its own lines, in the listed order.
      Output: ran
        .map((b) => results.get(b)!.state.Output)
        .filter((o) => o !== '')
        .map((o) => (o.endsWith('\n') ? o : `${o}\n`))
        .join(''),
      Stderr: '',
      ExitCode: 0,
      Status: 'success',
      Response: Object.fromEntries(
        step.branches.map((b) => {
          const s = ctx.states[b] ?? NOT_STARTED;
          return [b, { Status: s.Status, ExitCode: s.ExitCode, Output: s.Output }];
        }),
      ),
    };
    const tool_calls = [...results.values()].reduce((n, o) => n + o.tool_calls, 0);
    if (ctx.signal.aborted)
      return { status: 'cancelled', state: { ...state, Status: 'cancelled', ExitCode: -1 }, attempts: 1, tool_calls };
    const succeeded = [...results.values()].some((o) => o.status === 'success');
    const failed =
      step.strategy === 'all_succeed' ? failures.length > 0 : step.strategy === 'any_succeed' ? !succeeded : false;
    if (!failed) return { status: 'success', state, attempts: 1, tool_calls };
    const first = failures[0];
    const why =
      step.strategy === 'any_succeed'
        ? `none of its ${step.branches.length} branches succeeded (first failure: "${first?.name}": ${first?.result.error?.message ?? 'failed'})`
        : `branch "${first.name}" failed: ${first.result.error?.message ?? `exit code ${first.result.state.ExitCode}`}`;
    const error = new AwfError(
      ErrorCodes.EXECUTION_PARALLEL_FAILED,
      `parallel step "${step.name}" (${step.strategy}): ${why}`,
      { step: step.name, strategy: step.strategy, failed: failures.map((f) => f.name) },
    );
    return { status: 'failure', state: { ...state, Status: 'failure', ExitCode: 1 }, error, attempts: 1, tool_calls };
  }
}
