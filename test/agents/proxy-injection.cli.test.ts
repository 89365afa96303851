/**
 * Each real agent CLI, started by its provider with the proxy injected, spawns the built
 * `awf mcp-serve`, offers its tools to the (scripted) model and calls one: the tool's answer
 * must come back to the model and into the step's output, and nothing may be left behind.
 */
import { ClaudeAgentProvider } from '../../src/infrastructure/agents/claude.provider';
import { CodexAgentProvider } from '../../src/infrastructure/agents/codex.provider';
import { CopilotAgentProvider } from '../../src/infrastructure/agents/copilot.provider';
import { GeminiAgentProvider } from '../../src/infrastructure/agents/gemini.provider';
import { OpencodeAgentProvider } from '../../src/infrastructure/agents/opencode.provider';
import type { CliAgentProvider } from '../../src/infrastructure/agents/cli-agent.provider';
import { ECHO_EXTENSION } from '../support/cli';
import {
  agentWorld,
  type CliName,
  PROVIDER_OF,
  processesMentioning,
  providerTempDirs,
  recordingLogger,
} from './agent-cli.harness';
import { startScriptedModel, type ScriptedModel } from './scripted-model.server';

const PROVIDERS: Record<CliName, new (logger: ReturnType<typeof recordingLogger>) => CliAgentProvider> = {
  claude: ClaudeAgentProvider,
  codex: CodexAgentProvider,
  copilot: CopilotAgentProvider,
  gemini: GeminiAgentProvider,
  opencode: OpencodeAgentProvider,
};

/** What each CLI calls the proxy's `echo` tool when it offers it to the model. */
const OFFERED_AS: Record<CliName, string> = {
  claude: 'mcp__awf-proxy__echo',
  codex: 'mcp__awf_proxy.echo',
  copilot: 'awf-proxy-echo',
  gemini: 'mcp_awf-proxy_echo',
  opencode: 'awf-proxy_echo',
};

describe.each(Object.keys(PROVIDERS) as CliName[])('%s with the proxy injected (real CLI, scripted model)', (cli) => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(() => model.close());

  it('offers the proxy tools, calls one through awf mcp-serve, and leaves nothing behind', async () => {
    model.reset([{ tool: 'echo', args: { text: `hello from ${cli}` } }], 'FINAL');
    const world = agentWorld(cli, model.url, { extensions: [ECHO_EXTENSION] });
    const tempBefore = providerTempDirs(PROVIDER_OF[cli]);
    try {
      const provider = new PROVIDERS[cli](recordingLogger());
      const result = await provider.run({
        workflow: 'wf',
        step: 'agent',
        runId: 'run-1',
        prompt: 'Echo a greeting.',
        options: world.options,
        cwd: world.project,
        timeoutMs: 180_000,
        signal: new AbortController().signal,
        env: world.env,
        proxy: world.injection(false),
      });

      const scripted = model.requests.filter((r) => r.tools.includes(OFFERED_AS[cli]));
      expect(scripted.length).toBeGreaterThanOrEqual(2);
      expect(scripted.at(-1)?.toolResults.join('\n')).toContain(`hello from ${cli}`);
      expect(result.output).toContain('FINAL');
      expect(result.output).toContain(`hello from ${cli}`);
      // Copilot 1.0.102 prints no token counts against a custom model provider (BYOK): none to read.
      if (cli === 'copilot') expect(result.tokens).toBeUndefined();
      else expect(result.tokens?.output).toBeGreaterThan(0);
      expect(processesMentioning(world.proxyConfigPath)).toEqual([]);
      expect(providerTempDirs(PROVIDER_OF[cli])).toEqual(tempBefore);
    } finally {
      world.cleanup();
    }
  });
});
