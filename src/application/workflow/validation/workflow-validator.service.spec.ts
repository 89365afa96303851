import { parse } from 'yaml';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { AgentProvider } from '../../../domain/ports/agent-provider.port';
import type { PluginCatalog } from '../../../domain/ports/plugin-catalog.port';
import type { AgentCatalog } from '../../../domain/workflow/ports/agent-catalog.port';
import { parseWorkflow } from '../../../domain/workflow/workflow.parser';
import { WorkflowValidator } from './workflow-validator.service';

function agents(...list: Array<[string, boolean]>): AgentCatalog {
  const providers = list.map(
    ([name, canInterceptBuiltins]) => ({ name, canInterceptBuiltins, run: jest.fn() }) as AgentProvider,
  );
  return { get: (n) => providers.find((p) => p.name === n), names: () => providers.map((p) => p.name) };
}

const plugins: PluginCatalog = {
  list: async () => [
    {
      name: 'kubernetes',
      version: '1',
      description: '',
      enabled: true,
      status: 'enabled',
      operations: [
        { name: 'get', description: '' },
        { name: 'apply', description: '' },
      ],
    },
    {
      name: 'docker',
      version: '1',
      description: '',
      enabled: true,
      status: 'enabled',
      operations: [{ name: 'run', description: '' }],
    },
    {
      name: 'a_b',
      version: '1',
      description: '',
      enabled: true,
      status: 'enabled',
      operations: [{ name: 'c', description: '' }],
    },
    {
      name: 'a',
      version: '1',
      description: '',
      enabled: true,
      status: 'enabled',
      operations: [{ name: 'b_c', description: '' }],
    },
    { name: 'weather', version: '1', description: '', enabled: false, status: 'disabled', operations: [] },
    {
      name: 'jira',
      version: '1',
      description: '',
      enabled: true,
      status: 'broken',
      operations: [],
      problem:
        "plugin jira exited with code 1 before its handshake: Error: Cannot find module 'x'\nits last stderr lines:",
    },
  ],
};

function agentWorkflow(provider: string, proxy: string) {
  const doc = parse(
    `name: w\nstates:\n  initial: start\n  start:\n    type: agent\n    provider: ${provider}\n    prompt: p\n    mcp_proxy: ${proxy}\n    on_success: done\n  done: {type: terminal}\n`,
  );
  const { workflow, issues } = parseWorkflow(doc, 'w');
  return { file: 'w.yaml', workflow, issues };
}

const codes = (issues: { code: string; path: string; severity: string }[]) =>
  issues.map((i) => `${i.severity} ${i.code} ${i.path}`);

