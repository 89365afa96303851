import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proxyInjection, runFake } from '../../../test/agents/fake-agent';
import { recordingLogger } from '../../../test/agents/agent-cli.harness';
import { GEMINI_NATIVE_TOOLS, GeminiAgentProvider } from './gemini.provider';

const OUTPUT = [
  '{"type":"init","session_id":"s1","model":"gemini-2.5-flash"}',
  '{"type":"message","role":"user","content":"Fix the bug."}',
  '{"type":"message","role":"assistant","content":"Let me look.","delta":true}',
  '{"type":"tool_use","tool_name":"mcp_awf-proxy_Read","tool_id":"t1","parameters":{}}',
  '{"type":"tool_result","tool_id":"t1","status":"success","output":"..."}',
  '{"type":"message","role":"assistant","content":"Fixed ","delta":true}',
  '{"type":"message","role":"assistant","content":"it.","delta":true}',
  '{"type":"result","status":"success","stats":{"total_tokens":36,"input_tokens":22,"output_tokens":14}}',
].join('\n');

describe('GeminiAgentProvider', () => {
  const provider = new GeminiAgentProvider(recordingLogger());
  const home = mkdtempSync(join(tmpdir(), 'awf-gemini-spec-home-'));
  mkdirSync(join(home, '.gemini'));
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    '// mine\n{"security":{"auth":{"selectedType":"oauth-personal"}},"mcpServers":{"mine":{"command":"x"}},"tools":{"exclude":["web_fetch"]}}',
  );
  writeFileSync(join(home, '.gemini', 'oauth_creds.json'), '{"token":"t"}');
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('runs gemini headless with stream-json and returns the text after the last tool call', async () => {
    const { result, probe } = await runFake(provider, OUTPUT, { options: { model: 'gemini-2.5-flash' } });
    expect(probe.argv).toEqual([
      '--output-format',
      'stream-json',
      '--model',
      'gemini-2.5-flash',
      '--prompt=Fix the bug.',
    ]);
    expect(result).toMatchObject({ output: 'Fixed it.', tokens: { input: 22, output: 14 } });
  });

  it("injects the proxy into a private Gemini home built from the user's, their login linked in, their files untouched", async () => {
    const { probe } = await runFake(provider, OUTPUT, { proxy: proxyInjection(true), env: { GEMINI_CLI_HOME: home } });
    const settings = JSON.parse(probe.files.gemini ?? '');
    expect(probe.env.GEMINI_CLI_HOME).not.toBe(home);
    expect(settings.security).toEqual({ auth: { selectedType: 'oauth-personal' } });
    expect(settings.mcpServers.mine).toEqual({ command: 'x' });
    expect(settings.mcpServers['awf-proxy']).toMatchObject({
      command: '/usr/bin/node',
      args: ['/opt/awf/dist/main.js', 'mcp-serve', '--config=/tmp/step "1".json'],
      trust: true,
    });
    expect(settings.tools.exclude).toEqual(expect.arrayContaining(['web_fetch', ...GEMINI_NATIVE_TOOLS]));
    expect(probe.files.geminiLinked).toBe('{"token":"t"}');
    expect(probe.argv).toEqual(expect.arrayContaining(['--allowed-mcp-server-names', 'awf-proxy']));
  });

  it("keeps Gemini's tools and other servers without intercept_builtins", async () => {
    const { probe } = await runFake(provider, OUTPUT, { proxy: proxyInjection(false), env: { GEMINI_CLI_HOME: home } });
    expect(JSON.parse(probe.files.gemini ?? '').tools).toEqual({ exclude: ['web_fetch'] });
    expect(probe.argv).not.toContain('--allowed-mcp-server-names');
  });

  it('fails when the result event is not a success', async () => {
    const stdout = '{"type":"result","status":"error","error":{"type":"FatalError","message":"quota exceeded"}}';
    await expect(runFake(provider, stdout)).rejects.toMatchObject({
      code: 'EXECUTION.AGENT.REPORTED_ERROR',
      message: expect.stringContaining('quota exceeded'),
    });
  });
});
