import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { proxyInjection, runFake } from '../../../test/agents/fake-agent';
import { recordingLogger } from '../../../test/agents/agent-cli.harness';
import { ClaudeAgentProvider } from './claude.provider';

const RESULT = [
  '{"type":"system","subtype":"init","tools":[]}',
  '{"type":"assistant","message":{"content":[{"type":"text","text":"working"}]}}',
  '{"type":"result","subtype":"success","is_error":false,"result":"All fixed.","total_cost_usd":0.0123,"usage":{"input_tokens":10,"cache_creation_input_tokens":5,"cache_read_input_tokens":2,"output_tokens":7}}',
].join('\n');

describe('ClaudeAgentProvider', () => {
  const provider = new ClaudeAgentProvider(recordingLogger());

  it('runs claude -p headless with stream-json and returns the result text, tokens and cost', async () => {
    const { result, probe } = await runFake(provider, RESULT, { options: { model: 'sonnet' } });
    expect(probe.argv).toEqual([
      '-p',
      'Fix the bug.',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'sonnet',
    ]);
    expect(result).toMatchObject({
      output: 'All fixed.',
      exitCode: 0,
      tokens: { input: 17, output: 7 },
      costUsd: 0.0123,
    });
  });

  it('injects the proxy through a private --mcp-config file, strict, allowed, with Claude tools removed when intercepting', async () => {
    const before = readdirSync(tmpdir()).filter((e) => e.startsWith('awf-claude-'));
    const { probe } = await runFake(provider, RESULT, {
      proxy: proxyInjection(true),
      options: { allowed_tools: 'Bash(git:*)' },
    });
    const file = probe.argv[probe.argv.indexOf('--mcp-config') + 1];
    expect(probe.argv.slice(probe.argv.indexOf('--mcp-config'))).toEqual([
      '--mcp-config',
      file,
      '--strict-mcp-config',
      '--tools',
      '',
      '--allowedTools',
      'Bash(git:*),mcp__awf-proxy',
    ]);
    expect(JSON.parse(probe.files.mcpConfig ?? '')).toEqual({
      mcpServers: {
        'awf-proxy': {
          type: 'stdio',
          command: '/usr/bin/node',
          args: ['/opt/awf/dist/main.js', 'mcp-serve', '--config=/tmp/step "1".json'],
          env: { AWF_LOG_LEVEL: 'warn', TRACEPARENT: '00-abc-def-01' },
        },
      },
    });
    expect(probe.env).toMatchObject({ ENABLE_TOOL_SEARCH: 'false', MCP_CONNECTION_NONBLOCKING: 'false' });
    expect(readdirSync(tmpdir()).filter((e) => e.startsWith('awf-claude-'))).toEqual(before);
  });

  it('keeps Claude tools when intercept_builtins is off', async () => {
    const { probe } = await runFake(provider, RESULT, { proxy: proxyInjection(false) });
    expect(probe.argv).not.toContain('--tools');
    expect(probe.argv).toContain('--strict-mcp-config');
  });

  it('fails with EXECUTION.AGENT.REPORTED_ERROR when the result event says is_error', async () => {
    const stdout = '{"type":"result","subtype":"error_max_turns","is_error":true,"result":"Reached max turns"}';
    await expect(runFake(provider, stdout)).rejects.toMatchObject({
      code: 'EXECUTION.AGENT.REPORTED_ERROR',
      message: expect.stringContaining('Reached max turns'),
    });
  });

  it('refuses an empty prompt and a mistyped option before starting anything', async () => {
    await expect(runFake(provider, RESULT, { prompt: '  ' })).rejects.toMatchObject({
      code: 'USER.AGENT.INVALID_OPTIONS',
    });
    await expect(runFake(provider, RESULT, { options: { model: 3 } })).rejects.toMatchObject({
      code: 'USER.AGENT.INVALID_OPTIONS',
      message: 'claude: options.model must be a string',
    });
  });
});
