import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import type { AgentMessage, RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { RunReport, StepResult } from '../../../domain/workflow/run-report.model';

export type StepStatus = 'running' | StepResult['status'];

export interface StepView {
  name: string;
  type: string;
  /** 0 for the workflow's own steps, one more per call_workflow level. */
  depth: number;
  status: StepStatus;
  /** Its output and conversation, masked, as lines. */
  lines: string[];
  error?: string;
  /** Its last line is still being written (a chunk of output that did not end a line). */
  open?: boolean;
}

/** What the run waits for from the person at the keyboard: a conversation's next turn, or an approval. */
export interface Question {
  step: string;
  prompt: string;
  answer(value: string | undefined): void;
}

/** The most lines kept per step: the Monitoring tab shows the end of a step's output. */
const KEPT_LINES = 2000;

/**
 * One run launched from the tui, as the Monitoring tab draws it: the runner's observer on one
 * side, a snapshot and a change signal (`version`, `subscribe`) for React on the other. Every
 * text that reaches it goes through awf's masker first.
 */
export class RunViewStore implements RunObserver {
  runId?: string;
  /** Followed from the history (started elsewhere): the step it is at now, the last step seq fed. */
  elsewhere?: { at?: string; seq?: number };
  status: 'starting' | 'running' | RunReport['status'] = 'starting';
  error?: string;
  steps: StepView[] = [];
  question?: Question;
  version = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly workflow: string,
    private readonly masker: SecretMasker,
  ) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  runStarted(runId: string): void {
    this.runId = runId;
    this.status = 'running';
    this.changed();
  }

  stepStarted(step: string, type: string): void {
    this.startStep(step, type, 0);
  }

  stepFinished(report: StepResult): void {
    this.finishStep(report, 0);
  }

  stepOutput(step: string, _stream: 'stdout' | 'stderr', text: string): void {
    this.addLines(step, text);
  }

  agentMessage(step: string, message: AgentMessage): void {
    this.addLines(step, `${message.role === 'user' ? 'you' : 'agent'}: ${message.text}\n`);
  }

  calledWorkflow(): RunObserver {
    return this.nested(1);
  }

  /** The runner's `userInput`: resolves with what is typed on the input line (empty ends the conversation). */
  readonly ask = (step: string): Promise<string | undefined> =>
    this.askPerson(step, `step ${step} waits for the next message (an empty one ends the conversation)`);

  askPerson(step: string, prompt: string): Promise<string | undefined> {
    return new Promise((resolve) => {
      this.question = {
        step,
        prompt: this.masker.mask(prompt),
        answer: (value) => {
          this.question = undefined;
          this.changed();
          resolve(value === '' ? undefined : value);
        },
      };
      this.changed();
    });
  }

  finished(report: Pick<RunReport, 'status'> & { error?: { message: string } }): void {
    this.status = report.status;
    if (report.error) this.error = this.masker.mask(report.error.message);
    this.changed();
  }

  /** A run followed from the history: the step it is at now (undefined once it has ended). */
  movedTo(step: string | undefined): void {
    if (this.elsewhere?.at === step) return;
    this.elsewhere = { ...this.elsewhere, at: step };
    this.changed();
  }

  failed(err: unknown): void {
    this.status = 'failure';
    this.error = this.masker.mask(err instanceof Error ? err.message : String(err));
    this.changed();
  }

  private nested(depth: number): RunObserver {
    return {
      stepStarted: (step, type) => this.startStep(step, type, depth),
      stepFinished: (report) => this.finishStep(report, depth),
      stepOutput: (step, _stream, text) => this.addLines(step, text),
      agentMessage: (step, message) => this.agentMessage(step, message),
      calledWorkflow: () => this.nested(depth + 1),
    };
  }

  private startStep(name: string, type: string, depth: number): void {
    const known = this.find(name);
    if (known) known.status = 'running';
    else this.steps.push({ name, type, depth, status: 'running', lines: [] });
    this.changed();
  }

  private finishStep(report: StepResult, depth: number): void {
    const step = this.find(report.name) ?? {
      name: report.name,
      type: report.type,
      depth,
      status: 'running',
      lines: [],
    };
    if (!this.steps.includes(step)) this.steps.push(step);
    step.status = report.status;
    // A step that streamed nothing (an agent's reply, a buffered command) shows its output at its end.
    if (step.lines.length === 0 && report.output) step.lines.push(...this.masker.mask(report.output).split('\n'));
    if (report.error) step.error = this.masker.mask(report.error.message);
    this.changed();
  }

  private addLines(name: string, text: string): void {
    const step = this.find(name);
    if (!step) return;
    const lines = this.masker.mask(text).split('\n');
    if (step.open) step.lines[step.lines.length - 1] += lines.shift() ?? '';
    step.open = lines[lines.length - 1] !== '';
    if (!step.open) lines.pop();
    step.lines.push(...lines);
    if (step.lines.length > KEPT_LINES) step.lines.splice(0, step.lines.length - KEPT_LINES);
    this.changed();
  }

  private find(name: string): StepView | undefined {
    for (let i = this.steps.length - 1; i >= 0; i--) if (this.steps[i].name === name) return this.steps[i];
    return undefined;
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}
