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
    expect(build).toMatchObject({ type: 'step', command: 'make', dir: 'src', timeoutMs: 90_000, onFailure: '__inline_error_build' });
    expect(build.retry).toMatchObject({ maxAttempts: 3, initialDelayMs: 2000, backoff: 'exponential', multiplier: 2 });
    const review = workflow!.steps[1] as AgentStep;
    expect(review.mcpProxy).toEqual({ enable: true, interceptBuiltins: true, pluginTools: [] });
    expect(review.transitions).toEqual([{ when: 'states.build.ExitCode == 0', goto: 'done' }]);
    const inline = workflow!.steps.find((s) => s.name === '__inline_error_build') as TerminalStep;
    expect(inline).toMatchObject({ type: 'terminal', status: 'failure', message: 'build broke' });
    expect(checkWorkflow(workflow!)).toEqual([]);
  });

  it('ignores unknown keys everywhere except mcp_proxy, where each one is named', () => {
    const { issues } = load(`
name: x
author: me
states:
  initial: a
  a: {type: agent, provider: script, prompt: p, colour: red, mcp_proxy: {enable: true, sandbox: deny, extra: 1}, on_success: z}
  z: {type: terminal}
`);
    expect(issues).toEqual([{ code: 'USER.MCP_PROXY.UNKNOWN_KEY', path: 'states.a.mcp_proxy', severity: 'error',
      message: 'unknown field(s) in mcp_proxy: sandbox, extra (allowed: enable, intercept_builtins, plugin_tools, policy)' }]);
  });

  it('defaults intercept_builtins to enable, and an explicit value wins', () => {
    const proxy = (block: string) => (load(`name: x\nstates:\n  initial: a\n  a: {type: agent, provider: script, prompt: p, mcp_proxy: ${block}}\n`).workflow!.steps[0] as AgentStep).mcpProxy;
    expect(proxy('{enable: false}')).toMatchObject({ enable: false, interceptBuiltins: false });
    expect(proxy('{}')).toMatchObject({ enable: false, interceptBuiltins: false });
    expect(proxy('{enable: true, intercept_builtins: false, plugin_tools: [{plugin: k8s, expose: [get]}]}')).toEqual({
      enable: true, interceptBuiltins: false, pluginTools: [{ plugin: 'k8s', expose: ['get'] }],
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
    expect(all).toEqual(expect.arrayContaining([
      'WORKFLOW.VALIDATION.MISSING_FIELD name',
      'WORKFLOW.VALIDATION.MISSING_FIELD states.a.command',
      'WORKFLOW.PARSE.INVALID_FIELD states.b.type',
      'WORKFLOW.PARSE.INVALID_FIELD states.c.status',
      'WORKFLOW.VALIDATION.NO_ROUTE states.a',
    ]));
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
      ['USER.MCP_PROXY.EMPTY_PROXY', 'states.a.mcp_proxy', 'MCP proxy enabled with intercept_builtins=false but no plugin_tools specified'],
      ['USER.MCP_PROXY.NAME_COLLISION', 'states.b.mcp_proxy.plugin_tools[2].plugin', 'duplicate plugin entry: k8s'],
    ]);
  });
});

describe('parseDurationMs', () => {
  it.each([
    [30, 30_000], ['45', 45_000], ['90s', 90_000], ['1m30s', 90_000], ['1h', 3_600_000], ['500ms', 500], ['1.5s', 1500],
  ])('%j → %d ms', (input, ms) => expect(parseDurationMs(input)).toBe(ms));
  it.each(['soon', '', '5 minutes', -1, true])('rejects %j', (input) => expect(parseDurationMs(input)).toBeUndefined());
});

describe('secret inputs by name (AWF prefixes)', () => {
  it.each([
    ['SECRET_X', true], ['secret_x', true], ['API_KEY', true], ['api_key_prod', true], ['PASSWORD', true],
    ['password2', true], ['TOKEN', true], ['Token_gh', true], ['OPENAI_API_KEY', false], ['GITHUB_TOKEN', false],
    ['SECRETS', false], ['my_password', false],
  ])('%s → %s', (name, secret) => expect(isSecretInputName(name)).toBe(secret));

  it('marks such inputs secret, as if declared `secret: true`', () => {
    const { workflow } = load('name: s\ninputs:\n  - {name: TOKEN_X}\n  - {name: plain}\nstates: {initial: d, d: {type: terminal}}\n');
    expect(workflow?.inputs.map((i) => [i.name, i.secret])).toEqual([['TOKEN_X', true], ['plain', false]]);
  });
});
