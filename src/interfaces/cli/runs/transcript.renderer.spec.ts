import type { TranscriptEvent } from '../../../domain/model/transcript-event';
import { renderTranscript } from './transcript.renderer';

const at = (seq: number, type: string, path: string, payload: unknown, extra: object = {}): TranscriptEvent =>
  ({
    seq,
    run_id: 'r-1',
    type,
    path,
    iteration: 0,
    timestamp: `2026-01-01T10:00:0${seq}.000Z`,
    payload,
    ...extra,
  }) as TranscriptEvent;

describe('renderTranscript', () => {
  it('prints one line per event, with messages whole under their line', () => {
    const text = renderTranscript('r-1', '/data/transcripts/r-1.jsonl', [
      at(1, 'run.started', '', { name: 'wf', kind: 'workflow' }),
      at(2, 'message.user', 'review', {
        role: 'user',
        blocks: [{ type: 'text', fidelity: 'router', text: 'Review main.go\nfor bugs.' }],
      }),
      at(3, 'tool.call', 'review', {
        name: 'Read',
        call_id: 'c',
        input: { file_path: 7 },
        output: null,
        fidelity: 'router',
      }),
      at(4, 'tool.result', 'review', {
        name: 'Read',
        call_id: 'c',
        input: {},
        output: null,
        error: 'no\nsuch',
        fidelity: 'router',
      }),
      at(5, 'step.call_workflow.started', 'sub', { name: 'sub', kind: 'call_workflow' }, { child_run_id: 'c-9' }),
      at(6, 'step.completed', 'review', { name: 'review', kind: 'agent', error: 'failed' }),
      at(7, 'run.completed', '', { name: 'wf', kind: 'workflow', result: 'failure' }),
      at(8, 'agent.thought', 'review', { x: 1 }),
    ]);
    expect(text.split('\n')).toEqual([
      'transcript of run r-1 (8 events)',
      '  /data/transcripts/r-1.jsonl',
      '',
      '10:00:01.000          run started wf',
      '10:00:02.000  review  user:',
      '      Review main.go',
      '      for bugs.',
      '10:00:03.000  review  tool Read (file_path=7)',
      '10:00:04.000  review  tool Read error: no\\nsuch',
      '10:00:05.000  sub     call_workflow started (call_workflow) child run c-9',
      '10:00:06.000  review  step completed (agent): failed',
      '10:00:07.000          run completed wf failure',
      '10:00:08.000  review  agent.thought {"x":1}',
      '',
    ]);
  });
});
