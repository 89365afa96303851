import type { RunReport } from '../../domain/workflow/run-report.model';
import { AcpSession } from './acp-session';

const report = (status: RunReport['status']): RunReport =>
  ({ workflow: 'w', run_id: 'r', status, duration_ms: 1, output: '', steps: [] }) as RunReport;

/** A run that asks twice, then ends with what it was told; it stops when its signal aborts. */
function conversation(heard: Array<string | undefined>) {
  return async (signal: AbortSignal, ask: (step: string) => Promise<string | undefined>): Promise<RunReport> => {
    heard.push(await ask('talk'));
    heard.push(await ask('talk'));
    return report(signal.aborted ? 'cancelled' : 'success');
  };
}

describe('an ACP session: one run whose questions the next prompts answer', () => {
  it('wakes the waiting turn when the run asks, and again when it ends', async () => {
    const heard: Array<string | undefined> = [];
    const s = new AcpSession('sess_1', '/p');
    s.begin('chat', conversation(heard));
    expect(await s.nextTurnEnd()).toEqual({ kind: 'asked', step: 'talk' });
    expect(s.waitingWorkflow).toBe('chat');
    s.answer('more please');
    expect(await s.nextTurnEnd()).toEqual({ kind: 'asked', step: 'talk' });
    s.answer('   '); // empty: the conversation ends
    expect(await s.nextTurnEnd()).toEqual({ kind: 'finished', report: report('success') });
    expect(heard).toEqual(['more please', undefined]);
    expect(s.waitingWorkflow).toBeUndefined();
  });

  it('cancel aborts the run and drops its question; a run that throws ends the turn with the error', async () => {
    const heard: Array<string | undefined> = [];
    const s = new AcpSession('sess_2', '/p');
    s.begin('chat', conversation(heard));
    await s.nextTurnEnd();
    expect(s.cancel('stop')).toBe(true);
    expect(await s.nextTurnEnd()).toEqual({ kind: 'finished', report: report('cancelled') });
    expect(heard).toEqual([undefined, undefined]); // asked again after the abort: no answer
    expect(s.cancel('again')).toBe(false);
    const boom = new Error('boom');
    s.begin('bad', () => Promise.reject(boom));
    expect(await s.nextTurnEnd()).toEqual({ kind: 'finished', error: boom });
  });
});

describe('an ACP session whose cancelled run is replaced', () => {
  it('does not let the old run end the new run`s turn', async () => {
    let finishOld: (r: RunReport) => void = () => undefined;
    const s = new AcpSession('sess_3', '/p');
    s.begin('slow', () => new Promise<RunReport>((resolve) => (finishOld = resolve)));
    s.cancel('stop');
    s.begin('chat', conversation([]));
    finishOld(report('cancelled'));
    expect(await s.nextTurnEnd()).toEqual({ kind: 'asked', step: 'talk' });
  });
});
