import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import type { StepResult } from '../../../domain/workflow/run-report.model';

/** `awf run -o`: `silent` prints no step output; `streaming` prints it live; `buffered` when each step ends. */
export type OutputMode = 'silent' | 'streaming' | 'buffered';

const PREFIX = { stdout: '[OUT] ', stderr: '[ERR] ' } as const;
type Stream = keyof typeof PREFIX;

/**
 * Step output as AWF's `-o streaming|buffered` shows it: whole lines, each prefixed `[OUT]`
 * (on stdout) or `[ERR]` (on stderr); with `-f json` both go to stderr, since stdout holds the
 * one report. Lines of concurrent steps (parallel branches) never mix: each step and stream
 * keeps its own partial line. An agent step, whose output is its reply, prints that reply.
 */
export class StepOutputPrinter {
  private readonly partial = new Map<string, string>();
  private readonly held = new Map<string, [Stream, string][]>();
  private readonly spoke = new Set<string>();

  constructor(
    private readonly mode: Exclude<OutputMode, 'silent'>,
    private readonly masker: SecretMasker,
    private readonly sinks: Record<Stream, NodeJS.WritableStream>,
  ) {}

  chunk(step: string, stream: Stream, text: string): void {
    this.spoke.add(step);
    if (this.mode === 'buffered') {
      const list = this.held.get(step) ?? [];
      list.push([stream, text]);
      this.held.set(step, list);
      return;
    }
    this.emit(step, stream, text);
  }

  finished(report: StepResult): void {
    const step = report.name;
    for (const [stream, text] of this.held.get(step) ?? []) this.emit(step, stream, text);
    this.held.delete(step);
    if (!this.spoke.has(step) && report.type === 'agent' && report.output) this.emit(step, 'stdout', report.output);
    for (const stream of ['stdout', 'stderr'] as const) this.flush(step, stream);
    this.spoke.delete(step);
  }

  private emit(step: string, stream: Stream, text: string): void {
    const key = `${stream}\0${step}`;
    const lines = ((this.partial.get(key) ?? '') + text).split('\n');
    this.partial.set(key, lines.pop()!);
    for (const line of lines) this.write(stream, line);
  }

  private flush(step: string, stream: Stream): void {
    const key = `${stream}\0${step}`;
    const rest = this.partial.get(key);
    this.partial.delete(key);
    if (rest) this.write(stream, rest);
  }

  private write(stream: Stream, line: string): void {
    this.sinks[stream].write(`${PREFIX[stream]}${this.masker.mask(line.replace(/\r$/, ''))}\n`);
  }
}
