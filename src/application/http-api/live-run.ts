import type { RunEventsObserver } from './run-events.observer';

/** What became of an answer to a run's question (`POST …/respond`). */
export type AnswerOutcome = 'answered' | 'not-waiting' | 'other-prompt';

interface Question {
  id: string;
  step: string;
  settle: (value: string | undefined) => void;
}

/**
 * A run this process started and still runs: how to stop it, when it is over, and the one
 * question it may be waiting on (the next turn of a `mode: conversation` step), answered
 * over HTTP. A cancelled run stops waiting at once: its step sees the end of the conversation.
 */
export class LiveRun {
  readonly controller = new AbortController();
  done: Promise<void> = Promise.resolve();
  private question?: Question;
  private asked = 0;

  constructor(readonly observer: RunEventsObserver) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The runner's `userInput`: the next turn of `step`, or undefined to end the conversation. */
  readonly ask = (step: string): Promise<string | undefined> => {
    const signal = this.signal;
    if (signal.aborted) return Promise.resolve(undefined);
    const id = `${step}#${++this.asked}`;
    return new Promise((resolve) => {
      const onAbort = (): void => settle(undefined);
      const settle = (value: string | undefined): void => {
        this.question = undefined;
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.question = { id, step, settle };
      this.observer.inputRequired(
        step,
        id,
        `step ${step} waits for the next message (an empty one ends the conversation)`,
      );
    });
  };

  /** An answer to the question asked last; `promptId`, when given, must name it. */
  answer(promptId: string | undefined, value: string): AnswerOutcome {
    const q = this.question;
    if (!q) return 'not-waiting';
    if (promptId && promptId !== q.id) return 'other-prompt';
    this.observer.answered(q.step);
    q.settle(value);
    return 'answered';
  }
}
