import { RunViewStore } from './run-view.store';

const masker = { mask: (s: string) => s.replaceAll('hunter2', '***'), add: () => undefined };
const report = (name: string, output: string, status: 'success' | 'failure' = 'success') => ({
  name,
  type: 'step' as const,
  status,
  started_at: '2026-12-04T10:00:00.000Z',
  duration_ms: 1,
  exit_code: status === 'success' ? 0 : 1,
  output,
  state: { Output: output, Stderr: '', ExitCode: status === 'success' ? 0 : 1, Status: status },
  tool_calls: 0,
});

describe('RunViewStore', () => {
  it("joins output chunks into lines, masked; a step that streamed nothing shows its report's output", () => {
    const store = new RunViewStore('wf', masker);
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.version));
    store.runStarted('r1');
    store.stepStarted('build', 'step');
    store.stepOutput('build', 'stdout', 'compil');
    store.stepOutput('build', 'stdout', 'ing with hunter2\ndone\n');
    store.stepFinished(report('build', 'ignored: it streamed'));
    store.stepStarted('agent', 'agent');
    store.stepFinished(report('agent', 'the reply\nhunter2', 'failure'));
    expect(store.steps.map((s) => [s.name, s.status, s.lines])).toEqual([
      ['build', 'success', ['compiling with ***', 'done']],
      ['agent', 'failure', ['the reply', '***']],
    ]);
    expect(seen.length).toBeGreaterThan(5);
  });

  it("puts a called workflow's steps one level down, and answers a question once", async () => {
    const store = new RunViewStore('wf', masker);
    store.stepStarted('call', 'call_workflow');
    store.calledWorkflow().stepStarted('child', 'step');
    expect(store.steps.map((s) => [s.name, s.depth])).toEqual([
      ['call', 0],
      ['child', 1],
    ]);
    const turn = store.ask('call');
    expect(store.question?.prompt).toMatch(/waits for the next message/);
    store.question?.answer('');
    await expect(turn).resolves.toBeUndefined(); // an empty line ends the conversation
    expect(store.question).toBeUndefined();
  });
});
