import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import type { NativeToolUse } from '../../domain/ports/agent-provider.port';

interface Seen {
  use: NativeToolUse;
  firstSeen: number;
  lastSeen: number;
}

/**
 * One agent step's watch on the tools its agent runs on its own, around the proxy (coexistence
 * mode: Codex, OpenCode without intercept_builtins). The provider reports each use from the
 * CLI's event stream; each becomes an audit event `bypassed`. When the step's policy is strict
 * (`strict` names the rule), the first use stops the agent through `signal`, and the step fails.
 */
export class NativeToolWatch {
  private readonly seen = new Map<string, Seen>();
  private readonly stop = new AbortController();

  constructor(
    readonly provider: string,
    readonly strict: string | undefined,
  ) {}

  /** Given to the provider as `onNativeToolUse`: the start and the end of a use merge by id. */
  readonly report = (use: NativeToolUse): void => {
    const now = Date.now();
    const known = this.seen.get(use.id);
    if (known) Object.assign(known, { use: { ...known.use, ...use }, lastSeen: now });
    else this.seen.set(use.id, { use, firstSeen: now, lastSeen: now });
    if (this.strict && !this.stop.signal.aborted) this.stop.abort();
  };

  /** Aborts when a strict step's agent must stop. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  get count(): number {
    return this.seen.size;
  }

  /** The step's audit lines for what the agent did around the proxy, in the order it did it. */
  events(runId: string, step: string): ToolCallEvent[] {
    return [...this.seen.values()].map(({ use, firstSeen, lastSeen }) => {
      const start = use.startedAt ?? firstSeen;
      const end = use.endedAt ?? lastSeen;
      return {
        run_id: runId,
        step,
        tool: use.tool,
        source: `native:${this.provider}`,
        start: new Date(start).toISOString(),
        duration_ms: Math.max(0, end - start),
        status: use.status === 'error' ? 'error' : 'ok',
        args_shape: use.argsShape,
        policy: { decision: 'bypassed', ...(this.strict ? { rule: this.strict } : {}) },
      };
    });
  }

  /** Set when a strict step's agent used a tool of its own: the step's failure. */
  failure(step: string): AwfError | undefined {
    if (!this.strict || this.seen.size === 0) return undefined;
    const tools = [...new Set([...this.seen.values()].map((s) => s.use.tool))];
    return new AwfError(
      ErrorCodes.EXECUTION_POLICY_BYPASSED,
      `step "${step}": ${this.provider} used its own tool${tools.length > 1 ? 's' : ''} ${tools.join(', ')} ` +
        `around the proxy, and the step's policy is strict (${this.strict}); the agent was stopped`,
      { step, provider: this.provider, tools, rule: this.strict },
      `Switch the agent's own tools off (mcp_proxy.intercept_builtins: true, where the provider can), ` +
        `use a provider that can, or set enforce: audit to only record such uses (docs/policy.md).`,
    );
  }
}
