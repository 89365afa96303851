import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flowHarness, processesWith } from './flow-harness';

jest.setTimeout(120_000);

const child = `
name: child
inputs:
  - {name: message, required: true}
  - {name: count, type: integer, default: 1}
outputs:
  - {name: result, from: states.process.Output}
hooks: {workflow_start: [{log: 'child starts with {{.inputs.message}}'}]}
states:
  initial: process
  process: {type: step, command: 'printf "child got %s x%s" "$message" "$count"', on_success: second}
  second: {type: step, command: 'printf second', on_success: done}
  done: {type: terminal, message: 'child done'}
`;

describe('type: call_workflow', () => {
  const h = flowHarness();

  it('runs the child with rendered inputs; outputs and the child output are readable by the parent', async () => {
    const report = await h.run(
      `
name: parent
inputs: [{name: msg, default: hello}]
states:
  initial: call
  call:
    type: call_workflow
    workflow: child
    inputs: {message: '{{.inputs.msg}}', count: '3', extra: ignored}
    outputs: {result: child_result, second: s}
    timeout: 60
    on_success: show
  show: {type: step, command: 'echo "{{.states.call.Response.child_result}} / {{.states.call.Response.s}} / {{.states.call.Output}}"', on_success: done}
  done: {type: terminal}
`,
      { files: { 'child.yaml': child } },
    );
    expect(report.status).toBe('success');
    expect(report.steps.find((s) => s.name === 'show')?.output).toBe('child got hello x3 / second / child done\n');
    // The child's hooks and steps run inside the call step, with the caller's observer.
    expect(h.lines.filter((l) => !l.startsWith('warning'))).toEqual([
      'start call',
      'log: child starts with hello',
      'start process',
      'success process',
      'start second',
      'success second',
      'success call',
      'start show',
      'success show',
    ]);
    expect(h.lines).toContain('warning: states.call.inputs: "child" declares no input extra; ignored');
  });

  it('a failing child routes the caller through on_failure; a missing required input fails it too', async () => {
    const report = await h.run(
      `
name: parent
states:
  initial: call
  call: {type: call_workflow, workflow: bad, on_success: done, on_failure: handled}
  handled: {type: step, command: 'echo handled', on_success: call2}
  call2: {type: call_workflow, workflow: child, on_success: done, on_failure: failed}
  done: {type: terminal}
  failed: {type: terminal, status: failure, message: 'no input'}
`,
      {
        files: {
          'child.yaml': child,
          'bad.yaml':
            'name: bad\nstates:\n  initial: s\n  s: {type: step, command: "exit 4", on_success: d}\n  d: {type: terminal}\n',
        },
      },
    );
    expect(report).toMatchObject({ status: 'failure', terminal: 'failed' });
    const call = report.steps.find((s) => s.name === 'call');
    expect(call).toMatchObject({
      status: 'failure',
      error: {
        code: 'EXECUTION.CALL_WORKFLOW.FAILED',
        message: expect.stringContaining('sub-workflow "bad" failed: step "s" failed (exit code 4)'),
      },
    });
    expect(report.steps.find((s) => s.name === 'call2')?.error?.message).toContain('inputs.message: required');
  });

  it('the call timeout stops the child and its processes', async () => {
    const marker = `awf-call-${process.pid}-${Date.now()}`;
    const report = await h.run(
      `
name: parent
states:
  initial: call
  call: {type: call_workflow, workflow: slow, timeout: 1, on_success: done, on_failure: late}
  done: {type: terminal}
  late: {type: terminal, status: failure, message: '{{.states.call.Status}}'}
`,
      {
        files: {
          'slow.yaml': `name: slow\nstates:\n  initial: s\n  s: {type: step, command: "sleep 60 # ${marker}", on_success: d}\n  d: {type: terminal}\n`,
        },
      },
    );
    expect(report).toMatchObject({ terminal: 'late', error: { message: 'failure' } });
    expect(report.steps.find((s) => s.name === 'call')?.error).toMatchObject({ code: 'EXECUTION.STEP.TIMEOUT' });
    expect(processesWith(marker)).toEqual([]);
  });

  it('validate warns about a circular call naming the cycle, a missing child and an unknown output (AWF checks none); --strict refuses them', async () => {
    const call = (to: string) =>
      `name: ${to}x\nstates:\n  initial: c\n  c: {type: call_workflow, workflow: ${to}, on_success: d}\n  d: {type: terminal}\n`;
    writeFileSync(join(h.dir, 'a.yaml'), call('b').replace('name: bx', 'name: a'));
    writeFileSync(join(h.dir, 'b.yaml'), call('a').replace('name: ax', 'name: b'));
    writeFileSync(join(h.dir, 'child.yaml'), child);
    writeFileSync(
      join(h.dir, 'wf.yaml'),
      `
name: top
states:
  initial: one
  one: {type: call_workflow, workflow: a, on_success: two}
  two: {type: call_workflow, workflow: ghost, on_success: three}
  three: {type: call_workflow, workflow: child, inputs: {message: x}, outputs: {nothing: n}, on_success: done}
  done: {type: terminal}
`,
    );
    const v = await h.service.validate(`${h.dir}/wf.yaml`);
    expect(v.valid).toBe(true);
    expect(v.warnings.map((e) => `${e.code} ${e.path}`)).toEqual(
      expect.arrayContaining([
        'WORKFLOW.VALIDATION.CIRCULAR_CALL states.one.workflow',
        'USER.WORKFLOW.NOT_FOUND states.two.workflow',
        'WORKFLOW.VALIDATION.MISSING_STATE states.three.outputs.nothing',
      ]),
    );
    expect(v.warnings.find((e) => e.path === 'states.one.workflow')?.message).toContain(
      'circular call_workflow: wf → a → b → a; the run stops when it reaches this call',
    );
    const strict = await h.service.validate(`${h.dir}/wf.yaml`, { strict: true });
    expect(strict.valid).toBe(false);
    expect(strict.errors.map((e) => e.code)).toContain('WORKFLOW.VALIDATION.CIRCULAR_CALL');
  });

  it('a circular call runs the steps before it, then stops the run with EXECUTION.CALL_WORKFLOW.CIRCULAR, past on_failure (as AWF)', async () => {
    const loop = (name: string, to: string) =>
      `name: ${name}\nstates:\n  initial: c\n` +
      `  c: {type: call_workflow, workflow: ${to}, on_success: d, on_failure: caught}\n` +
      `  caught: {type: step, command: 'touch caught-${name}', on_success: d}\n  d: {type: terminal}\n`;
    const report = h.run(
      `
name: top
states:
  initial: first
  first: {type: step, command: 'touch first-ran', on_success: call}
  call: {type: call_workflow, workflow: a, on_success: done, on_failure: caught}
  caught: {type: step, command: 'touch caught-top', on_success: done}
  done: {type: terminal}
`,
      { files: { 'a.yaml': loop('a', 'b'), 'b.yaml': loop('b', 'a') } },
    );
    await expect(report).resolves.toMatchObject({
      status: 'failure',
      error: {
        code: 'EXECUTION.CALL_WORKFLOW.CIRCULAR',
        message: expect.stringContaining('"a" is already running (wf → a → b → a)'),
      },
    });
    expect(h.files()).toContain('first-ran');
    expect(h.files().filter((f) => f.startsWith('caught'))).toEqual([]);
  });

  it('a chain deeper than 10 calls is a warning at validate and stops the run at the 11th call', async () => {
    const call = (to: string) =>
      `name: ${to}x\nstates:\n  initial: c\n  c: {type: call_workflow, workflow: ${to}, on_success: d}\n  d: {type: terminal}\n`;
    const chain: Record<string, string> = {};
    for (let i = 1; i <= 11; i++) chain[`w${i}.yaml`] = call(`w${i + 1}`).replace(`name: w${i + 1}x`, `name: w${i}`);
    chain['w12.yaml'] = 'name: w12\nstates:\n  initial: d\n  d: {type: terminal}\n';
    await expect(h.run(call('w1').replace('name: w1x', 'name: w0'), { files: chain })).resolves.toMatchObject({
      status: 'failure',
      error: { code: 'EXECUTION.CALL_WORKFLOW.MAX_DEPTH', message: expect.stringContaining('deeper than 10') },
    });
    const v = await h.service.validate(`${h.dir}/wf.yaml`);
    expect(v.warnings.map((e) => e.message)).toEqual([expect.stringContaining('call_workflow nests deeper than 10')]);
  });
});