describe('WorkflowValidator: ADR 017 cross-checks', () => {
  const validator = new WorkflowValidator(agents(['script', true], ['claude', true], ['codex', false]), plugins);

  it('accepts known plugins and operations', async () => {
    expect(
      await validator.validate(
        agentWorkflow('claude', '{enable: true, plugin_tools: [{plugin: kubernetes, expose: [get, apply]}]}'),
      ),
    ).toEqual([]);
  });

  it('reports UNKNOWN_PLUGIN with its path, and no operation checks for that entry', async () => {
    expect(
      codes(
        await validator.validate(
          agentWorkflow('claude', '{enable: true, plugin_tools: [{plugin: nonexistent_plugin, expose: [x]}]}'),
        ),
      ),
    ).toEqual(['error USER.MCP_PROXY.UNKNOWN_PLUGIN states.start.mcp_proxy.plugin_tools[0].plugin']);
  });

  it('names a disabled plugin as disabled, with the command that enables it, and a broken one with its reason', async () => {
    const issues = await validator.validate(
      agentWorkflow(
        'claude',
        '{enable: true, plugin_tools: [{plugin: weather, expose: [now]}, {plugin: jira, expose: [get]}]}',
      ),
    );
    expect(issues.map((i) => [i.code, i.path, i.message])).toEqual([
      [
        'USER.MCP_PROXY.UNKNOWN_PLUGIN',
        'states.start.mcp_proxy.plugin_tools[0].plugin',
        'plugin "weather" is disabled; enable it with `awf plugin enable weather`',
      ],
      [
        'USER.MCP_PROXY.UNKNOWN_PLUGIN',
        'states.start.mcp_proxy.plugin_tools[1].plugin',
        'plugin "jira" cannot start: plugin jira exited with code 1 before its handshake: Error: Cannot find module \'x\'',
      ],
    ]);
  });

  it('with skipPlugins, asks no plugin and checks neither plugin_tools nor plugin operations', async () => {
    const asked = { list: jest.fn(plugins.list) };
    const skipping = new WorkflowValidator(agents(['claude', true]), asked);
    const proxied = agentWorkflow(
      'claude',
      '{enable: true, plugin_tools: [{plugin: nonexistent_plugin, expose: [x]}]}',
    );
    const operation = parseWorkflow(
      parse(
        'name: w\nstates:\n  initial: s\n  s: {type: operation, operation: weather.now, on_success: done}\n  done: {type: terminal}\n',
      ),
      'w',
    );
    expect(await skipping.validate(proxied, { skipPlugins: true })).toEqual([]);
    expect(await skipping.validate({ file: 'w.yaml', ...operation }, { skipPlugins: true })).toEqual([]);
    expect(asked.list).not.toHaveBeenCalled();
    expect(codes(await skipping.validate(proxied))).toEqual([
      'error USER.MCP_PROXY.UNKNOWN_PLUGIN states.start.mcp_proxy.plugin_tools[0].plugin',
    ]);
  });

  it('starts the plugins once for all its checks, within --validator-timeout when one is given', async () => {
    const asked = { list: jest.fn(plugins.list) };
    const checking = new WorkflowValidator(agents(['claude', true]), asked);
    const both = parseWorkflow(
      parse(
        'name: w\nstates:\n  initial: s\n  s: {type: operation, operation: kubernetes.get, on_success: a}\n' +
          '  a:\n    type: agent\n    provider: claude\n    prompt: hi\n' +
          '    mcp_proxy: {enable: true, plugin_tools: [{plugin: docker, expose: [run]}]}\n' +
          '    on_success: done\n  done: {type: terminal}\n',
      ),
      'w',
    );
    expect(await checking.validate({ file: 'w.yaml', ...both }, { pluginStartMs: 1500 })).toEqual([]);
    expect(asked.list.mock.calls).toEqual([[{ startTimeoutMs: 1500 }]]);
  });

  it('says so when an operation step names an operation of a disabled plugin', async () => {
    const doc = parse(
      'name: w\nstates:\n  initial: s\n  s:\n    type: operation\n    operation: weather.now\n    on_success: done\n  done: {type: terminal}\n',
    );
    const { workflow, issues } = parseWorkflow(doc, 'w');
    const found = await validator.validate({ file: 'w.yaml', workflow, issues });
    expect(found.map((i) => [i.code, i.path, i.message])).toEqual([
      [
        'WORKFLOW.VALIDATION.UNKNOWN_OPERATION',
        'states.s.operation',
        'plugin "weather" is disabled; enable it with `awf plugin enable weather`',
      ],
    ]);
  });

  it('reports each unknown operation, including one that belongs to another plugin', async () => {
    expect(
      codes(
        await validator.validate(
          agentWorkflow(
            'claude',
            '{enable: true, plugin_tools: [{plugin: kubernetes, expose: [nonexistent_operation, run]}]}',
          ),
        ),
      ),
    ).toEqual([
      'error USER.MCP_PROXY.UNKNOWN_OPERATION states.start.mcp_proxy.plugin_tools[0].expose[0]',
      'error USER.MCP_PROXY.UNKNOWN_OPERATION states.start.mcp_proxy.plugin_tools[0].expose[1]',
    ]);
  });

  it('reports two exposed tools that resolve to one name', async () => {
    const issues = await validator.validate(
      agentWorkflow('claude', '{enable: true, plugin_tools: [{plugin: a_b, expose: [c]}, {plugin: a, expose: [b_c]}]}'),
    );
    expect(issues.map((i) => [i.code, i.message])).toEqual([
      ['USER.MCP_PROXY.NAME_COLLISION', 'tool "a_b_c" is exposed by both plugin "a_b" and plugin "a"'],
    ]);
  });

  it('warns (never fails) for a provider that cannot switch its own tools off', async () => {
    const issues = await validator.validate(agentWorkflow('codex', '{enable: true}'));
    expect(issues).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'USER.MCP_PROXY.UNSUPPORTED_PROVIDER',
        path: 'states.start.mcp_proxy',
        message: expect.stringContaining('coexistence mode'),
      }),
    ]);
    expect(await validator.validate(agentWorkflow('claude', '{enable: true}'))).toEqual([]);
    expect(await validator.validate(agentWorkflow('codex', '{enable: false}'))).toEqual([]);
  });

  it('treats every plugin as unknown when no plugin catalog is installed', async () => {
    const bare = new WorkflowValidator(agents(['claude', true]));
    expect(
      codes(
        await bare.validate(
          agentWorkflow('claude', '{enable: true, plugin_tools: [{plugin: kubernetes, expose: [get]}]}'),
        ),
      ),
    ).toEqual(['error USER.MCP_PROXY.UNKNOWN_PLUGIN states.start.mcp_proxy.plugin_tools[0].plugin']);
  });

  it('names an unknown provider, but not a templated one', async () => {
    expect(codes(await validator.validate(agentWorkflow('gpt-9', '{enable: false}')))).toEqual([
      'warning USER.AGENT.UNKNOWN_PROVIDER states.start.provider',
    ]);
    expect(await validator.validate(agentWorkflow('"{{.env.AGENT}}"', '{enable: false}'))).toEqual([]);
  });
});

