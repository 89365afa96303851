/**
 * Issue 17's proof with the real agent CLIs (docs/policy.md):
 * - Claude Code is never offered a tool the step's policy denies, and still gets the others;
 * - Codex, Copilot and OpenCode, whose own tools run beside the proxy (coexistence), are watched: when the
 *   (scripted) model asks for a native tool, `awf run` records the use as `bypassed` in the audit
 *   trail, the log, a span, `awf runs show` and the step summary; with `enforce: strict` the
 *   agent is stopped and the step fails with EXECUTION.POLICY.BYPASSED.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentWorld, awfRun, type CliName, PROVIDER_OF, processesMentioning } from './agent-cli.harness';
import { startScriptedModel, type ScriptedModel } from './scripted-model.server';
import type { ScriptedCall } from './scripted-model.server';
import { SERVER_EVERYTHING } from '../support/upstream-servers';

function workflow(provider: string, options: Record<string, unknown>, mcpProxy: string): string {
  const opts = Object.entries(options)
    .map(([k, v]) => `      ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `name: policy-proof
states:
  initial: agent
  agent:
    type: agent
    provider: ${provider}
    prompt: "Do the task."
    timeout: 4m
    options:
${opts}
    mcp_proxy:
${mcpProxy}
    on_success: done
  done: {type: terminal, status: success, message: "{{.states.agent.Output}}"}
`;
}

interface World {
  root: string;
  project: string;
  storage: string;
  run(extra?: string[]): ReturnType<typeof awfRun>;
  events(): Array<Record<string, any>>;
  cleanup(): void;
}

function policyWorld(cli: CliName, model: ScriptedModel, mcpProxy: string): World {
  const world = agentWorld(cli, model.url, { files: { 'notes.txt': 'notes\n' } });
  const root = join(world.project, '..');
  const tmp = join(root, 'tmp');
  const storage = join(root, 'storage');
  mkdirSync(tmp);
  // Copilot asks before running its own shell; -p mode cannot ask (refused: status error), so the step allows it.
  const options = cli === 'copilot' ? { ...world.options, allow_all: true } : world.options;
  writeFileSync(join(root, 'wf.yaml'), workflow(PROVIDER_OF[cli], options, mcpProxy));
  // Without intercept_builtins the proxy serves only what a step names: here a third-party server.
  writeFileSync(
    join(world.project, '.awf', 'config.yaml'),
    `mcp_servers:\n  everything:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(SERVER_EVERYTHING)}, stdio, ${JSON.stringify(root)}]\n`,
  );
  const env = { ...world.env, TMPDIR: tmp, AWF_STORAGE: storage };
  return {
    root,
    project: world.project,
    storage,
    run: (extra = []) => awfRun(['run', join(root, 'wf.yaml'), '-f', 'json', ...extra], world.project, env),
    events: () => {
      const [run] = readdirSync(join(storage, 'runs'));
      return readFileSync(join(storage, 'runs', run, 'agent.events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    },
    cleanup: () => {
      expect(readdirSync(tmp).filter((e) => e.startsWith('awf-'))).toEqual([]);
      expect(processesMentioning(root)).toEqual([]);
      world.cleanup();
    },
  };
}

describe('claude behind a policy that denies a tool', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(() => model.close());

  it('is never offered the denied tool, and uses the others', async () => {
    model.reset([{ tool: 'Read', args: { file_path: 'notes.txt' } }], 'DONE');
    const world = policyWorld(
      'claude',
      model,
      '      enable: true\n      intercept_builtins: true\n      policy: {tools: {deny: [Bash, Write]}}',
    );
    try {
      const run = await world.run();
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr + run.stdout }).toEqual({
        code: 0,
        stderr: '',
      });
      const offered = model.requests.filter((r) => r.tools.length > 0);
      expect(offered.length).toBeGreaterThanOrEqual(2);
      for (const request of offered) {
        expect(request.tools).toEqual(
          expect.arrayContaining(['Read', 'Edit', 'Glob', 'Grep'].map((t) => `mcp__awf-proxy__${t}`)),
        );
        expect(request.tools.filter((t) => /Bash|Write/.test(t))).toEqual([]);
      }
      expect(offered.at(-1)!.toolResults.join('\n')).toContain('notes');
      expect(world.events().map((e) => [e.tool, e.status, e.policy?.decision])).toEqual([['Read', 'ok', 'allowed']]);
    } finally {
      world.cleanup();
    }
  });
});

/**
 * What the scripted model asks each CLI for: its own shell tool, by the name that CLI offers it.
 * Codex's read-only sandbox refuses this command at once, and Codex 0.171 then prints no
 * command_execution item for it: awf reads it from Codex's session record (ADR 172).
 */
