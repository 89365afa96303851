import { flowHarness } from './flow-harness';

jest.setTimeout(120_000);

describe('hooks: step pre/post and workflow_start/_end/_error/_cancel', () => {
  const h = flowHarness();

  it('runs in AWF order: start, pre, step, post, end; post hooks read the step state', async () => {
    const report = await h.run(`
name: order
inputs: [{name: who, default: me}]
hooks:
  workflow_start:
    - log: 'start {{.workflow.Name}} for {{.inputs.who}}'
    - command: 'echo start >> hook.log'
  workflow_end:
    - command: 'echo "end {{.states.s1.Output}}" >> hook.log'
  workflow_error:
    - command: 'echo never >> hook.log'
states:
  initial: s1
  s1:
    type: step
    command: 'echo body >> hook.log; printf out'
    hooks:
      pre: [{command: 'echo pre >> hook.log'}]
      post: [{command: 'echo "post {{.states.s1.Output}} {{.states.s1.ExitCode}}" >> hook.log'}, {log: 'after s1'}]
    on_success: done
  done: {type: terminal}
`);
    expect(report.status).toBe('success');
    expect(h.read('hook.log')).toBe('start\npre\nbody\npost out 0\nend out\n');
    expect(h.lines).toEqual(['log: start order for me', 'start s1', 'log: after s1', 'success s1']);
  });

  it('a failing workflow_start hook stops the run before any step with EXECUTION.HOOK.FAILED; later actions do not run', async () => {
    const report = await h.run(`
name: gate
hooks:
  workflow_start:
    - command: 'echo one >> hook.log'
    - command: 'echo nope >&2; exit 3'
    - command: 'echo three >> hook.log'
  workflow_error: [{command: 'echo error-hook >> hook.log'}]
states:
  initial: s
  s: {type: step, command: 'echo step >> hook.log', on_success: done}
  done: {type: terminal}
`);
    expect(report).toMatchObject({
      status: 'failure',
      steps: [],
      error: {
        code: 'EXECUTION.HOOK.FAILED',
        message: 'wf.yaml: hooks.workflow_start[1]: hook command exited with code 3: nope',
      },
    });
    expect(h.read('hook.log')).toBe('one\n');
  });

  it('a failing step hook is a warning: the step and the run go on', async () => {
    const report = await h.run(`
name: soft
states:
  initial: s
  s:
    type: step
    command: 'echo ran'
    hooks: {pre: [{command: 'exit 9'}], post: [{log: '{{.states.later.Output}}'}]}
    on_success: later
  later: {type: step, command: 'true', on_success: done}
  done: {type: terminal}
`);
    expect(report.status).toBe('success');
    expect(h.lines.filter((l) => l.startsWith('warning'))).toEqual([
      expect.stringContaining('states.s.hooks.pre[0]: hook command exited with code 9'),
      expect.stringContaining('wf.yaml: states.s.hooks.post[0].log: undefined reference .states.later'),
    ]);
  });

  it('workflow_error sees .error.Message/State/ExitCode/Type, also for a failure terminal', async () => {
    const report = await h.run(`
name: err
hooks:
  workflow_error:
    - command: "printf '%s|%s|%s|%s\\n' {{.error.Type}} {{.error.State}} {{.error.ExitCode}} {{escape .error.Message}} >> hook.log"
  workflow_end: [{command: 'echo end >> hook.log'}]
states:
  initial: s
  s: {type: step, command: 'echo bad >&2; exit 6', on_success: done}
  done: {type: terminal}
`);
    expect(report.status).toBe('failure');
    expect(h.read('hook.log')).toBe('execution|s|6|step "s" failed (exit code 6): bad\n');
    await h.run(`
name: term
hooks: {workflow_error: [{command: 'echo "{{.error.State}}: {{.error.Message}}" >> hook2.log'}]}
states:
  initial: s
  s: {type: step, command: 'true', on_success: bad}
  bad: {type: terminal, status: failure, message: 'gave up'}
`);
    expect(h.read('hook2.log')).toBe('bad: gave up\n');
  });

  it('workflow_cancel runs after a cancel, even though the run signal is aborted', async () => {
    const abort = new AbortController();
    const running = h.run(
      `
name: cancel
hooks:
  workflow_cancel: [{command: 'echo cancelled >> hook.log'}]
  workflow_error: [{command: 'echo error >> hook.log'}]
states:
  initial: s
  s: {type: step, command: 'touch up; sleep 60', on_success: done}
  done: {type: terminal}
`,
      { signal: abort.signal },
    );
    while (!h.files().includes('up')) await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    expect((await running).status).toBe('cancelled');
    expect(h.read('hook.log')).toBe('cancelled\n');
  });
});
