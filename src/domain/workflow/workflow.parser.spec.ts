import { parse } from 'yaml';
import { parseDurationMs } from './duration';
import { isSecretInputName } from './secret-names';
import { parseWorkflow } from './workflow.parser';
import { checkWorkflow } from './workflow.rules';
import type { AgentStep, CommandStep, TerminalStep } from './workflow.model';

const load = (yaml: string) => parseWorkflow(parse(yaml), 'wf');

describe('parseWorkflow (AWF format)', () => {
  it('maps a command/agent/terminal workflow with inputs, routing and retry', () => {
    const { workflow, issues } = load(`
name: review
version: 1.2
description: Review a change
inputs:
  - {name: file, type: string, required: true, description: what to review}
  - {name: token, secret: true}
  - {name: depth, type: integer, default: 3}
states:
  initial: build
  build:
    type: command
    command: make
    dir: src
    timeout: 1m30s
    retry: {max_attempts: 3, initial_delay: 2, backoff: exponential}
    on_success: review
    on_failure: {message: "build broke"}
  review:
    type: agent
    provider: claude
    prompt: Review {{.inputs.file}}
    options: {model: sonnet}
    mcp_proxy: {enable: true}
    transitions:
      - when: states.build.ExitCode == 0
        goto: done
    on_success: done
  done: {type: terminal, message: ok}
`);
    expect(issues).toEqual([]);
    expect(workflow).toMatchObject({ id: 'wf', name: 'review', version: '1.2', initial: 'build' });
    expect(workflow!.inputs).toEqual([
      expect.objectContaining({ name: 'file', type: 'string', required: true, secret: false }),
      expect.objectContaining({ name: 'token', secret: true, required: false }),
      expect.objectContaining({ name: 'depth', type: 'integer', default: '3' }),
    ]);
    const build = workflow!.steps[0] as CommandStep;
    expect(build).toMatchObject({
      type: 'step',
      command: 'make',
      dir: 'src',
      timeoutMs: 90_000,
      onFailure: '__inline_error_build',
    });
    expect(build.retry).toMatchObject({ maxAttempts: 3, initialDelayMs: 2000, backoff: 'exponential', multiplier: 2 });
    const review = workflow!.steps[1] as AgentStep;
    expect(review.mcpProxy).toEqual({ enable: true, interceptBuiltins: true, pluginTools: [] });
    expect(review.transitions).toEqual([{ when: 'states.build.ExitCode == 0', goto: 'done' }]);
    const inline = workflow!.steps.find((s) => s.name === '__inline_error_build') as TerminalStep;
    expect(inline).toMatchObject({ type: 'terminal', status: 'failure', message: 'build broke' });
    expect(checkWorkflow(workflow!)).toEqual([]);
  });

  it('warns of unknown keys, and in mcp_proxy refuses them, naming each one', () => {
    const { issues } = load(`
name: x
author: me
states:
  initial: a
  a: {type: agent, provider: script, prompt: p, colour: red, mcp_proxy: {enable: true, sandbox: deny, extra: 1}, on_success: z}
  z: {type: terminal}
`);
    expect(issues).toEqual([
      {
        code: 'WORKFLOW.PARSE.UNKNOWN_FIELD',
        path: 'states.a.colour',
        severity: 'warning',
        message: 'unknown key "colour"; it is ignored',
      },
      {
        code: 'USER.MCP_PROXY.UNKNOWN_KEY',
        path: 'states.a.mcp_proxy',
        severity: 'error',
        message:
          'unknown field(s) in mcp_proxy: sandbox, extra (allowed: enable, intercept_builtins, plugin_tools, servers, policy)',
      },
    ]);
  });

  it("reads awf's own mcp_proxy keys in another shape as AWF does: an unknown key (policy: bogus)", () => {
    const { issues } = load(
      `name: x\nstates:\n  initial: a\n  a: {type: agent, provider: script, prompt: p, mcp_proxy: {enable: true, policy: bogus}, on_success: z}\n  z: {type: terminal}\n`,
    );
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'USER.MCP_PROXY.UNKNOWN_KEY',
        path: 'states.a.mcp_proxy',
        message:
          'unknown field(s) in mcp_proxy: policy (allowed: enable, intercept_builtins, plugin_tools, servers, policy; ' +
          "awf's own policy is a mapping (docs/policy.md))",
      }),
    ]);
  });

  it('warns of an operation name without a plugin (AWF finds it only when the step runs)', () => {
    const { issues } = load(
      `name: x\nstates:\n  initial: a\n  a: {type: operation, operation: echo, on_success: z}\n  z: {type: terminal}\n`,
    );
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'WORKFLOW.PARSE.INVALID_FIELD',
        path: 'states.a.operation',
        severity: 'warning',
      }),
    ]);
  });

  it('defaults intercept_builtins to enable, and an explicit value wins', () => {
    const proxy = (block: string) =>
      (
        load(`name: x\nstates:\n  initial: a\n  a: {type: agent, provider: script, prompt: p, mcp_proxy: ${block}}\n`)
          .workflow!.steps[0] as AgentStep
      ).mcpProxy;
    expect(proxy('{enable: false}')).toMatchObject({ enable: false, interceptBuiltins: false });
    expect(proxy('{}')).toMatchObject({ enable: false, interceptBuiltins: false });
    expect(proxy('{enable: true, intercept_builtins: false, plugin_tools: [{plugin: k8s, expose: [get]}]}')).toEqual({
      enable: true,
      interceptBuiltins: false,
      pluginTools: [{ plugin: 'k8s', expose: ['get'] }],
    });
  });

  it('collects every structural problem at once', () => {
    const { workflow, issues } = load(`
states:
  initial: a
  a: {type: step}
  b: {type: loop}
  c: {type: terminal, status: maybe}
`);
    const all = [...issues, ...checkWorkflow(workflow!)].map((i) => `${i.code} ${i.path}`);
    expect(all).toEqual(
      expect.arrayContaining([
        'WORKFLOW.VALIDATION.MISSING_FIELD name',
        'WORKFLOW.VALIDATION.MISSING_FIELD states.a.command',
        'WORKFLOW.PARSE.INVALID_FIELD states.b.type',
        'WORKFLOW.PARSE.INVALID_FIELD states.c.status',
        'WORKFLOW.VALIDATION.NO_ROUTE states.a',
      ]),
    );
  });

  it('reports EMPTY_PROXY and each extra duplicate plugin, only when enabled', () => {
    const { workflow } = load(`
name: x
states:
  initial: a
  a: {type: agent, provider: script, prompt: p, mcp_proxy: {enable: true, intercept_builtins: false}, on_success: b}
  b: {type: agent, provider: script, prompt: p, on_success: c, mcp_proxy: {enable: true, plugin_tools: [{plugin: k8s}, {plugin: docker}, {plugin: k8s}]}}
  c: {type: agent, provider: script, prompt: p, on_success: z, mcp_proxy: {enable: false, intercept_builtins: false}}
  z: {type: terminal}
`);
    expect(checkWorkflow(workflow!).map((i) => [i.code, i.path, i.message])).toEqual([
      [
        'USER.MCP_PROXY.EMPTY_PROXY',
        'states.a.mcp_proxy',
        'MCP proxy enabled with intercept_builtins=false but no plugin_tools specified',
      ],
      ['USER.MCP_PROXY.NAME_COLLISION', 'states.b.mcp_proxy.plugin_tools[2].plugin', 'duplicate plugin entry: k8s'],
    ]);
  });
});

