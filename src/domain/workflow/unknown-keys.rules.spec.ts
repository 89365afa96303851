import { parse } from 'yaml';
import { closest, checkUnknownKeys } from './unknown-keys.rules';

const check = (yaml: string): string[] =>
  checkUnknownKeys(parse(yaml)).map((i) => `${i.severity} ${i.code} ${i.path}: ${i.message}`);

describe('unknown keys', () => {
  it('reports a misspelt key at any level with its path and the closest known key, as a warning', () => {
    expect(
      check(`
name: typos
descripton: x
inputs:
  - {name: a, requird: true, validation: {patern: "^a"}}
hooks:
  workflow_strat: [{log: hi}]
  workflow_end: [{logg: bye}]
states:
  initial: build
  build:
    type: step
    command: make
    retyr: {max_attempts: 2}
    retry: {max_attemps: 3}
    on_sucess: done
    transitions: [{when: "true", got: done}]
    hooks: {pre: [{comand: ls}]}
    on_failure: {mesage: nope}
  done: {type: terminal, staus: success}
`),
    ).toEqual([
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD descripton: unknown key "descripton" (did you mean "description"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD inputs[0].requird: unknown key "requird" (did you mean "required"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD inputs[0].validation.patern: unknown key "patern" (did you mean "pattern"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD hooks.workflow_strat: unknown key "workflow_strat" (did you mean "workflow_start"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD hooks.workflow_end[0].logg: unknown key "logg" (did you mean "log"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.build.retyr: unknown key "retyr" (did you mean "retry"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.build.retry.max_attemps: unknown key "max_attemps" (did you mean "max_attempts"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.build.on_sucess: unknown key "on_sucess" (did you mean "on_success"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.build.transitions[0].got: unknown key "got" (did you mean "goto"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.build.hooks.pre[0].comand: unknown key "comand" (did you mean "command"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.build.on_failure.mesage: unknown key "mesage" (did you mean "message"?); it is ignored',
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.done.staus: unknown key "staus" (did you mean "status"?); it is ignored',
    ]);
  });

  it('names a key that belongs to another step type', () => {
    expect(
      check(
        'name: x\nstates:\n  initial: a\n  a: {type: step, command: ls, prompt: hi, on_success: d}\n  d: {type: terminal}\n',
      ),
    ).toEqual([
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.a.prompt: "prompt" is not a key of a step step (it belongs to agent steps); it is ignored',
    ]);
  });

  it('knows every key of every state type, and leaves free-form maps alone', () => {
    expect(
      check(`
name: all
version: "1"
author: me
tags: [a]
env: [HOME]
plugins: {pg: database}
outputs: [{name: r, from: states.a.Output}]
inputs: [{name: i, type: string, description: d, required: false, default: x, secret: false,
  validation: {pattern: a, enum: [a], min: 1, max: 2, file_exists: false, file_extension: [.md]}}]
hooks: {workflow_start: [{command: ls}], workflow_end: [], workflow_error: [], workflow_cancel: []}
states:
  initial: a
  a: {type: command, command: ls, dir: ., timeout: 1, retry: {max_attempts: 1, initial_delay: 1, max_delay: 2, backoff: linear,
      multiplier: 2, jitter: 0, retryable_exit_codes: [1]},
      continue_on_error: true, description: d, on_success: b, hooks: {pre: [], post: []}}
  s: {type: step, script_file: s.sh, on_success: b}
  b: {type: agent, provider: claude, prompt: p, prompt_file: f, options: {anything: {deep: 1}}, output_format: json, mode: conversation,
      system_prompt: s, role: r, skills: [x], conversation: {continue_from: a}, mcp_proxy: {enable: true}, on_success: c}
  c: {type: parallel, parallel: [a, b], strategy: all_succeed, max_concurrent: 2, on_success: e}
  e: {type: for_each, items: [1, 2], body: [a], max_iterations: 3, break_when: "false", on_complete: w}
  w: {type: while, while: "true", body: [a], max_iterations: "{{inputs.i}}", on_complete: o}
  o: {type: operation, operation: http.request, inputs: {url: x}, on_success: k}
  k: {type: call_workflow, workflow: child, inputs: {a: b}, outputs: {x: y}, timeout: 5, on_success: p}
  p: {type: db.query, config: {sql: x}, on_success: t}
  t: {type: terminal, status: failure, message: m}
`),
    ).toEqual([]);
  });

  it('warns about parameters on a step without use_template (templates are expanded before this walk)', () => {
    expect(
      check(
        'name: x\nstates:\n  initial: a\n  a: {type: step, command: ls, parameters: {a: 1}, on_success: d}\n  d: {type: terminal}\n',
      ),
    ).toEqual(['warning WORKFLOW.PARSE.UNKNOWN_FIELD states.a.parameters: unknown key "parameters"; it is ignored']);
  });

  it('names the step key AWF accepts and never acts on (capture), with what does the job; depends_on is checked elsewhere', () => {
    expect(
      check(`
name: x
states:
  initial: a
  a: {type: step, command: ls, depends_on: [b], capture: {stdout: o, max_sise: 1}, on_success: d}
  d: {type: terminal}
`),
    ).toEqual([
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.a.capture.max_sise: unknown key "max_sise" (did you mean "max_size"?); it is ignored',
      "warning WORKFLOW.PARSE.NO_EFFECT states.a.capture: capture has no effect (nor in AWF): a step's output is always " +
        'kept as {{.states.<step>.Output}} and its stderr as {{.states.<step>.Stderr}}',
    ]);
  });

  it('suggests only keys that are near enough', () => {
    expect(closest('retyr', ['retry', 'dir'])).toBe('retry');
    expect(closest('bananas', ['retry', 'dir'])).toBeUndefined();
  });
});
