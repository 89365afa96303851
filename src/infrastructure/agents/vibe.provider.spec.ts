import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { proxyInjection, runFake } from '../../../test/agents/fake-agent';
import { recordingLogger } from '../../../test/agents/agent-cli.harness';
import { VibeAgentProvider } from './vibe.provider';

/** `vibe --output json`: the conversation's messages, one document. */
const JSON_OUTPUT = JSON.stringify([
  { role: 'system', content: 'You are Vibe.' },
  { role: 'user', content: 'Fix the bug.' },
  { role: 'assistant', content: '', tool_calls: [{ id: 't1', function: { name: 'awf-proxy_Read' } }] },
  { role: 'tool', content: 'notes', tool_call_id: 't1' },
  { role: 'assistant', content: 'Fixed it.' },
]);

/** `vibe --output streaming`: one message per line. */
const STREAMING_OUTPUT = [
  '{"role":"user","content":"Fix the bug."}',
  '{"role":"assistant","content":[{"type":"text","text":"Fixed "},{"type":"text","text":"it."}]}',
].join('\n');

describe('VibeAgentProvider', () => {
  const provider = new VibeAgentProvider(recordingLogger());
  const vibeHome = mkdtempSync(join(tmpdir(), 'awf-vibe-spec-home-'));
  mkdirSync(vibeHome, { recursive: true });
  writeFileSync(
    join(vibeHome, 'config.toml'),
    [
      'active_model = "devstral"',
      'mcp_servers = [',
      '  { name = "inline", transport = "stdio", command = "x" },',
      ']',
      '',
      '[[mcp_servers]]',
      'name = "mine"',
      'transport = "stdio"',
      'command = "my-server"',
      '[mcp_servers.env]',
      'TOKEN = "secret"',
      '',
      '[tools.bash]',
      'permission = "ask"',
    ].join('\n'),
  );
  writeFileSync(join(vibeHome, '.env'), 'MISTRAL_API_KEY=k\n');
  afterAll(() => rmSync(vibeHome, { recursive: true, force: true }));

  it('runs vibe --prompt with the default agent profile and reads the last assistant message (json, streaming, text)', async () => {
    const json = await runFake(provider, JSON_OUTPUT);
    expect(json.probe.argv).toEqual(['--prompt', 'Fix the bug.', '--agent', 'default']);
    expect(json.result.output).toBe('Fixed it.');
    expect(json.result.sessionId).toBeUndefined();
    expect((await runFake(provider, STREAMING_OUTPUT)).result.output).toBe('Fixed it.');
    expect((await runFake(provider, 'Plain answer.\n')).result.output).toBe('Plain answer.');
  });

  it("maps AWF's options to Vibe's flags", async () => {
    const options = {
      dangerously_skip_permissions: true,
      output_format: 'streaming',
      max_turns: 5,
      max_tokens: 2000,
      max_price: 0.5,
      workdir: 'src/./app',
      enabled_tools: ['bash', 're:^read_.*'],
      add_dirs: ['/data/shared'],
      trust: true,
    };
    const { probe } = await runFake(provider, STREAMING_OUTPUT, { options });
    expect(probe.argv.slice(2)).toEqual([
      '--agent',
      'auto-approve',
      '--output',
      'streaming',
      '--max-turns',
      '5',
      '--max-tokens',
      '2000',
      '--max-price',
      '0.5',
      '--workdir',
      'src/app',
      '--enabled-tools',
      'bash',
      '--enabled-tools',
      're:^read_.*',
      '--add-dir',
      '/data/shared',
      '--trust',
    ]);
  });

  it('sends a first turn with its system prompt, and a later turn as a transcript of the conversation', async () => {
    const first = await runFake(provider, JSON_OUTPUT, { conversation: { turns: [], systemPrompt: 'Be terse.' } });
    expect(first.probe.argv[1]).toBe('Be terse.\n\nFix the bug.');
    const turns = [
      { role: 'user' as const, content: 'Hello' },
      { role: 'assistant' as const, content: 'Hi.' },
    ];
    const later = await runFake(provider, JSON_OUTPUT, {
      prompt: 'And now?',
      conversation: { turns, systemPrompt: 'Be terse.' },
    });
    expect(later.probe.argv[1]).toBe(
      'Continue the conversation using the transcript below. Answer the final user message.\n\nTranscript:\n' +
        'System: Be terse.\nUser: Hello\nAssistant: Hi.\nUser: And now?',
    );
  });

  it("puts the proxy in a temp VIBE_HOME: the user's config without their MCP servers, their .env, only our tools", async () => {
    const env = { VIBE_HOME: vibeHome };
    const { probe } = await runFake(provider, JSON_OUTPUT, { proxy: proxyInjection(true), env });
    const home = probe.env.VIBE_HOME;
    expect(home).toMatch(/awf-mistral_vibe-/);
    expect(existsSync(home)).toBe(false);
    expect(probe.files.vibeEnv).toBe('MISTRAL_API_KEY=k\n');
    expect(probe.files.vibeConfig).toBe(
      [
        'active_model = "devstral"',
        '',
        '[tools.bash]',
        'permission = "ask"',
        '',
        '[[mcp_servers]]',
        'name = "awf-proxy"',
        'transport = "stdio"',
        'command = "/usr/bin/node"',
        'args = ["/opt/awf/dist/main.js", "mcp-serve", "--config=/tmp/step \\"1\\".json"]',
        'env = { "AWF_LOG_LEVEL" = "warn", "TRACEPARENT" = "00-abc-def-01" }',
        '',
      ].join('\n'),
    );
    expect(probe.argv.slice(-2)).toEqual(['--enabled-tools', 'awf-proxy_*']);
    const coexisting = await runFake(provider, JSON_OUTPUT, { proxy: proxyInjection(false), env });
    expect(coexisting.probe.argv).not.toContain('--enabled-tools');
  });

  it.each([
    [{ workdir: '../elsewhere' }, /options\.workdir must be a path without "\.\." segments/],
    [{ add_dirs: ['ok', 'a/../../b'] }, /options\.add_dirs must be a path without "\.\." segments/],
    [{ output_format: 'yaml' }, /options\.output_format must be one of text, json, streaming/],
    [{ max_turns: 0 }, /options\.max_turns must be an integer ≥ 1/],
    [{ max_tokens: 1.5 }, /options\.max_tokens must be an integer ≥ 1/],
    [{ max_price: -1 }, /options\.max_price must be a number ≥ 0/],
    [{ trust: 'yes' }, /options\.trust must be true or false/],
    [{ enabled_tools: [1] }, /options\.enabled_tools must be a string or a list of strings/],
    [{ dangerously_skip_permissions: true, agent_profile: 'plan' }, /options\.agent_profile must be "auto-approve"/],
  ])('refuses %p at validate time with USER.AGENT.INVALID_OPTIONS', (options, message) => {
    expect(() => provider.validateOptions(options)).toThrow(
      expect.objectContaining({ code: ErrorCodes.AGENT_INVALID_OPTIONS, message: expect.stringMatching(message) }),
    );
  });
});