describe('parseDurationMs', () => {
  it.each([
    [30, 30_000],
    ['45', 45_000],
    ['90s', 90_000],
    ['1m30s', 90_000],
    ['1h', 3_600_000],
    ['500ms', 500],
    ['1.5s', 1500],
  ])('%j → %d ms', (input, ms) => expect(parseDurationMs(input)).toBe(ms));
  it.each(['soon', '', '5 minutes', -1, true])('rejects %j', (input) => expect(parseDurationMs(input)).toBeUndefined());
});

describe('parseWorkflow: parallel, loops, hooks (flow)', () => {
  const issuesOf = (yaml: string) => {
    const { workflow, issues } = load(yaml);
    return [...issues, ...(workflow ? checkWorkflow(workflow) : [])].map((i) => `${i.code} ${i.path}: ${i.message}`);
  };

  it('maps parallel and loop steps, and exempts branches and body steps from the routing rule', () => {
    const { workflow, issues } = load(`
name: flow
hooks:
  workflow_start: [{log: 'start {{.workflow.Name}}'}]
  workflow_error: [{command: 'echo {{.error.Message}}'}]
states:
  initial: fan
  fan: {type: parallel, parallel: [a, b], strategy: any_succeed, max_concurrent: 1, on_success: each}
  a: {type: step, command: 'true', hooks: {pre: [{log: pre}], post: [{command: 'echo post'}]}}
  b: {type: step, command: 'true'}
  each: {type: for_each, items: [x, {y: 1}], max_iterations: '{{.inputs.n}}', body: [a], break_when: 'loop.Index == 1', on_complete: w}
  w: {type: while, while: true, body: [b], max_iterations: 7, on_complete: done}
  done: {type: terminal}
`);
    expect(issues).toEqual([]);
    expect(checkWorkflow(workflow!)).toEqual([]);
    expect(workflow!.hooks).toEqual({
      workflow_start: [{ log: 'start {{.workflow.Name}}' }],
      workflow_error: [{ command: 'echo {{.error.Message}}' }],
    });
    const byName = Object.fromEntries(workflow!.steps.map((s) => [s.name, s]));
    expect(byName.fan).toMatchObject({
      type: 'parallel',
      branches: ['a', 'b'],
      strategy: 'any_succeed',
      maxConcurrent: 1,
    });
    expect(byName.a.hooks).toEqual({ pre: [{ log: 'pre' }], post: [{ command: 'echo post' }] });
    expect(byName.each).toMatchObject({
      type: 'for_each',
      items: '["x",{"y":1}]',
      maxIterationsExpr: '{{.inputs.n}}',
      breakWhen: 'loop.Index == 1',
      onComplete: 'w',
    });
    expect(byName.w).toMatchObject({ type: 'while', condition: 'true', maxIterations: 7, body: ['b'] });
  });

  it('names every broken parallel, loop and hook field', () => {
    expect(
      issuesOf(`
name: broken
hooks: {workflow_start: [{log: a, command: b}]}
states:
  initial: fan
  fan: {type: parallel, parallel: [ghost, fan, end], strategy: fastest, max_concurrent: -1, on_success: end}
  l: {type: for_each, body: [], max_iterations: 0, on_complete: nowhere}
  w: {type: while, body: [l, l], max_iterations: 10001}
  end: {type: terminal}
`),
    ).toEqual(
      expect.arrayContaining([
        'WORKFLOW.PARSE.INVALID_FIELD hooks.workflow_start[0]: a hook action has exactly one of log or command',
        'WORKFLOW.PARSE.INVALID_FIELD states.fan.strategy: strategy must be all_succeed, any_succeed, best_effort, not "fastest"',
        'WORKFLOW.PARSE.INVALID_FIELD states.fan.max_concurrent: max_concurrent must be an integer ≥ 0 (0: all branches at once)',
        'WORKFLOW.VALIDATION.MISSING_STATE states.fan.parallel[0]: state "ghost" does not exist (states: fan, l, w, end)',
        'WORKFLOW.PARSE.INVALID_FIELD states.fan.parallel[1]: "fan" cannot run itself',
        'WORKFLOW.PARSE.INVALID_FIELD states.fan.parallel[2]: "end" is a terminal state; only runnable states can be branches',
        'WORKFLOW.PARSE.INVALID_FIELD states.l.body: body must be a non-empty list of state names',
        'WORKFLOW.VALIDATION.MISSING_FIELD states.l.items: a for_each needs items (a list, a JSON array, or a template giving one)',
        'WORKFLOW.PARSE.INVALID_FIELD states.l.max_iterations: max_iterations must be an integer from 1 to 10000, or a template giving one; not 0',
        'WORKFLOW.VALIDATION.MISSING_STATE states.l.on_complete: state "nowhere" does not exist (states: fan, l, w, end)',
        'WORKFLOW.VALIDATION.MISSING_FIELD states.w.while: a while loop needs a `while:` condition',
        'WORKFLOW.PARSE.INVALID_FIELD states.w.body: state "l" is listed twice in body',
        'WORKFLOW.PARSE.INVALID_FIELD states.w.max_iterations: max_iterations must be an integer from 1 to 10000, or a template giving one; not 10001',
      ]),
    );
  });
});

