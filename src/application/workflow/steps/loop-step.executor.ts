import { isAwfError } from '../../../domain/errors/awf-error';
import type { LoopData, StepStateData } from '../../../domain/workflow/interpolation.types';
import { type ExecutableStep, findStep, type LoopStep } from '../../../domain/workflow/workflow.model';
import type { BranchResult } from '../../../domain/workflow/ports/branch-runner.port';
import { Condition } from '../template/condition-evaluator';
import { branchRunnerFor, changedStates, gather } from './fan-out';
import { loopError, maxIterations, parseItems } from './loop-limits';
import { interpolate, type RunContext, scopedContext } from '../run/run-context';
import type { StepOutcome } from './step-outcome';
import { conditionEnv, route } from './step-routing';
import type { StepRunner } from './step-runner';

/** Body steps one iteration may run, jumps included, before it is called a runaway. */
const MAX_BODY_RUNS = 10_000;

type Iteration =
  | { kind: 'done' }
  | { kind: 'cancelled' }
  | { kind: 'failed'; outcome: StepOutcome; step: string }
  | { kind: 'exit'; next: string; failed: boolean };

/**
 * `type: for_each` and `type: while` (AWF's LoopExecutor). Each iteration runs the body in
 * order with its own `.loop` (Parent: the enclosing loop's). A body step's route decides what
 * follows: a body state jumps there, the loop itself (or no route) goes on to the next body
 * step, any other state leaves the loop for it. `break_when` is checked after each iteration.
 * A body step that fails with nowhere to go fails the loop (then the loop's on_failure applies).
 */
export class LoopStepExecutor {
  async execute(step: LoopStep, ctx: RunContext, runner: StepRunner): Promise<StepOutcome> {
    let limit: number;
    let items: unknown[] | undefined;
    try {
      limit = maxIterations(step, (text) => interpolate(ctx, text, step.name, 'max_iterations'));
      items = step.type === 'for_each' ? parseItems(interpolate(ctx, step.items ?? '', step.name, 'items')) : undefined;
    } catch (err) {
      if (!isAwfError(err)) throw err;
      return this.result(step, 0, 'failure', { error: err });
    }
    if (items && items.length > limit) {
      ctx.observer?.warn?.(
        `loop "${step.name}": ${items.length} items but max_iterations is ${limit}; only the first ${limit} run`,
      );
      items = items.slice(0, limit);
    }
    if (items && step.fanOut) return this.fanOut(step, ctx, runner, items);
    const total = items ? items.length : limit;
    let done = 0;
    for (let i = 0; i < total; i++) {
      if (ctx.signal.aborted) return this.result(step, done, 'cancelled');
      const loop: LoopData = items
        ? {
            Item: items[i],
            Index: i,
            Index1: i + 1,
            First: i === 0,
            Last: i === total - 1,
            Length: total,
            Parent: ctx.loop ?? null,
          }
        : { Index: i, Index1: i + 1, First: i === 0, Last: false, Length: -1, Parent: ctx.loop ?? null };
      const body = scopedContext(ctx, { loop, parentSpan: ctx.stepSpan ?? ctx.parentSpan });
      if (step.condition !== undefined && !Condition.compile(step.condition).evaluate(conditionEnv(body, step.name))) {
        // A loop that never ran would otherwise pass in silence, like one that did its work.
        if (i === 0) ctx.observer?.info?.(`loop ${step.name}: condition false, 0 iterations`);
        break;
      }
      const it = await this.iteration(step, body, runner);
      done++;
      if (it.kind === 'cancelled') return this.result(step, done, 'cancelled');
      if (it.kind === 'failed') {
        const why = it.outcome.error?.message ?? `exit code ${it.outcome.state.ExitCode}`;
        return this.result(step, done, 'failure', {
          error: loopError(step, `iteration ${i + 1}: step "${it.step}" failed: ${why}`),
        });
      }
      if (it.kind === 'exit') return this.result(step, done, it.failed ? 'failure' : 'success', { next: it.next });
      if (step.breakWhen && Condition.compile(step.breakWhen).evaluate(conditionEnv(body, step.name))) break;
      if (
        step.condition !== undefined &&
        done === limit &&
        Condition.compile(step.condition).evaluate(conditionEnv(body, step.name))
      ) {
        ctx.observer?.warn?.(
          `while loop "${step.name}" stopped at max_iterations (${limit}) with its condition still true`,
        );
      }
    }
    return this.result(step, done, 'success');
  }

