import { ErrorCodes } from '../../domain/errors/error-codes';
import type { BuiltinOperation, OperationResult } from '../../domain/workflow/ports/builtin-operation.port';

const STRATEGIES = ['all_succeed', 'any_succeed', 'best_effort'];
const DEFAULT_CONCURRENCY = 3;
const MAX_CONCURRENCY = 20;

/** One entry of `results`: AWF's OperationResult fields (Success, Outputs, Error), plus Name and Code. */
interface BatchEntry {
  Name: string;
  Success: boolean;
  Outputs: Record<string, unknown>;
  Error: string;
  Code: string;
}

/**
 * AWF's `github.batch`: `operations` (each `{name, inputs}`, or the inputs beside `name` as AWF's
 * docs write them), `strategy` and `concurrency` (default 3). Outputs `total`, `succeeded`,
 * `failed`, `results` (in the order given, not the order they finished). all_succeed stops the
 * rest at the first failure and any_succeed at the first success; the step fails when the
 * strategy failed (all_succeed: any failure; any_succeed: no success; best_effort: never, unless
 * every operation failed).
 */
export class GithubBatchOperation implements BuiltinOperation {
  readonly name = 'github.batch';

  constructor(private readonly singles: readonly BuiltinOperation[]) {}

  async execute(inputs: Record<string, unknown>, signal: AbortSignal): Promise<OperationResult> {
    const bad = (error: string): OperationResult => ({
      success: false,
      outputs: {},
      error,
      code: ErrorCodes.GITHUB_INVALID_INPUT,
    });
    const strategy = typeof inputs.strategy === 'string' && inputs.strategy ? inputs.strategy : 'best_effort';
    if (!STRATEGIES.includes(strategy)) return bad(`strategy "${strategy}" is not one of ${STRATEGIES.join(', ')}`);
    const concurrency =
      inputs.concurrency === undefined || inputs.concurrency === '' ? DEFAULT_CONCURRENCY : Number(inputs.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY)
      return bad(`concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`);
    const list = typeof inputs.operations === 'string' ? parseList(inputs.operations) : inputs.operations;
    if (!Array.isArray(list) || list.length === 0) return bad('operations is required: a list of {name, inputs}');
    const planned: { op: BuiltinOperation; inputs: Record<string, unknown> }[] = [];
    for (const [i, raw] of list.entries()) {
      const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      const op = this.singles.find((s) => s.name === item.name);
      if (!op)
        return bad(
          `operations[${i}].name "${String(item.name ?? '')}" is not one of ${this.singles.map((s) => s.name).join(', ')}`,
        );
      const { name: _name, inputs: nested, ...flat } = item;
      if (nested !== undefined && (typeof nested !== 'object' || nested === null || Array.isArray(nested)))
        return bad(`operations[${i}].inputs must be a mapping`);
      planned.push({ op, inputs: { ...flat, ...(nested as Record<string, unknown> | undefined) } });
    }
    const stop = new AbortController();
    const both = AbortSignal.any([signal, stop.signal]);
    const results: BatchEntry[] = new Array(planned.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < planned.length; i = next++) {
        const { op, inputs: given } = planned[i];
        if (both.aborted) {
          results[i] = entry(op.name, { success: false, outputs: {}, error: skipped(strategy, signal) });
          continue;
        }
        const r = await op.execute(given, both);
        results[i] = entry(op.name, r);
        if ((strategy === 'all_succeed' && !r.success) || (strategy === 'any_succeed' && r.success)) stop.abort();
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, planned.length) }, worker));
    const succeeded = results.filter((r) => r.Success).length;
    const failed = results.length - succeeded;
    const outputs = { total: results.length, succeeded, failed, results };
    const ok = strategy === 'all_succeed' ? failed === 0 : succeeded > 0;
    if (ok) return { success: true, outputs };
    const first = results.find((r) => !r.Success && r.Code);
    const error = `${strategy}: ${failed} of ${results.length} failed; the first, ${first?.Name}: ${first?.Error}`;
    return { success: false, outputs, error, code: first?.Code };
  }
}

function entry(name: string, r: OperationResult): BatchEntry {
  return { Name: name, Success: r.success, Outputs: r.outputs, Error: r.error ?? '', Code: r.code ?? '' };
}

function skipped(strategy: string, signal: AbortSignal): string {
  if (signal.aborted) return 'cancelled';
  return strategy === 'all_succeed'
    ? 'not run: an earlier operation failed'
    : 'not run: an earlier operation succeeded';
}

function parseList(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