const NATIVE: Record<
  'codex' | 'copilot' | 'opencode',
  { call: ScriptedCall; tool: string; source: string; arg: string; status: string }
> = {
  codex: {
    call: { tool: 'exec_command', args: { cmd: 'echo native > native.txt' } },
    tool: 'exec_command',
    source: 'native:codex',
    arg: 'cmd',
    status: 'error', // refused by Codex's sandbox: it ran, and failed
  },
  copilot: {
    call: { tool: 'bash', args: { command: 'echo native > native.txt', description: 'write a file' }, exact: true },
    tool: 'bash',
    source: 'native:github_copilot',
    arg: 'command',
    status: 'ok',
  },
  opencode: {
    call: { tool: 'bash', args: { command: 'echo native > native.txt', description: 'write a file' } },
    tool: 'bash',
    source: 'native:opencode',
    arg: 'command',
    status: 'ok',
  },
};

describe.each(['codex', 'copilot', 'opencode'] as const)('a %s step whose agent uses its own shell', (cli) => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(() => model.close());
  const coexisting = (policy: string) =>
    `      enable: true\n      intercept_builtins: false\n      servers: [everything]\n      policy: ${policy}`;

  it('is recorded as bypassed: audit trail, log, span, runs show and the step summary', async () => {
    model.reset([NATIVE[cli].call], 'DONE');
    const world = policyWorld(cli, model, coexisting('{tools: {deny: [everything_get-sum]}}'));
    try {
      const run = await world.run(['--otel-exporter', 'file']);
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr + run.stdout }).toEqual({
        code: 0,
        stderr: '',
      });
      const bypassed = world.events().filter((e) => e.policy?.decision === 'bypassed');
      expect(bypassed).toEqual([
        expect.objectContaining({
          tool: NATIVE[cli].tool,
          source: NATIVE[cli].source,
          step: 'agent',
          status: NATIVE[cli].status,
        }),
      ]);
      expect(Object.keys(bypassed[0].args_shape)).toContain(NATIVE[cli].arg);
      expect(run.stderr).toMatch(new RegExp(`${cli} used its own tool ${NATIVE[cli].tool}.*bypassed`));

      const report = JSON.parse(run.stdout);
      expect(report.steps[0].tool_summary.policy).toEqual({ bypassed: 1 });

      const spans = readFileSync(join(world.project, '.awf', 'traces.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const span = spans.find((s) => s.name === `tool.call ${NATIVE[cli].tool}`);
      expect(span?.attributes).toMatchObject({ 'policy.decision': 'bypassed', 'tool.source': NATIVE[cli].source });
      const step = spans.find((s) => s.name === 'step agent');
      expect(span.parent_span_id).toBe(step.span_id);

      const shown = await awfRun(['runs', 'show', report.run_id], world.project, { AWF_STORAGE: world.storage });
      expect(shown.stdout).toMatch(/policy 1 bypassed/);
      expect(shown.stdout).toMatch(new RegExp(`${NATIVE[cli].tool}\\s+${NATIVE[cli].source}.*\\[policy bypassed\\]`));
    } finally {
      world.cleanup();
    }
  });

  it('with enforce: strict, stops the agent and fails the step with a code', async () => {
    model.reset([NATIVE[cli].call, NATIVE[cli].call], 'DONE');
    const world = policyWorld(cli, model, coexisting('{enforce: strict}'));
    try {
      const run = await world.run();
      expect(run.code).toBe(3);
      const report = JSON.parse(run.stdout);
      expect(report.steps[0]).toMatchObject({ name: 'agent', status: 'failure' });
      expect(report.error).toMatchObject({ code: 'EXECUTION.POLICY.BYPASSED' });
      expect(report.error.message).toMatch(new RegExp(`${cli} used its own tool ${NATIVE[cli].tool}.*strict`));
      expect(report.error.message).toContain('step agent: enforce "strict"');
      const bypassed = world.events().filter((e) => e.policy?.decision === 'bypassed');
      expect(bypassed[0]).toMatchObject({
        tool: NATIVE[cli].tool,
        policy: { decision: 'bypassed', rule: 'step agent: enforce "strict"' },
      });
      // Stopped at the first use: the model never heard back about a second one.
      expect(model.requests.every((r) => r.toolResults.length < 2)).toBe(true);
      expect(existsSync(join(world.project, 'opencode.json'))).toBe(false);
    } finally {
      world.cleanup();
    }
  });
});