  /**
   * `fan_out: true`: every item at once (at most `max_concurrent`), each with its own copy of the
   * states, through the run's BranchRunner; gathered in item order. The first item (in order)
   * that failed or left the loop decides, as the first one would in a loop one by one, and
   * stops the items still running.
   */
  private async fanOut(step: LoopStep, ctx: RunContext, runner: StepRunner, items: unknown[]): Promise<StepOutcome> {
    const loop = (i: number): LoopData => ({
      Item: items[i],
      Index: i,
      Index1: i + 1,
      First: i === 0,
      Last: i === items.length - 1,
      Length: items.length,
      Parent: ctx.loop ?? null,
    });
    const results = await branchRunnerFor(step, ctx, items.length).run({
      step: step.name,
      tasks: items.map((_, i) => ({ kind: 'item', loop: loop(i) })),
      width: step.maxConcurrent ?? 0,
      signal: ctx.signal,
      states: ctx.states,
      runHere: (task, signal) =>
        this.runItem(step, task.kind === 'item' ? task.loop : loop(0), { ...ctx, signal }, runner),
      stopAfter: (result) => result.status !== 'success' || result.next !== undefined,
    });
    gather(ctx, results);
    const done = results.filter(Boolean).length;
    if (ctx.signal.aborted) return this.result(step, done, 'cancelled');
    const decisive = results.findIndex((r) => r && (r.status === 'failure' || r.next !== undefined));
    const first = results[decisive];
    if (first?.next !== undefined)
      return this.result(step, done, first.status === 'failure' ? 'failure' : 'success', { next: first.next });
    if (first) {
      const why = first.error?.message ?? `exit code ${first.state.ExitCode}`;
      const message = `iteration ${decisive + 1}: step "${first.failedStep}" failed: ${why}`;
      return this.result(step, done, 'failure', { error: loopError(step, message) });
    }
    if (results.some((r) => r?.status === 'cancelled')) return this.result(step, done, 'cancelled');
    return this.result(step, done, 'success');
  }

  /** One item of a fanned-out for_each: its body on its own copy of the states; what it set comes back. */
  async runItem(step: LoopStep, loop: LoopData, ctx: RunContext, runner: StepRunner): Promise<BranchResult> {
    const states = { ...ctx.states };
    const body = { ...scopedContext(ctx, { loop, parentSpan: ctx.stepSpan ?? ctx.parentSpan }), states };
    const it = await this.iteration(step, body, runner);
    const changed = changedStates(ctx.states, states);
    const last = states[step.body.at(-1) ?? ''] ?? { Output: '', Stderr: '', ExitCode: 0, Status: 'success' };
    const base = { states: changed, reports: [], tool_calls: 0 };
    if (it.kind === 'cancelled') return { ...base, status: 'cancelled', state: last };
    if (it.kind === 'failed') {
      const { outcome } = it;
      const error = outcome.error && { code: outcome.error.code, message: outcome.error.message };
      return { ...base, status: 'failure', state: outcome.state, failedStep: it.step, ...(error ? { error } : {}) };
    }
    if (it.kind === 'exit') return { ...base, status: it.failed ? 'failure' : 'success', state: last, next: it.next };
    return { ...base, status: 'success', state: last };
  }

  private async iteration(step: LoopStep, ctx: RunContext, runner: StepRunner): Promise<Iteration> {
    let idx = 0;
    for (let runs = 0; idx < step.body.length; runs++) {
      if (runs >= MAX_BODY_RUNS) return { kind: 'failed', step: step.body[idx], outcome: this.runaway(step) };
      const bodyStep = findStep(ctx.workflow, step.body[idx]) as ExecutableStep;
      const outcome = await runner.runStep(bodyStep, ctx);
      if (outcome.status === 'cancelled' || ctx.signal.aborted) return { kind: 'cancelled' };
      const target = outcome.fatal ? undefined : route(bodyStep, outcome, ctx);
      const failed = outcome.status === 'failure';
      if (failed && !target) return { kind: 'failed', step: bodyStep.name, outcome };
      if (target !== undefined && step.body.includes(target)) idx = step.body.indexOf(target);
      else if (target === undefined || target === step.name || !findStep(ctx.workflow, target)) idx++;
      else return { kind: 'exit', next: target, failed };
    }
    return { kind: 'done' };
  }

  private runaway(step: LoopStep): StepOutcome {
    const error = loopError(step, `one iteration ran ${MAX_BODY_RUNS} body steps: its transitions go round forever`);
    return {
      status: 'failure',
      state: { Output: '', Stderr: '', ExitCode: 1, Status: 'failure' },
      error,
      attempts: 1,
      tool_calls: 0,
    };
  }

  /** The loop's own state: `completed N iterations` (AWF's text), and N in Response. */
  private result(
    step: LoopStep,
    n: number,
    status: StepOutcome['status'],
    extra: Partial<StepOutcome> = {},
  ): StepOutcome {
    const state: StepStateData = {
      Output: `completed ${n} iterations`,
      Stderr: '',
      ExitCode: status === 'success' ? 0 : status === 'cancelled' ? -1 : 1,
      Status: status,
      Response: { iterations: n },
    };
    return { status, state, attempts: 1, tool_calls: 0, ...extra };
  }
}