describe('WorkflowValidator: conversations', () => {
  const catalog: AgentCatalog = (() => {
    const list = [
      { name: 'claude', canInterceptBuiltins: true, resumes: 'session', run: jest.fn() },
      { name: 'script', canInterceptBuiltins: true, run: jest.fn() },
    ] as AgentProvider[];
    return { get: (n) => list.find((p) => p.name === n), names: () => list.map((p) => p.name) };
  })();
  const validator = new WorkflowValidator(catalog);
  const load = (second: string) => {
    const { workflow, issues } = parseWorkflow(
      parse(`name: w
states:
  initial: first
  first: {type: agent, provider: claude, prompt: p, on_success: second}
  second: {type: agent, prompt: q, on_success: done, ${second}}
  build: {type: step, command: ls, on_success: done}
  done: {type: terminal}
`),
      'w',
    );
    return { file: 'w.yaml', workflow, issues };
  };

  it('accepts continue_from naming an earlier agent step of a provider that resumes', async () => {
    expect(codes(await validator.validate(load('provider: claude, conversation: {continue_from: first}')))).toEqual([]);
  });

  it('refuses continue_from naming a missing step or a command step', async () => {
    expect(codes(await validator.validate(load('provider: claude, conversation: {continue_from: frist}')))).toEqual([
      'error WORKFLOW.VALIDATION.MISSING_STATE states.second.conversation.continue_from',
    ]);
    expect(codes(await validator.validate(load('provider: claude, conversation: {continue_from: build}')))).toEqual([
      'error WORKFLOW.PARSE.INVALID_FIELD states.second.conversation.continue_from',
    ]);
  });

  it('warns when the provider cannot resume', async () => {
    expect(codes(await validator.validate(load('provider: script, conversation: {continue_from: first}')))).toEqual([
      'warning USER.AGENT.CANNOT_RESUME states.second.conversation.continue_from',
    ]);
    expect(codes(await validator.validate(load('provider: script, mode: conversation')))).toEqual([
      'warning USER.AGENT.CANNOT_RESUME states.second.mode',
    ]);
  });
});

describe('WorkflowValidator: provider options', () => {
  const seen: Array<Record<string, unknown>> = [];
  const strict = {
    name: 'strict',
    canInterceptBuiltins: true,
    run: jest.fn(),
    validateOptions(options: Readonly<Record<string, unknown>>) {
      seen.push({ ...options });
      if (options.mode !== undefined && options.mode !== 'plan')
        throw new AwfError(ErrorCodes.AGENT_INVALID_OPTIONS, 'strict: options.mode must be one of plan');
    },
  } as AgentProvider;
  const validator = new WorkflowValidator({
    get: (n) => (n === 'strict' ? strict : undefined),
    names: () => ['strict'],
  });
  const load = (options: string) => {
    const { workflow, issues } = parseWorkflow(
      parse(`name: w
states:
  initial: a
  a: {type: agent, provider: strict, prompt: p, on_success: done, options: ${options}}
  done: {type: terminal}
`),
      'w',
    );
    return { file: 'w.yaml', workflow, issues };
  };

  it("refuses options the provider would refuse at run time, at the step's options", async () => {
    expect(await validator.validate(load('{mode: yolo}'))).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'USER.AGENT.INVALID_OPTIONS',
        path: 'states.a.options',
        message: 'strict: options.mode must be one of plan',
      }),
    ]);
    expect(await validator.validate(load('{mode: plan}'))).toEqual([]);
  });

  it('leaves templated values to run time', async () => {
    seen.length = 0;
    expect(await validator.validate(load('{mode: "{{.env.MODE}}", model: m}'))).toEqual([]);
    expect(seen).toEqual([{ model: 'm' }]);
  });
});
