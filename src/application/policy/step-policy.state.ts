import type { PolicyBudgets, PolicyRefusal } from '../../domain/policy/policy.model';
import { POLICY_REFUSAL } from '../../domain/policy/policy.model';

/**
 * What one step has spent against its budgets, and the approvals given "always for this
 * step". Lives as long as the step's scope (one `mcp-serve`, or one in-process step).
 */
export class StepPolicyState {
  calls = 0;
  writeBytes = 0;
  bashMs = 0;
  readonly perTool = new Map<string, number>();
  readonly alwaysApproved = new Set<string>();

  constructor(private readonly budgets: Readonly<PolicyBudgets>) {}

  /** Refuses a call that would go past a budget; `writeBytes` is what the call would add. */
  check(tool: string, writeBytes: number, isBash: boolean): PolicyRefusal | undefined {
    const b = this.budgets;
    const over = (rule: string, message: string): PolicyRefusal => ({
      code: POLICY_REFUSAL.budget,
      rule: `budgets.${rule}`,
      message,
    });
    if (b.calls !== undefined && this.calls >= b.calls)
      return over(`calls ${b.calls}`, `this step has used all ${b.calls} tool calls it may make`);
    const perTool = b.per_tool?.[tool];
    if (perTool !== undefined && (this.perTool.get(tool) ?? 0) >= perTool) {
      return over(`per_tool.${tool} ${perTool}`, `this step has used all ${perTool} calls of ${tool} it may make`);
    }
    if (b.write_bytes !== undefined && writeBytes > 0 && this.writeBytes + writeBytes > b.write_bytes) {
      return over(
        `write_bytes ${b.write_bytes}`,
        `writing ${writeBytes} more bytes would pass this step's budget of ${b.write_bytes} (${this.writeBytes} used)`,
      );
    }
    if (isBash && b.bash_seconds !== undefined && this.bashMs >= b.bash_seconds * 1000) {
      return over(`bash_seconds ${b.bash_seconds}`, `this step has used its ${b.bash_seconds} seconds of Bash`);
    }
    return undefined;
  }

  /** Milliseconds of Bash left, or undefined without a bash_seconds budget. */
  bashMsLeft(): number | undefined {
    const s = this.budgets.bash_seconds;
    return s === undefined ? undefined : Math.max(1, s * 1000 - this.bashMs);
  }

  spend(tool: string, writeBytes: number): void {
    this.calls++;
    this.perTool.set(tool, (this.perTool.get(tool) ?? 0) + 1);
    this.writeBytes += writeBytes;
  }
}
