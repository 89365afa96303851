import { existsSync } from 'node:fs';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { proxyInjection, runFake } from '../../../test/agents/fake-agent';
import { recordingLogger } from '../../../test/agents/agent-cli.harness';
import { COEXISTENCE_INSTRUCTION } from './cli-agent.provider';
import { CopilotAgentProvider } from './copilot.provider';

/** Copilot CLI 1.0's `--output-format=json` lines, as the real CLI printed them (trimmed). */
const OUTPUT = [
  '{"type":"session.mcp_servers_loaded","ephemeral":true,"data":{"servers":[{"name":"awf-proxy","status":"connected"}]}}',
  '{"type":"user.message","data":{"content":"Fix the bug."}}',
  '{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"c1","name":"awf-proxy-Read"}],"outputTokens":7}}',
  '{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"awf-proxy-Read","mcpServerName":"awf-proxy"}}',
  '{"type":"assistant.message","data":{"content":"Fixed it.","toolRequests":[],"outputTokens":5}}',
  '{"type":"result","sessionId":"a17bbe2f","exitCode":0,"usage":{"premiumRequests":0}}',
].join('\n');

describe('CopilotAgentProvider', () => {
  const provider = new CopilotAgentProvider(recordingLogger());

  it('runs copilot -p with JSON output and reads the last message, the session and the output tokens', async () => {
    const { result, probe } = await runFake(provider, OUTPUT);
    expect(probe.argv).toEqual(['-p', 'Fix the bug.', '--output-format=json', '--silent']);
    expect(result).toMatchObject({ output: 'Fixed it.', sessionId: 'a17bbe2f', tokens: { output: 12 } });
  });

  it("maps AWF's options to Copilot's flags", async () => {
    const options = {
      model: 'gpt-5',
      mode: 'autopilot',
      effort: 'high',
      allowed_tools: ['shell(git:*)', 'write'],
      denied_tools: 'shell(rm)',
      dangerously_skip_permissions: true,
    };
    const { probe } = await runFake(provider, OUTPUT, { options });
    expect(probe.argv.slice(4)).toEqual([
      '--model=gpt-5',
      '--mode=autopilot',
      '--effort=high',
      '--allow-tool=shell(git:*)',
      '--allow-tool=write',
      '--deny-tool=shell(rm)',
      '--allow-all',
    ]);
  });

  it('resumes the session on a later turn; a first turn carries the system prompt in front of the prompt', async () => {
    const later = await runFake(provider, OUTPUT, { conversation: { sessionId: 's-1', turns: [] } });
    expect(later.probe.argv.slice(0, 3)).toEqual(['--resume=s-1', '-p', 'Fix the bug.']);
    const first = await runFake(provider, OUTPUT, { conversation: { turns: [], systemPrompt: 'Be terse.' } });
    expect(first.probe.argv.slice(0, 2)).toEqual(['-p', 'Be terse.\n\nFix the bug.']);
  });

  it('hands the proxy over in a temp --additional-mcp-config file, allowed, and removes it afterwards', async () => {
    const { probe } = await runFake(provider, OUTPUT, { proxy: proxyInjection(false) });
    const at = probe.argv.indexOf('--additional-mcp-config');
    expect(probe.argv[at + 1]).toMatch(/^@.*awf-github_copilot-.*mcp-config\.json$/);
    expect(JSON.parse(probe.files.copilotMcp ?? '')).toEqual({
      mcpServers: {
        'awf-proxy': {
          type: 'local',
          command: '/usr/bin/node',
          args: ['/opt/awf/dist/main.js', 'mcp-serve', '--config=/tmp/step "1".json'],
          env: { AWF_LOG_LEVEL: 'warn', TRACEPARENT: '00-abc-def-01' },
          tools: ['*'],
        },
      },
    });
    expect(probe.argv).toContain('--allow-tool=awf-proxy');
    expect(probe.argv).not.toContain('--disable-builtin-mcps');
    expect(existsSync(probe.argv[at + 1].slice(1))).toBe(false);
  });

  it('with intercept_builtins switches its bundled MCP servers off and asks for the proxy tools in the prompt', async () => {
    const { probe } = await runFake(provider, OUTPUT, { proxy: proxyInjection(true) });
    expect(probe.argv).toContain('--disable-builtin-mcps');
    expect(probe.argv[1]).toBe(`${COEXISTENCE_INSTRUCTION}\n\nFix the bug.`);
  });

  it("reports each tool Copilot runs itself (not the proxy's) as a native tool use, started then done", async () => {
    const uses: unknown[] = [];
    const stream = [
      '{"type":"tool.execution_start","data":{"toolCallId":"p1","toolName":"awf-proxy-Read","mcpServerName":"awf-proxy"}}',
      '{"type":"tool.execution_complete","data":{"toolCallId":"p1","success":true}}',
      '{"type":"tool.execution_start","data":{"toolCallId":"b1","toolName":"bash","arguments":{"command":"ls -la"}}}',
      '{"type":"tool.execution_complete","data":{"toolCallId":"b1","success":false}}',
      OUTPUT,
    ].join('\n');
    await runFake(provider, stream, { proxy: proxyInjection(true), onNativeToolUse: (u) => uses.push(u) });
    expect(uses).toEqual([
      { tool: 'bash', id: 'b1', argsShape: { command: 6 }, status: 'running' },
      { tool: 'bash', id: 'b1', argsShape: { command: 6 }, status: 'error' },
    ]);
  });

  it('falls back to the raw output when Copilot printed no assistant message, and fails on a non-zero exitCode', async () => {
    const plain = await runFake(provider, 'plain text answer\n');
    expect(plain.result.output).toBe('plain text answer');
    await expect(runFake(provider, '{"type":"result","sessionId":"s","exitCode":1}')).rejects.toMatchObject({
      code: ErrorCodes.AGENT_REPORTED_ERROR,
    });
  });

  it.each([
    [{ mode: 'yolo' }, /options\.mode must be one of interactive, plan, autopilot/],
    [{ effort: 'max' }, /options\.effort must be one of low, medium, high/],
    [{ allow_all: 'yes' }, /options\.allow_all must be true or false/],
  ])('refuses %p at validate time with USER.AGENT.INVALID_OPTIONS', (options, message) => {
    expect(() => provider.validateOptions(options)).toThrow(
      expect.objectContaining({ code: ErrorCodes.AGENT_INVALID_OPTIONS, message: expect.stringMatching(message) }),
    );
  });
});
