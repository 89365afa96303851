/**
 * Issue 18's proof with a real agent CLI: claude, in an `awf run` step with
 * `servers: [everything]`, calls server-everything's echo and get-sum through awf mcp-serve,
 * offered them under the proxy's names; the step's audit trail records both with their source.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_EVERYTHING } from '../support/upstream-servers';
import { agentWorld, runWorkflowIn, stepEvents, worldLeftovers } from './agent-cli.harness';
import { startScriptedModel, type ScriptedModel } from './scripted-model.server';

const workflow = (options: Record<string, unknown>) => `name: upstream-proof
states:
  initial: agent
  agent:
    type: agent
    provider: claude
    prompt: "Echo a greeting, then add 19 and 23."
    timeout: 4m
    options:
${Object.entries(options)
  .map(([k, v]) => `      ${k}: ${JSON.stringify(v)}`)
  .join('\n')}
    mcp_proxy:
      enable: true
      servers: [everything]
    on_success: done
  done: {type: terminal, status: success, message: "{{.states.agent.Output}}"}
`;

describe('awf run with a claude step that names an upstream MCP server', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(() => model.close());

  it('lets claude call everything_echo and everything_get-sum through the proxy, audited with their source', async () => {
    model.reset(
      [
        { tool: 'everything_echo', args: { message: 'hello from claude' } },
        { tool: 'everything_get-sum', args: { a: 19, b: 23 } },
      ],
      'DONE',
    );
    const world = agentWorld('claude', model.url);
    const root = join(world.project, '..');
    writeFileSync(
      join(world.project, '.awf', 'config.yaml'),
      `mcp_servers:\n  everything:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(SERVER_EVERYTHING)}, stdio, ${JSON.stringify(root)}]\n`,
    );
    try {
      const run = await runWorkflowIn(world, workflow(world.options));
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
      const withTools = model.requests.filter((r) => r.tools.length > 0);
      expect(withTools[0].tools).toEqual(
        expect.arrayContaining(['mcp__awf-proxy__everything_echo', 'mcp__awf-proxy__everything_get-sum']),
      );
      const results = withTools.at(-1)!.toolResults.join('\n');
      expect(results).toContain('Echo: hello from claude');
      expect(results).toMatch(/42/);
      expect(stepEvents(run, 'agent').map((e) => [e.tool, e.source, e.status])).toEqual([
        ['everything_echo', 'mcp:everything', 'ok'],
        ['everything_get-sum', 'mcp:everything', 'ok'],
      ]);
      expect(worldLeftovers(run)).toEqual({ tempFiles: [], processes: [] });
    } finally {
      world.cleanup();
    }
  });
});