describe('secret inputs by name (AWF prefixes)', () => {
  it.each([
    ['SECRET_X', true],
    ['secret_x', true],
    ['API_KEY', true],
    ['api_key_prod', true],
    ['PASSWORD', true],
    ['password2', true],
    ['TOKEN', true],
    ['Token_gh', true],
    ['OPENAI_API_KEY', false],
    ['GITHUB_TOKEN', false],
    ['SECRETS', false],
    ['my_password', false],
  ])('%s → %s', (name, secret) => expect(isSecretInputName(name)).toBe(secret));

  it('marks such inputs secret, as if declared `secret: true`', () => {
    const { workflow } = load(
      'name: s\ninputs:\n  - {name: TOKEN_X}\n  - {name: plain}\nstates: {initial: d, d: {type: terminal}}\n',
    );
    expect(workflow?.inputs.map((i) => [i.name, i.secret])).toEqual([
      ['TOKEN_X', true],
      ['plain', false],
    ]);
  });
});

describe('agent role and skills', () => {
  const agent = (extra: string) =>
    load(
      `name: r\nstates:\n  initial: a\n  a: {type: agent, provider: script, prompt: hi, ${extra}, on_success: d}\n  d: {type: terminal}\n`,
    );

  it('reads a role (name, path or template) and skills by name or {path}', () => {
    const { workflow, issues } = agent('role: "{{.inputs.who}}", skills: [review, {path: ./skills/lint}]');
    expect(issues).toEqual([]);
    expect(workflow?.steps[0]).toMatchObject({
      role: '{{.inputs.who}}',
      skills: [{ name: 'review' }, { path: './skills/lint' }],
    });
  });

  it('refuses a role with "..", a role that is not text, and malformed skills, as AWF does', () => {
    const problems = (extra: string) => agent(extra).issues.map((i) => `${i.code} ${i.path}: ${i.message}`);
    expect(problems('role: ../up')).toEqual([
      'WORKFLOW.PARSE.INVALID_FIELD states.a.role: role must not contain ".." (name a role, or give a path below the workflow\'s directory)',
    ]);
    expect(problems('role: [x]')).toEqual([
      'WORKFLOW.PARSE.INVALID_FIELD states.a.role: role must be a role name or a path to a role directory',
    ]);
    expect(problems('skills: review')).toEqual([
      'WORKFLOW.PARSE.INVALID_FIELD states.a.skills: skills must be a list of skill names or {path: <dir>} entries',
    ]);
    expect(problems('skills: ["", {dir: x}]')).toEqual([
      'WORKFLOW.PARSE.UNKNOWN_FIELD states.a.skills[1].dir: unknown key "dir"; it is ignored',
      'WORKFLOW.PARSE.INVALID_FIELD states.a.skills[0]: a skill is a non-empty name or {path: <dir with SKILL.md>}',
      'WORKFLOW.PARSE.INVALID_FIELD states.a.skills[1]: a skill is a non-empty name or {path: <dir with SKILL.md>}',
    ]);
  });
});

describe('top-level plugins (AWF: aliases for plugin step types)', () => {
  it('warns that it has no effect, since awf runs no plugin step types', () => {
    const { issues } = load('name: p\nplugins: {pg: database}\nstates: {initial: d, d: {type: terminal}}\n');
    expect(issues.map((i) => `${i.severity} ${i.code} ${i.path}`)).toEqual([
      'warning WORKFLOW.PARSE.NO_EFFECT plugins',
    ]);
  });
});
