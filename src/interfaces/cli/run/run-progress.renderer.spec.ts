import { ValueSecretMasker } from '../../../application/secret-masker.service';
import type { RunReport, StepResult } from '../../../domain/workflow/run-report.model';
import { renderRunReport } from './run-report.renderer';
import { RunProgressRenderer } from './run-progress.renderer';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, out: { isTTY, write: (s: string) => (chunks.push(s), true) } as unknown as NodeJS.WriteStream };
}

const step = (r: Partial<StepResult>): StepResult => ({
  name: 'build',
  type: 'step',
  started_at: '2026-12-04T10:00:00.000Z',
  state: { Output: '', Stderr: '', ExitCode: 0, Status: 'success' },
  status: 'success',
  duration_ms: 1234,
  exit_code: 0,
  output: '',
  tool_calls: 0,
  ...r,
});

describe('RunProgressRenderer', () => {
  const masker = new ValueSecretMasker({});
  masker.add('s3cr3t-value');

  it('writes one line per finished step with status, duration and what matters, masked', () => {
    const { chunks, out } = stream(false);
    const progress = new RunProgressRenderer(out, masker);
    progress.stepStarted('build');
    progress.stepFinished(step({}));
    progress.stepFinished(step({ name: 'deploy s3cr3t-value', status: 'failure', exit_code: 2, attempts: 3 }));
    progress.stepFinished(step({ name: 'review', type: 'agent', tool_calls: 1, status: 'cancelled', duration_ms: 40 }));
    expect(chunks).toEqual([
      '✓ build  success  1.2s\n',
      '✗ deploy ***  failure  1.2s  (exit 2, 3 attempts)\n',
      '■ review  cancelled  40ms  (1 tool call)\n',
    ]);
  });

  it('draws a spinner only on a TTY, and clears it before the step line', async () => {
    const { chunks, out } = stream(true);
    const progress = new RunProgressRenderer(out, masker, { color: true });
    progress.stepStarted('build');
    await new Promise((r) => setTimeout(r, 250));
    progress.stepFinished(step({}));
    progress.close();
    expect(chunks.some((c) => c.startsWith('\r\x1b[2K') && c.includes('build'))).toBe(true);
    expect(chunks.at(-1)?.replace(new RegExp(`${'\u001b'}\\[[0-9;]*m`, 'g'), '')).toBe('✓ build  success  1.2s\n');
    expect(chunks.at(-2)).toBe('\r\x1b[2K');
  });
});

describe('RunProgressRenderer closing line', () => {
  const masker = new ValueSecretMasker({});
  const run = (r: Partial<RunReport>): RunReport => ({
    workflow: 'deploy',
    run_id: 'r-1',
    status: 'success',
    duration_ms: 1234,
    output: '',
    steps: [],
    ...r,
  });
  const failedB = step({
    name: 'b',
    status: 'failure',
    exit_code: 3,
    error: { code: 'EXECUTION.STEP.FAILED', message: 'boom' },
  });

  it('ends a run with one line: how it ended, where, after how long, and how to resume it', () => {
    const { chunks, out } = stream(false);
    const progress = new RunProgressRenderer(out, masker);
    expect(progress.runFinished(run({}), { resumable: true })).toBe(false);
    const failed = run({ status: 'failure', duration_ms: 3400, steps: [step({}), failedB], error: failedB.error });
    expect(progress.runFinished(failed, { resumable: true })).toBe(true);
    progress.runFinished(run({ status: 'cancelled', steps: [step({ name: 'b', status: 'cancelled' })] }), {
      resumable: true,
    });
    expect(chunks).toEqual([
      '✓ deploy succeeded in 1.2s\n',
      '✗ deploy failed at step b after 3.4s — resume with: awf resume r-1\n',
      '■ deploy cancelled at step b after 1.2s — resume with: awf resume r-1\n',
    ]);
  });

  it('prints a run error no step showed (a failure terminal) once, before the closing line; -q keeps only failures', () => {
    const { chunks, out } = stream(false);
    const progress = new RunProgressRenderer(out, masker, { quiet: true });
    expect(progress.runFinished(run({}), { resumable: true })).toBe(false);
    const error = { code: 'EXECUTION.WORKFLOW.TERMINAL_FAILURE', message: 'no words', hint: 'Give some words.' };
    const ended = run({ status: 'failure', terminal: 'empty', steps: [step({})], error });
    expect(progress.runFinished(ended, { resumable: true })).toBe(true);
    expect(chunks).toEqual([
      '[EXECUTION.WORKFLOW.TERMINAL_FAILURE] no words\n',
      '  hint: Give some words.\n',
      '✗ deploy failed at terminal empty after 1.2s\n',
    ]);
  });

  it('names no resume command for a single step (-s)', () => {
    const { chunks, out } = stream(false);
    new RunProgressRenderer(out, masker).runFinished(
      run({ status: 'failure', steps: [failedB], error: failedB.error }),
      {
        resumable: false,
      },
    );
    expect(chunks).toEqual(['✗ deploy failed at step b after 1.2s\n']);
  });
});

describe('renderRunReport', () => {
  const report = {
    workflow: 'w',
    run_id: 'r',
    status: 'success' as const,
    duration_ms: 5,
    output: 'token=abc12345',
    steps: [],
  };
  const mask = (s: string) => s.replace('abc12345', '***');

  it('prints the output with a final newline in text mode, and one JSON line with -f json', () => {
    expect(renderRunReport(report, 'text', mask)).toBe('token=***\n');
    expect(JSON.parse(renderRunReport(report, 'json', mask))).toMatchObject({ status: 'success', output: 'token=***' });
  });

  it('prints no partial output for a cancelled run', () => {
    expect(renderRunReport({ ...report, status: 'cancelled' }, 'text', mask)).toBe('');
  });
});
