import { AwfError } from '../../domain/errors/awf-error';
import { categoryOf, ErrorCodes } from '../../domain/errors/error-codes';
import type { AcpRunObserver } from './acp-run.observer';
import type { TurnEnd } from './acp-session';

export type AcpStopReason = 'end_turn' | 'cancelled';

/**
 * What ends a turn, said to the editor: the run's question, its output (when none was
 * streamed) or `Workflow "x" completed.`, its failure, its cancellation; a run that never
 * started is an invalid prompt when the error is the prompt's (USER: its inputs, its name).
 */
export function closingMessage(end: TurnEnd, observer: AcpRunObserver, workflow: string): AcpStopReason {
  if (end.kind === 'asked') {
    observer.say(`\nStep ${end.step} waits for your next message (an empty one ends the conversation).\n`);
    return 'end_turn';
  }
  const { report, error } = end;
  if (!report) {
    const err = error instanceof AwfError ? error : undefined;
    if (err && categoryOf(err.code) === 'USER') {
      const meta = { awf: { code: ErrorCodes.ACP_INVALID_PROMPT, cause: err.code } };
      observer.say(`Invalid prompt: ${err.message}\nGive inputs as key=value words after /${workflow}.\n`, meta);
    } else {
      const why = err ? `[${err.code}] ${err.message}` : String(error);
      observer.say(`Workflow "${workflow}" failed to start: ${why}\n`, err ? { awf: { code: err.code } } : undefined);
    }
    return 'end_turn';
  }
  if (report.status === 'cancelled') {
    observer.say(`Workflow "${workflow}" cancelled.\n`);
    return 'cancelled';
  }
  if (report.status === 'failure') {
    const why = report.error ? `[${report.error.code}] ${report.error.message}` : 'a step failed';
    observer.say(
      `Workflow "${workflow}" failed: ${why}\n`,
      report.error ? { awf: { code: report.error.code } } : undefined,
    );
  } else if (!observer.streamed)
    observer.say(report.output.trim() ? `${report.output.trim()}\n` : `Workflow "${workflow}" completed.\n`);
  return 'end_turn';
}
