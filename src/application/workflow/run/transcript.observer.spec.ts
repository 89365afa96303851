import type { NewTranscriptEvent } from '../../../domain/model/transcript-event';
import type { TranscriptSink } from '../../../domain/ports/transcript-store.port';
import type { LoopData } from '../../../domain/workflow/interpolation.types';
import type { RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { StepResult } from '../../../domain/workflow/run-report.model';
import { ValueSecretMasker } from '../../secret-masker.service';
import { TranscriptObserver } from './transcript.observer';

class MemorySink implements TranscriptSink {
  readonly events: NewTranscriptEvent[] = [];
  closed = false;
  append(event: NewTranscriptEvent): void {
    this.events.push(event);
  }
  close(): void {
    this.closed = true;
  }
}

const report = (over: Partial<StepResult>): StepResult => ({
  name: 'review',
  type: 'agent',
  started_at: '2026-12-04T10:00:00.000Z',
  state: { Output: '', Stderr: '', ExitCode: 0, Status: 'success' },
  status: 'success',
  duration_ms: 5,
  exit_code: 0,
  output: '',
  tool_calls: 0,
  ...over,
});

const loop = (index: number, parent: LoopData | null = null): LoopData => ({
  Index: index,
  Index1: index + 1,
  First: index === 0,
  Last: false,
  Length: 3,
  Parent: parent,
});

describe('TranscriptObserver', () => {
  const masker = new ValueSecretMasker({});
  masker.add('tk-secret-42');
  let sink: MemorySink;
  let inner: jest.Mocked<Required<Pick<RunObserver, 'runStarted' | 'stepStarted' | 'stepFinished' | 'agentMessage'>>>;
  let transcript: TranscriptObserver;
  beforeEach(() => {
    sink = new MemorySink();
    inner = { runStarted: jest.fn(), stepStarted: jest.fn(), stepFinished: jest.fn(), agentMessage: jest.fn() };
    transcript = new TranscriptObserver(sink, masker, 'run-1', inner);
  });

  it("writes an agent step's exchange in AWF's envelope and passes every call on", () => {
    transcript.runStarted('run-1', 'wf');
    transcript.stepStarted('review', 'agent');
    transcript.agentMessage('review', { role: 'user', text: 'use tk-secret-42', systemPrompt: 'be brief' });
    transcript.agentMessage('review', { role: 'assistant', text: 'done with tk-secret-42' });
    transcript.stepFinished(report({ output: 'done' }));
    transcript.finished({ workflow: 'wf', run_id: 'run-1', status: 'success', duration_ms: 9, output: '', steps: [] });
    expect(sink.events.map((e) => [e.type, e.path, e.payload])).toEqual([
      ['run.started', '', { name: 'wf', kind: 'workflow' }],
      ['step.started', 'review', { name: 'review', kind: 'agent' }],
      [
        'message.user',
        'review',
        {
          role: 'user',
          blocks: [
            { type: 'text', fidelity: 'router', text: 'use ***' },
            { type: 'text', fidelity: 'router', text: 'be brief' },
          ],
        },
      ],
      [
        'message.assistant',
        'review',
        { role: 'assistant', blocks: [{ type: 'text', fidelity: 'agent_emitted', text: 'done with ***' }] },
      ],
      ['step.completed', 'review', { name: 'review', kind: 'agent', result: true }],
      ['run.completed', '', { name: 'wf', kind: 'workflow', result: 'success' }],
    ]);
    expect(
      sink.events.every((e) => e.run_id === 'run-1' && e.iteration === 0 && !Number.isNaN(Date.parse(e.timestamp))),
    ).toBe(true);
    expect(inner.runStarted).toHaveBeenCalledWith('run-1', 'wf');
    expect(inner.agentMessage).toHaveBeenCalledTimes(2);
    expect(inner.stepFinished).toHaveBeenCalledTimes(1);
  });

  it("records the step's proxied tool calls as call/result pairs, with the arguments' shape only", () => {
    transcript.stepFinished(
      report({
        events: [
          {
            tool: 'Read',
            source: 'builtin',
            start: '2026-01-01T00:00:00.000Z',
            duration_ms: 7,
            status: 'ok',
            args_shape: { file_path: 9 },
          },
          {
            tool: 'Bash',
            source: 'native',
            start: '2026-01-01T00:00:01.000Z',
            duration_ms: 0,
            status: 'error',
            error: 'refused: tk-secret-42',
            args_shape: { command: 12 },
            policy: { decision: 'bypassed' },
          },
        ],
      }),
    );
    const tools = sink.events.filter((e) => e.type.startsWith('tool.'));
    expect(tools.map((e) => [e.type, e.timestamp, e.payload])).toEqual([
      [
        'tool.call',
        '2026-01-01T00:00:00.000Z',
        expect.objectContaining({ name: 'Read', input: { file_path: 9 }, output: null, fidelity: 'router' }),
      ],
      ['tool.result', '2026-01-01T00:00:00.007Z', expect.not.objectContaining({ error: expect.anything() })],
      ['tool.call', '2026-01-01T00:00:01.000Z', expect.objectContaining({ name: 'Bash', fidelity: 'agent_emitted' })],
      ['tool.result', '2026-01-01T00:00:01.000Z', expect.objectContaining({ error: 'refused: ***' })],
    ]);
    const ids = tools.map((e) => (e.payload as { call_id: string }).call_id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[2]);
    expect(sink.events.at(-1)?.type).toBe('step.completed');
  });

  it('writes the tool calls before the reply that followed them; each turn of a conversation in order', () => {
    const call = {
      tool: 'Read',
      source: 'builtin',
      start: '2026-01-01T00:00:00.000Z',
      duration_ms: 1,
      status: 'ok' as const,
      args_shape: {},
    };
    transcript.agentMessage('review', { role: 'user', text: 'first' });
    transcript.agentMessage('review', { role: 'assistant', text: 'one' });
    transcript.agentMessage('review', { role: 'user', text: 'second' });
    transcript.agentMessage('review', { role: 'assistant', text: 'two' });
    transcript.agentMessage('other', { role: 'assistant', text: 'never finished' });
    transcript.stepFinished(report({ events: [call] }));
    transcript.finished({ workflow: 'wf', run_id: 'run-1', status: 'failure', duration_ms: 1, output: '', steps: [] });
    const texts = sink.events.map((e) =>
      e.type.startsWith('message.')
        ? `${e.path} ${(e.payload as { blocks: { text: string }[] }).blocks[0].text}`
        : `${e.path} ${e.type}`.trim(),
    );
    expect(texts).toEqual([
      'review first',
      'review one',
      'review second',
      'review tool.call',
      'review tool.result',
      'review two',
      'review step.completed',
      'other never finished',
      'run.completed',
    ]);
  });

  it("gives a loop body's steps AWF's path and iteration", () => {
    transcript.stepStarted('say', 'step', loop(2, loop(1)));
    transcript.stepFinished(report({ name: 'say', type: 'step' }), loop(2, loop(1)));
    expect(sink.events.map((e) => [e.type, e.path, e.iteration])).toEqual([
      ['step.started', 'loop:1/loop:2/say', 2],
      ['step.completed', 'loop:1/loop:2/say', 2],
    ]);
  });

  it("writes a called workflow's run to a file of its own, linked both ways, and its steps there", () => {
    const files = new Map<string, MemorySink>();
    const open = (id: string) => files.set(id, new MemorySink()).get(id)!;
    const parent = new TranscriptObserver(sink, masker, 'run-1', inner, { open });
    parent.stepStarted('call', 'call_workflow');
    const child = parent.calledWorkflow('call', 'child-1', 'sub');
    child?.stepStarted('inner', 'step');
    child?.stepFinished(report({ name: 'inner', type: 'step' }));
    parent.stepFinished(
      report({ name: 'call', type: 'call_workflow', status: 'failure', error: { code: 'X', message: 'boom' } }),
    );
    expect(sink.events.map((e) => [e.type, e.child_run_id, e.parent_run_id])).toEqual([
      ['step.started', undefined, undefined],
      ['step.call_workflow.started', 'child-1', undefined],
      ['step.call_workflow.completed', 'child-1', undefined],
      ['step.completed', undefined, undefined],
    ]);
    expect(sink.events.at(-1)?.payload).toEqual({ name: 'call', kind: 'call_workflow', error: 'boom', result: false });
    const childFile = files.get('child-1')!;
    expect(childFile.events.map((e) => [e.type, e.run_id, e.parent_run_id, e.path])).toEqual([
      ['run.started', 'child-1', 'run-1', ''],
      ['step.started', 'child-1', 'run-1', 'inner'],
      ['step.completed', 'child-1', 'run-1', 'inner'],
      ['run.completed', 'child-1', 'run-1', ''],
    ]);
    expect(childFile.events.at(-1)?.payload).toMatchObject({ name: 'sub', result: 'failure', error: 'boom' });
    expect(childFile.closed).toBe(true);
    expect(inner.stepStarted).toHaveBeenCalledWith('inner', 'step', undefined);
  });

  it('opens nothing without a store, and closes the sink it opened', () => {
    expect(TranscriptObserver.open(undefined, masker, 'r', {})).toBeUndefined();
    const opened = TranscriptObserver.open({ open: () => sink } as never, masker, 'r', {});
    opened?.close();
    expect(sink.closed).toBe(true);
  });
});
