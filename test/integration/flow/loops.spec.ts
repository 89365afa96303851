import { flowHarness } from './flow-harness';

jest.setTimeout(120_000);

describe('type: for_each and type: while', () => {
  const h = flowHarness();
  const outputs = (r: { steps: { name: string; output: string }[] }, name: string) =>
    r.steps.filter((s) => s.name === name).map((s) => s.output.trim());

  it('for_each over a JSON string gives .loop.Item/Index/Index1/First/Last/Length, then on_complete', async () => {
    const report = await h.run(`
name: each
states:
  initial: files
  files:
    type: for_each
    items: '["a.txt", "b.txt", "c.txt"]'
    body: [show]
    on_complete: done
  show:
    type: step
    command: 'echo "{{.loop.Item}} {{.loop.Index}} {{.loop.Index1}}/{{.loop.Length}} {{.loop.First}} {{.loop.Last}}"'
    on_success: files
  done: {type: terminal, message: '{{.states.files.Output}}'}
`);
    expect(report).toMatchObject({ status: 'success', output: 'completed 3 iterations' });
    expect(outputs(report, 'show')).toEqual([
      'a.txt 0 1/3 true false',
      'b.txt 1 2/3 false false',
      'c.txt 2 3/3 false true',
    ]);
  });

  it('for_each takes a YAML list of objects (printed as JSON), a template, and comma-separated text', async () => {
    const report = await h.run(`
name: forms
states:
  initial: list
  list:
    type: for_each
    items: [{id: 1}, {id: 2}]
    body: [obj]
    on_complete: make
  obj: {type: step, command: "echo '{{.loop.Item}}'"}
  make: {type: step, command: 'echo "[\\"x\\", \\"y\\"]"', on_success: templ}
  templ:
    type: for_each
    items: '{{.states.make.Output}}'
    body: [t]
    on_complete: csv
  t: {type: step, command: 'echo t-{{.loop.Item}}'}
  csv:
    type: for_each
    items: 'red, green ,blue'
    body: [c]
    on_complete: done
  c: {type: step, command: 'echo c-{{.loop.Item}}'}
  done: {type: terminal}
`);
    expect(report.status).toBe('success');
    expect(outputs(report, 'obj')).toEqual(['{"id":1}', '{"id":2}']);
    expect(outputs(report, 't')).toEqual(['t-x', 't-y']);
    expect(outputs(report, 'c')).toEqual(['c-red', 'c-green', 'c-blue']);
  });

  it('nested loops keep their own .loop and reach the outer one through .loop.Parent', async () => {
    const report = await h.run(`
name: nested
states:
  initial: rows
  rows:
    type: for_each
    items: '["r1", "r2"]'
    body: [row, cols]
    on_complete: done
  row: {type: step, command: 'echo "row {{.loop.Item}} {{.loop.Index1}}/{{.loop.Length}}"', on_success: rows}
  cols:
    type: for_each
    items: '["a", "b"]'
    body: [cell]
    on_complete: rows
  cell: {type: step, command: 'echo "{{.loop.Parent.Item}}.{{.loop.Item}} {{.loop.Parent.Index}}{{.loop.Index}}"', on_success: cols}
  done: {type: terminal}
`);
    expect(report.status).toBe('success');
    expect(outputs(report, 'row')).toEqual(['row r1 1/2', 'row r2 2/2']);
    expect(outputs(report, 'cell')).toEqual(['r1.a 00', 'r1.b 01', 'r2.a 10', 'r2.b 11']);
  });

  it('while runs while its condition holds, and break_when stops it early', async () => {
    const report = await h.run(
      `
name: count
states:
  initial: grow
  grow:
    type: while
    while: 'not (states.tick.Output contains "3")'
    break_when: 'states.tick.Output contains "STOP"'
    max_iterations: 10
    body: [tick]
    on_complete: done
  tick: {type: step, command: 'echo $(( $(cat n 2>/dev/null || echo 0) + 1 )) > n; cat n'}
  done: {type: terminal, message: '{{.states.grow.Output}}'}
`,
      { files: {} },
    );
    // The first check reads a state that has not run: AWF's nil comparison is false, so `not` is true.
    expect(report).toMatchObject({ status: 'success', output: 'completed 3 iterations' });
    const broke = await h.run(`
name: brk
states:
  initial: w
  w: {type: while, while: 'true', break_when: 'loop.Index == 1', body: [s], on_complete: done}
  s: {type: step, command: 'echo {{.loop.Index}} {{.loop.Length}}'}
  done: {type: terminal}
`);
    expect(outputs(broke, 's')).toEqual(['0 -1', '1 -1']);
  });

  it('max_iterations: a template with arithmetic, the default of 100, and a warning when items are cut', async () => {
    const report = await h.run(`
name: limits
inputs: [{name: n, default: '2'}]
states:
  initial: w
  w: {type: while, while: 'true', max_iterations: '{{.inputs.n}} * 2 - 1', body: [s], on_complete: e}
  s: {type: step, command: 'echo w{{.loop.Index1}}'}
  e: {type: for_each, items: '[1,2,3,4]', max_iterations: 2, body: [t], on_complete: done}
  t: {type: step, command: 'echo e{{.loop.Item}}'}
  done: {type: terminal}
`);
    expect(outputs(report, 's')).toEqual(['w1', 'w2', 'w3']);
    expect(outputs(report, 't')).toEqual(['e1', 'e2']);
    expect(h.lines).toEqual(
      expect.arrayContaining([
        'warning: while loop "w" stopped at max_iterations (3) with its condition still true',
        'warning: loop "e": 4 items but max_iterations is 2; only the first 2 run',
      ]),
    );
    const bad = await h.run(`
name: badlimit
inputs: [{name: n, default: 'lots'}]
states:
  initial: w
  w: {type: while, while: 'true', max_iterations: '{{.inputs.n}}', body: [s], on_complete: done, on_failure: failed}
  s: {type: step, command: 'true'}
  done: {type: terminal}
  failed: {type: terminal, status: failure}
`);
    expect(bad).toMatchObject({ terminal: 'failed' });
    expect(bad.steps[0].error).toMatchObject({
      code: 'EXECUTION.LOOP.FAILED',
      message: expect.stringContaining('"lots", which is not an integer'),
    });
  });

  it('body transitions jump inside the body, and a route out of the body leaves the loop', async () => {
    const report = await h.run(`
name: jumps
states:
  initial: l
  l: {type: for_each, items: '["go", "skip", "out", "never"]', body: [check, middle, last], on_complete: done}
  check:
    type: step
    command: 'echo {{.loop.Item}}'
    transitions:
      - when: 'states.check.Output contains "skip"'
        goto: last
      - when: 'states.check.Output contains "out"'
        goto: escaped
      - goto: middle
  middle: {type: step, command: 'echo m{{.loop.Index}}', on_success: l}
  last: {type: step, command: 'echo z{{.loop.Index}}', on_success: l}
  escaped: {type: terminal, message: 'left at {{.states.check.Output}}'}
  done: {type: terminal}
`);
    expect(report).toMatchObject({ status: 'success', terminal: 'escaped', output: 'left at out\n' });
    expect(outputs(report, 'middle')).toEqual(['m0']);
    expect(outputs(report, 'last')).toEqual(['z0', 'z1']);
  });

  it('a body step that fails with no route fails the loop, which then follows its on_failure', async () => {
    const report = await h.run(`
name: bodyfail
states:
  initial: l
  l: {type: for_each, items: '[1, 2, 3]', body: [s], on_complete: done, on_failure: failed}
  s: {type: step, command: '[ {{.loop.Item}} -lt 2 ] || { echo no >&2; exit 4; }'}
  done: {type: terminal}
  failed: {type: terminal, status: failure, message: '{{.states.l.Output}}'}
`);
    expect(report).toMatchObject({ terminal: 'failed', error: { message: 'completed 2 iterations' } });
    expect(report.steps.find((s) => s.name === 'l')?.error?.message).toBe(
      'loop "l": iteration 2: step "s" failed: step "s" failed (exit code 4): no',
    );
  });
});
