import { parse } from 'yaml';
import { parseWorkflow } from './workflow.parser';

const warnings = (yaml: string): string[] =>
  parseWorkflow(parse(yaml), 'wf')
    .issues.filter((i) => i.code === 'WORKFLOW.PARSE.NO_EFFECT')
    .map((i) => `${i.path}: ${i.message}`);

describe('depends_on', () => {
  it('says nothing when every path to the step already runs what it depends on', () => {
    expect(
      warnings(`
name: x
states:
  initial: build
  build: {type: step, command: make, on_success: test, on_failure: failed}
  test: {type: step, command: make test, depends_on: [build], on_success: ship}
  ship: {type: step, command: ./ship, depends_on: build, transitions: [{when: "inputs.x == '1'", goto: done}], on_success: done}
  done: {type: terminal}
  failed: {type: terminal, status: failure}
`),
    ).toEqual([]);
  });

  it('warns, with a path, where a step is reached without what it depends on', () => {
    expect(
      warnings(`
name: x
states:
  initial: probe
  probe: {type: step, command: 'true', transitions: [{when: "inputs.fast == 'yes'", goto: deploy}], on_success: build}
  build: {type: step, command: make, on_success: deploy}
  deploy: {type: step, command: ./deploy, depends_on: [build], on_success: done}
  done: {type: terminal}
`),
    ).toEqual([
      'states.deploy.depends_on: "build" does not always run before "deploy" (probe → deploy skips it), and ' +
        'depends_on does not reorder steps: route through "build" with on_success or transitions',
    ]);
  });

  it('warns on branches of one parallel step, on a name that is no state, and not on an unreachable step', () => {
    expect(
      warnings(`
name: x
states:
  initial: both
  both: {type: parallel, parallel: [a, b], on_success: done}
  a: {type: step, command: 'true', on_success: done}
  b: {type: step, command: 'true', depends_on: [a, nope], on_success: done}
  orphan: {type: step, command: 'true', depends_on: [a], on_success: done}
  done: {type: terminal}
`),
    ).toEqual([
      'states.b.depends_on: "a" does not always run before "b" (both → b skips it), and depends_on does not ' +
        'reorder steps: to run a before b, make it a step of its own before the parallel one',
      'states.b.depends_on: "nope" is not a state of this workflow; depends_on does not order steps ' +
        '(on_success and transitions do)',
    ]);
  });
});
