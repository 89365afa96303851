/** Runs a provider against test/agents/fake-agent-cli.js and returns what the fake CLI was handed. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type {
  AgentProvider,
  AgentRunRequest,
  AgentRunResult,
  ProxyInjection,
} from '../../src/domain/ports/agent-provider.port';

export const FAKE_AGENT_CLI = resolve(__dirname, 'fake-agent-cli.js');

export interface FakeProbe {
  argv: string[];
  env: Record<string, string>;
  files: {
    mcpConfig: string | null;
    opencode: string | null;
    gemini: string | null;
    geminiLinked: string | null;
    copilotMcp: string | null;
    vibeConfig: string | null;
    vibeEnv: string | null;
  };
}

export function proxyInjection(interceptBuiltins: boolean): ProxyInjection {
  return {
    serverName: 'awf-proxy',
    command: '/usr/bin/node',
    args: ['/opt/awf/dist/main.js', 'mcp-serve', '--config=/tmp/step "1".json'],
    env: { AWF_LOG_LEVEL: 'warn', TRACEPARENT: '00-abc-def-01' },
    configPath: '/tmp/step "1".json',
    interceptBuiltins,
  };
}

export async function runFake(
  provider: AgentProvider,
  stdout: string,
  request: Partial<AgentRunRequest> = {},
  env: Record<string, string> = {},
): Promise<{ result: AgentRunResult; probe: FakeProbe }> {
  const dir = mkdtempSync(join(tmpdir(), 'awf-fake-agent-'));
  try {
    const probeFile = join(dir, 'probe.json');
    const result = await provider.run({
      workflow: 'wf',
      step: 'review',
      runId: 'r1',
      prompt: 'Fix the bug.',
      cwd: dir,
      signal: new AbortController().signal,
      ...request,
      options: { binary: FAKE_AGENT_CLI, ...request.options },
      env: { HOME: dir, FAKE_PROBE_FILE: probeFile, FAKE_STDOUT: stdout, ...env, ...request.env },
    });
    return { result, probe: JSON.parse(readFileSync(probeFile, 'utf8')) as FakeProbe };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
