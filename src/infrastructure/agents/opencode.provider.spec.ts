import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proxyInjection, runFake } from '../../../test/agents/fake-agent';
import { recordingLogger } from '../../../test/agents/agent-cli.harness';
import { OpencodeAgentProvider } from './opencode.provider';

const OUTPUT = [
  '{"type":"step_start","sessionID":"s1","part":{"type":"step-start"}}',
  '{"type":"text","part":{"type":"text","text":"Reading first."}}',
  '{"type":"tool_use","part":{"type":"tool","tool":"awf-proxy_Read","state":{"status":"completed"}}}',
  '{"type":"step_finish","part":{"type":"step-finish","tokens":{"input":11,"output":7},"cost":0.5}}',
  '{"type":"step_start","sessionID":"s1","part":{"type":"step-start"}}',
  '{"type":"text","part":{"type":"text","text":"Done."}}',
  '{"type":"step_finish","part":{"type":"step-finish","tokens":{"input":11,"output":7},"cost":0.25}}',
].join('\n');

describe('OpencodeAgentProvider', () => {
  const provider = new OpencodeAgentProvider(recordingLogger());

  it('runs opencode run --format json and returns the text after the last tool call, tokens and cost summed', async () => {
    const { result, probe } = await runFake(provider, OUTPUT, { options: { model: 'anthropic/claude-sonnet-4' } });
    expect(probe.argv).toEqual([
      'run',
      '--format',
      'json',
      '--model',
      'anthropic/claude-sonnet-4',
      '--',
      'Fix the bug.',
    ]);
    expect(result).toMatchObject({ output: 'Done.', tokens: { input: 22, output: 14 }, costUsd: 0.75 });
    expect(probe.env.OPENCODE_CONFIG).toBeUndefined();
  });

  it('injects the proxy through OPENCODE_CONFIG on a private file, all other tools off when intercepting', async () => {
    const { probe } = await runFake(provider, OUTPUT, { proxy: proxyInjection(true) });
    expect(JSON.parse(probe.files.opencode ?? '')).toEqual({
      mcp: {
        'awf-proxy': {
          type: 'local',
          command: ['/usr/bin/node', '/opt/awf/dist/main.js', 'mcp-serve', '--config=/tmp/step "1".json'],
          environment: { AWF_LOG_LEVEL: 'warn', TRACEPARENT: '00-abc-def-01' },
          enabled: true,
          timeout: 60000,
        },
      },
      permission: { 'awf-proxy_*': 'allow' },
      tools: { '*': false, 'awf-proxy_*': true },
    });
  });

  it('extends a config the user already points OPENCODE_CONFIG at, and leaves that file alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'awf-opencode-spec-'));
    const mine = join(dir, 'mine.json');
    const text = '{"model":"a/b","mcp":{"other":{"type":"remote","url":"http://127.0.0.1:1"}},"permission":"ask"}';
    writeFileSync(mine, text);
    try {
      const { probe } = await runFake(provider, OUTPUT, {
        proxy: proxyInjection(false),
        env: { OPENCODE_CONFIG: mine },
      });
      const config = JSON.parse(probe.files.opencode ?? '');
      expect(probe.env.OPENCODE_CONFIG).not.toBe(mine);
      expect(config).toMatchObject({ model: 'a/b', permission: { '*': 'ask', 'awf-proxy_*': 'allow' } });
      expect(Object.keys(config.mcp)).toEqual(['other', 'awf-proxy']);
      expect(config.tools).toBeUndefined();
      expect(readFileSync(mine, 'utf8')).toBe(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('OpencodeAgentProvider: its own tools, read from the event stream as they run', () => {
  const tool = (name: string, status: string, input: object, callID: string) =>
    JSON.stringify({
      type: 'tool_use',
      timestamp: 1000,
      part: { type: 'tool', tool: name, callID, state: { status, input, time: { start: 100, end: 350 } } },
    });

  it("reports each tool that is not one of the proxy's, with its times and argument sizes", async () => {
    const uses: unknown[] = [];
    const stream = [
      tool('awf-proxy_Read', 'completed', { file_path: 'a.txt' }, 'c1'),
      tool('bash', 'completed', { command: 'ls -la', description: 'list' }, 'c2'),
      tool('write', 'error', { filePath: '/etc/x', content: 'abc' }, 'c3'),
      '{"type":"text","part":{"text":"done"}}',
    ].join('\n');
    await runFake(new OpencodeAgentProvider(recordingLogger()), stream, {
      proxy: proxyInjection(false),
      onNativeToolUse: (use) => void uses.push(use),
    });
    expect(uses).toEqual([
      { tool: 'bash', id: 'c2', argsShape: { command: 6, description: 4 }, status: 'ok', startedAt: 100, endedAt: 350 },
      {
        tool: 'write',
        id: 'c3',
        argsShape: { filePath: 6, content: 3 },
        status: 'error',
        startedAt: 100,
        endedAt: 350,
      },
    ]);
  });
});
