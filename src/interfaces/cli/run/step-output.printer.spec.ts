import { ValueSecretMasker } from '../../../application/secret-masker.service';
import type { StepResult } from '../../../domain/workflow/run-report.model';
import { StepOutputPrinter } from './step-output.printer';

function sinks() {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) => ({ write: (s: string) => (into.push(s), true) }) as unknown as NodeJS.WritableStream;
  return { out, err, sinks: { stdout: sink(out), stderr: sink(err) } };
}

const done = (name: string, r: Partial<StepResult> = {}): StepResult => ({
  name,
  type: 'step',
  started_at: '2026-12-04T10:00:00.000Z',
  state: { Output: '', Stderr: '', ExitCode: 0, Status: 'success' },
  status: 'success',
  duration_ms: 1,
  exit_code: 0,
  output: '',
  tool_calls: 0,
  ...r,
});

describe('StepOutputPrinter', () => {
  const masker = new ValueSecretMasker({});
  masker.add('hunter2');

  it('streaming: whole lines as they complete, [OUT] and [ERR] apart, the last partial line at the end', () => {
    const { out, err, sinks: s } = sinks();
    const p = new StepOutputPrinter('streaming', masker, s);
    p.chunk('a', 'stdout', 'one\ntw');
    expect(out).toEqual(['[OUT] one\n']);
    p.chunk('a', 'stderr', 'oops\n');
    p.chunk('a', 'stdout', 'o\nthree');
    expect(out).toEqual(['[OUT] one\n', '[OUT] two\n']);
    p.finished(done('a'));
    expect(out).toEqual(['[OUT] one\n', '[OUT] two\n', '[OUT] three\n']);
    expect(err).toEqual(['[ERR] oops\n']);
  });

  it('keeps concurrent steps apart and masks secrets', () => {
    const { out, sinks: s } = sinks();
    const p = new StepOutputPrinter('streaming', masker, s);
    p.chunk('a', 'stdout', 'from a ');
    p.chunk('b', 'stdout', 'from b hunter2\n');
    p.chunk('a', 'stdout', 'end\n');
    expect(out).toEqual(['[OUT] from b ***\n', '[OUT] from a end\n']);
  });

  it('buffered: nothing until the step ends, then its lines in order', () => {
    const { out, err, sinks: s } = sinks();
    const p = new StepOutputPrinter('buffered', masker, s);
    p.chunk('a', 'stdout', 'x\n');
    p.chunk('a', 'stderr', 'y\n');
    expect([...out, ...err]).toEqual([]);
    p.finished(done('a'));
    expect(out).toEqual(['[OUT] x\n']);
    expect(err).toEqual(['[ERR] y\n']);
  });

  it("prints an agent step's reply, which is not streamed", () => {
    const { out, sinks: s } = sinks();
    new StepOutputPrinter('streaming', masker, s).finished(done('ask', { type: 'agent', output: 'hi\nthere' }));
    expect(out).toEqual(['[OUT] hi\n', '[OUT] there\n']);
  });
});
