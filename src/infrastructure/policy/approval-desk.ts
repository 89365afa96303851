import { createInterface } from 'node:readline';
import type { ApprovalAnswer, ApprovalRequest } from '../../domain/ports/approval-gate.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';

/** `awf run --approve`: ask the person (default), approve every question, or refuse every one. */
export type ApproveMode = 'ask' | 'all' | 'none';

export interface DeskTerminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

/** With nobody to ask, only an `auto` rule approves. */
export function unattended(request: ApprovalRequest): ApprovalAnswer {
  return request.auto ? { answer: 'once', by: 'auto' } : { answer: 'deny', by: 'unattended' };
}

/**
 * Where a run's approval questions are answered, one at a time whatever step asks (parallel
 * steps queue). On a terminal the person sees the step, the tool, its arguments (masked) and
 * the rule, and answers once / always for this step / exactly these arguments / deny; silence past the timeout denies.
 * Without a terminal only `--approve=all` or an `auto` rule approves.
 */
export class ApprovalDesk {
  mode: ApproveMode = 'ask';
  /**
   * Who answers in `ask` mode instead of the terminal: `awf serve` asks over its HTTP API, where
   * many people may answer many runs at once, so its questions do not queue. Unset: the
   * terminal, as `awf run` asks.
   */
  person?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  timeoutMs = Number(process.env.AWF_APPROVAL_TIMEOUT_MS) || DEFAULT_APPROVAL_TIMEOUT_MS;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly masker: SecretMasker,
    private readonly terminal: DeskTerminal = { input: process.stdin, output: process.stderr },
  ) {}

  decide(request: ApprovalRequest): Promise<ApprovalAnswer> {
    if (this.person && this.mode === 'ask')
      return this.person(request).catch(() => ({ answer: 'deny', by: 'no channel' }));
    const turn = this.queue.then(() => this.answer(request));
    this.queue = turn.catch(() => undefined);
    return turn.catch((): ApprovalAnswer => ({ answer: 'deny', by: 'no channel' }));
  }

  private async answer(request: ApprovalRequest): Promise<ApprovalAnswer> {
    if (this.mode === 'all') return { answer: 'once', by: 'flag' };
    if (this.mode === 'none') return { answer: 'deny', by: 'flag' };
    if (!this.terminal.input.isTTY) return unattended(request);
    return this.ask(request);
  }

  private ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const args = Object.entries(request.args).map(
      ([k, v]) => `    ${k}: ${this.masker.mask(typeof v === 'string' ? v : JSON.stringify(v))}`,
    );
    const text = [
      '',
      `? approval needed${request.step ? ` in step ${request.step}` : ''}: ${request.tool}`,
      ...args,
      ...request.rules.map((r) => `  rule: ${r}`),
      '  [o]nce / [a]lways for this step / [e]xactly these arguments, for an hour / [d]eny: ',
    ].join('\n');
    return new Promise((resolve) => {
      const rl = createInterface({ input: this.terminal.input, output: this.terminal.output, terminal: false });
      const timer = setTimeout(
        () => finish({ answer: 'deny', by: 'timeout' }, '\n  (no answer in time: denied)\n'),
        this.timeoutMs,
      );
      let done = false;
      const finish = (answer: ApprovalAnswer, note: string): void => {
        if (done) return; // closing the reader below emits 'close' at once
        done = true;
        clearTimeout(timer);
        resolve(answer);
        this.terminal.output.write(note);
        rl.close();
      };
      this.terminal.output.write(text);
      rl.once('line', (line) => {
        const key = line.trim().toLowerCase();
        if (key === 'o' || key === 'once' || key === 'y' || key === 'yes')
          finish({ answer: 'once', by: 'person' }, '  approved once\n');
        else if (key === 'a' || key === 'always')
          finish({ answer: 'always', by: 'person' }, '  approved for the rest of this step\n');
        else if (key === 'e' || key === 'exact')
          finish(
            { answer: 'exact', by: 'person' },
            '  approved for these arguments, for an hour (awf approvals list)\n',
          );
        else finish({ answer: 'deny', by: 'person' }, '  denied\n');
      });
      rl.once('close', () => finish({ answer: 'deny', by: 'person' }, ''));
    });
  }
}
