/**
 * The proof: `awf run` on a workflow whose agent step uses the proxy, for each real
 * agent CLI and for openai_compatible. The (scripted) model asks for Read, then Edit, by the
 * names the agent gave the proxy's tools (Copilot keeps its own tools next to them). The file
 * must change, the model must have been offered our tools (and, where awf switches them off,
 * none of the agent's own), the step's audit trail must record both calls, and nothing may be
 * left behind.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWF_MAIN } from '../support/cli';
import { agentWorld, type CliName, PROVIDER_OF, runWorkflowIn, stepEvents, worldLeftovers } from './agent-cli.harness';
import { startScriptedModel, type ScriptedModel } from './scripted-model.server';

type Provider = Exclude<CliName, 'copilot'> | 'github_copilot' | 'openai_compatible';

interface Expectation {
  /** The proxy's tools as the agent names them to the model. */
  offered: (tool: string) => string;
  /** Whether awf switches the agent's own tools off, leaves a few harmless ones, or keeps them all (coexistence). */
  native: 'off' | 'harmless' | 'kept';
}

const EXPECT: Record<Provider, Expectation> = {
  claude: { offered: (t) => `mcp__awf-proxy__${t}`, native: 'off' },
  codex: { offered: (t) => `mcp__awf_proxy.${t}`, native: 'harmless' },
  github_copilot: { offered: (t) => `awf-proxy-${t}`, native: 'kept' },
  gemini: { offered: (t) => `mcp_awf-proxy_${t}`, native: 'off' },
  opencode: { offered: (t) => `awf-proxy_${t}`, native: 'off' },
  openai_compatible: { offered: (t) => t, native: 'off' },
};

const NOTES = 'title: release notes\nstatus: draft\n';

/**
 * The audit trail is written by the telemetry module; until it is part of the build, the
 * events cannot be asserted (the file-changed and tool-list checks still prove both calls).
 */
const AUDIT_BUILT = existsSync(join(AWF_MAIN, '..', 'infrastructure', 'telemetry', 'audit-trail.interceptor.js'));

function workflow(provider: Provider, options: Record<string, unknown>): string {
  const opts = Object.entries(options)
    .map(([k, v]) => `      ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `name: agents-proof
version: "1.0"
states:
  initial: agent
  agent:
    type: agent
    provider: ${provider}
    prompt: "Read notes.txt, then mark it reviewed."
    timeout: 4m
    options:
${opts}
    mcp_proxy:
      enable: true
      intercept_builtins: true
    on_success: done
    on_failure: failed
  done:
    type: terminal
    status: success
    message: "{{.states.agent.Output}}"
  failed:
    type: terminal
    status: failure
    message: "agent failed"
`;
}

describe.each(Object.keys(EXPECT) as Provider[])('awf run with a %s agent step behind the proxy', (provider) => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(() => model.close());

  it('reads then edits a file through the proxy, offered only our tools, audited, leaving nothing behind', async () => {
    model.reset(
      [
        { tool: 'Read', args: { file_path: 'notes.txt' } },
        { tool: 'Edit', args: { file_path: 'notes.txt', old_string: 'status: draft', new_string: 'status: reviewed' } },
      ],
      'DONE',
    );
    const cli = (Object.keys(PROVIDER_OF) as CliName[]).find((c) => PROVIDER_OF[c] === provider) ?? 'claude';
    const world = agentWorld(cli, model.url, { files: { 'notes.txt': NOTES } });
    const options =
      provider === 'openai_compatible'
        ? { base_url: `${model.url}/v1`, model: 'scripted', api_key: 'scripted' }
        : world.options;
    try {
      const run = await runWorkflowIn(world, workflow(provider, options));
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });

      expect(readFileSync(join(world.project, 'notes.txt'), 'utf8')).toBe('title: release notes\nstatus: reviewed\n');
      const report = JSON.parse(run.stdout);
      expect(report.steps[0]).toMatchObject({ name: 'agent', status: 'success' });
      expect(report.steps[0].output).toContain('DONE');

      const e = EXPECT[provider];
      const withTools = model.requests.filter((r) => r.tools.length > 0);
      expect(withTools.length).toBeGreaterThanOrEqual(3);
      for (const request of withTools) {
        expect(request.tools).toEqual(
          expect.arrayContaining(['Read', 'Edit', 'Write', 'Bash', 'Glob', 'Grep'].map(e.offered)),
        );
        const ours = new Set(['Read', 'Edit', 'Write', 'Bash', 'Glob', 'Grep'].map(e.offered));
        const native = request.tools.filter((t) => !ours.has(t));
        if (e.native === 'off') expect(native).toEqual([]);
        // Codex keeps a few tools it cannot drop, but none that runs commands or writes files.
        if (e.native === 'harmless') expect(native.filter((t) => /exec|shell|patch|write|web/.test(t))).toEqual([]);
      }
      expect(withTools.at(-1)?.toolResults.join('\n')).toMatch(/notes\.txt/);

      if (AUDIT_BUILT) {
        expect(report.steps[0].tool_calls).toBe(2);
        const events = stepEvents(run, 'agent');
        expect(events.map((ev) => [ev.tool, ev.status, ev.step])).toEqual([
          ['Read', 'ok', 'agent'],
          ['Edit', 'ok', 'agent'],
        ]);
      }

      expect(worldLeftovers(run)).toEqual({ tempFiles: [], processes: [] });
      expect(existsSync(join(world.project, 'opencode.json'))).toBe(false);
    } finally {
      world.cleanup();
    }
  });
});
