import { ValueSecretMasker } from '../../../application/secret-masker.service';
import type { StepReport } from '../../../domain/workflow/run-report.model';
import { renderRunReport } from './run-report.renderer';
import { RunProgressRenderer } from './run-progress.renderer';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, out: { isTTY, write: (s: string) => (chunks.push(s), true) } as unknown as NodeJS.WriteStream };
}

const step = (r: Partial<StepReport>): StepReport => ({
  name: 'build',
  type: 'step',
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
