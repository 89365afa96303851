import { proxyInjection, runFake } from '../../../test/agents/fake-agent';
import { recordingLogger } from '../../../test/agents/agent-cli.harness';
import { COEXISTENCE_INSTRUCTION } from './cli-agent.provider';
import { CODEX_NATIVE_FEATURES, CodexAgentProvider } from './codex.provider';

const OUTPUT = [
  '{"type":"thread.started","thread_id":"t1"}',
  '{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata not found"}}',
  '{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"awf-proxy","tool":"Read","status":"completed"}}',
  '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Done editing."}}',
  '{"type":"turn.completed","usage":{"input_tokens":22,"cached_input_tokens":0,"output_tokens":14}}',
].join('\n');

describe('CodexAgentProvider', () => {
  it('runs codex exec --json and returns the last agent message with usage', async () => {
    const { result, probe } = await runFake(new CodexAgentProvider(recordingLogger()), OUTPUT, {
      options: { model: 'gpt-5' },
    });
    expect(probe.argv).toEqual(['exec', '--json', '--skip-git-repo-check', '--model', 'gpt-5', '--', 'Fix the bug.']);
    expect(result).toMatchObject({ output: 'Done editing.', tokens: { input: 22, output: 14 } });
  });

  it('injects the proxy as -c overrides, passes its env by name only, and asks the model in the prompt when intercepting', async () => {
    const logger = recordingLogger();
    const { probe } = await runFake(new CodexAgentProvider(logger), OUTPUT, {
      proxy: proxyInjection(true),
      timeoutMs: 90_000,
    });
    const overrides = probe.argv.filter((_, i) => probe.argv[i - 1] === '-c');
    expect(overrides).toEqual([
      'mcp_servers.awf-proxy.command="/usr/bin/node"',
      'mcp_servers.awf-proxy.args=["/opt/awf/dist/main.js","mcp-serve","--config=/tmp/step \\"1\\".json"]',
      'mcp_servers.awf-proxy.env_vars=["AWF_LOG_LEVEL","TRACEPARENT"]',
      'mcp_servers.awf-proxy.required=true',
      'mcp_servers.awf-proxy.startup_timeout_sec=120',
      'mcp_servers.awf-proxy.tool_timeout_sec=90',
      'mcp_servers.awf-proxy.default_tools_approval_mode="approve"',
      'web_search="disabled"',
    ]);
    expect(probe.argv.join(' ')).not.toContain('00-abc-def-01');
    expect(probe.argv.filter((_, i) => probe.argv[i - 1] === '--disable')).toEqual(CODEX_NATIVE_FEATURES);
    expect(probe.env).toMatchObject({ TRACEPARENT: '00-abc-def-01', AWF_LOG_LEVEL: 'warn' });
    expect(probe.argv.at(-1)).toBe(`${COEXISTENCE_INSTRUCTION}\n\nFix the bug.`);
    expect(logger.lines.filter((l) => l.msg.includes('coexistence'))).toHaveLength(1);
  });

  it('leaves the prompt alone without intercept_builtins', async () => {
    const { probe } = await runFake(new CodexAgentProvider(recordingLogger()), OUTPUT, {
      proxy: proxyInjection(false),
    });
    expect(probe.argv.at(-1)).toBe('Fix the bug.');
    expect(probe.argv).not.toContain('--disable');
  });

  it('fails with EXECUTION.AGENT.REPORTED_ERROR on turn.failed', async () => {
    const stdout = '{"type":"turn.failed","error":{"message":"stream disconnected"}}';
    await expect(runFake(new CodexAgentProvider(recordingLogger()), stdout)).rejects.toMatchObject({
      code: 'EXECUTION.AGENT.REPORTED_ERROR',
      message: expect.stringContaining('stream disconnected'),
    });
  });
});

describe('CodexAgentProvider: its own tools, read from the event stream as they run', () => {
  const STREAM = [
    '{"type":"thread.started","thread_id":"t1"}',
    '{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata not found"}}',
    '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc \'rm -rf build\'","status":"in_progress"}}',
    '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc \'rm -rf build\'","exit_code":1,"status":"failed"}}',
    '{"type":"item.completed","item":{"id":"item_2","type":"mcp_tool_call","server":"awf-proxy","tool":"Read","status":"completed"}}',
    '{"type":"item.completed","item":{"id":"item_3","type":"mcp_tool_call","server":"github","tool":"create_issue","arguments":{"title":"x"},"status":"completed"}}',
    '{"type":"item.completed","item":{"id":"item_4","type":"file_change","changes":[{"path":"a.ts","kind":"update"}],"status":"completed"}}',
    '{"type":"item.completed","item":{"id":"item_5","type":"reasoning","text":"thinking"}}',
    '{"type":"item.completed","item":{"id":"item_6","type":"some_future_tool","status":"completed"}}',
    '{"type":"item.completed","item":{"id":"item_7","type":"agent_message","text":"Done."}}',
  ].join('\n');

  it('reports every tool that is not the proxy, never the values of its arguments', async () => {
    const uses: unknown[] = [];
    await runFake(new CodexAgentProvider(recordingLogger()), STREAM, {
      proxy: proxyInjection(false),
      onNativeToolUse: (use) => void uses.push(use),
    });
    expect(uses).toEqual([
      { tool: 'command_execution', id: 'item_1', argsShape: { command: 28 }, status: 'running' },
      { tool: 'command_execution', id: 'item_1', argsShape: { command: 28 }, status: 'error' },
      { tool: 'mcp:github/create_issue', id: 'item_3', argsShape: { title: 1 }, status: 'ok' },
      { tool: 'file_change', id: 'item_4', argsShape: { changes: 1 }, status: 'ok' },
      // An item kind this version does not know is a tool until shown otherwise.
      { tool: 'some_future_tool', id: 'item_6', argsShape: {}, status: 'ok' },
    ]);
  });

  it('watches nothing when the step has no proxy', async () => {
    const uses: unknown[] = [];
    await runFake(new CodexAgentProvider(recordingLogger()), STREAM, { onNativeToolUse: (u) => void uses.push(u) });
    expect(uses).toEqual([]);
  });
});
