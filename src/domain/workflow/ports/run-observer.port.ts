import type { LoopData } from '../interpolation.types';
import type { StepResult } from '../run-report.model';

/** Receives progress as the run goes, so the CLI can draw it; the runner never prints. */
export interface RunObserver {
  /** Before the first step: the id that `awf status`, `runs show` and `resume` take. */
  runStarted?(runId: string, workflow: string): void;
  /** `loop`: the iteration of the loop body the step runs in, if any (every step, at any depth). */
  stepStarted(step: string, type: string, loop?: LoopData): void;
  stepFinished(report: StepResult, loop?: LoopData): void;
  /**
   * A call_workflow step starts its child run (`runId`): the observer of the child's steps, or
   * undefined for this one. The child's run ends with the step (`stepFinished`).
   */
  calledWorkflow?(step: string, runId: string, workflow: string, loop?: LoopData): RunObserver | undefined;
  /** An agent step's prompt as it is sent (with the system prompt, first turn), then each reply. */
  agentMessage?(step: string, message: AgentMessage, loop?: LoopData): void;
  /**
   * The step's result is now `states.<name>` and the run goes on to `next` (absent: it ends
   * here). What the run history keeps, so that `awf resume` can seed the states. The run waits
   * for a promise before its next step: a step is checkpointed before the next one starts.
   */
  stepRecorded?(step: StepResult): void | Promise<void>;
  /** A retry attempt failed and another follows after `delayMs`. */
  stepRetrying?(step: string, attempt: number, delayMs: number): void;
  /** A chunk of a command step's output as it arrives (`-o streaming|buffered`). */
  stepOutput?(step: string, stream: 'stdout' | 'stderr', text: string): void;
  warn?(message: string): void;
  /** Something the user would otherwise not see happen (a loop that ran 0 times); hidden by -q. */
  info?(message: string): void;
  /** A hook's `log:` line, or a line a hook command printed. */
  log?(message: string): void;
}

export interface AgentMessage {
  role: 'user' | 'assistant';
  text: string;
  systemPrompt?: string;
  /** A reply to one turn of a `mode: conversation` step, before it asks for the next. */
  conversation?: boolean;
}
