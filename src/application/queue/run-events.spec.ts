import type { RunEvent } from '../../domain/ports/run-queue.port';
import type { StepResult } from '../../domain/workflow/run-report.model';
import { checkpointOf } from './run-events';
import { maskedJson } from '../../domain/model/masked-json';

const report = (name: string, status: StepResult['status'] = 'success'): StepResult => ({
  name,
  type: 'step',
  status,
  started_at: '2026-12-04T10:00:00.000Z',
  duration_ms: 5,
  exit_code: 0,
  output: `${name} out`,
  state: { Output: `${name} out`, Stderr: '', ExitCode: 0, Status: 'success' },
  tool_calls: 0,
});
const recorded = (name: string, next?: string): RunEvent => ({
  t: 'recorded',
  step: { ...report(name), ...(next ? { next } : {}) },
});

describe('the checkpoint a taken-over run resumes from', () => {
  it('is empty for a run no worker started', () => {
    expect(checkpointOf([])).toEqual({ done: [] });
  });

  it('keeps the recorded steps in order and resumes at the step that was running', () => {
    const events: RunEvent[] = [
      { t: 'step', step: 'a', type: 'step' },
      recorded('a', 'b'),
      { t: 'step', step: 'b', type: 'step' },
    ];
    const cp = checkpointOf(events);
    expect(cp.done.map((d) => [d.seq, d.name, d.state.Output])).toEqual([[0, 'a', 'a out']]);
    expect(cp.current).toBe('b');
  });

  it('resumes at the next step when the worker died between two steps', () => {
    expect(checkpointOf([{ t: 'step', step: 'a', type: 'step' }, recorded('a', 'b')]).current).toBe('b');
  });

  it('masks every string of an event, however deep', () => {
    const masked = maskedJson(recorded('a'), { mask: (s) => s.replace('out', '***') });
    expect(masked).toMatchObject({ step: { output: 'a ***', state: { Output: 'a ***' } } });
  });
});
