import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnAwf } from './cli';

export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const STEP_SPAN_ID = '00f067aa0ba902b7';
export const STEP_TRACEPARENT = `00-${TRACE_ID}-${STEP_SPAN_ID}-01`;

export interface RawServe {
  /** Sends `tools/call` requests and resolves with their responses, in order. */
  call(calls: Array<{ name: string; arguments?: Record<string, unknown> }>): Promise<Array<Record<string, unknown>>>;
  /** Ends stdin (what an agent does when it is done) or signals; resolves with the exit code. */
  stop(how: 'stdin' | NodeJS.Signals): Promise<number | null>;
  stderr(): string;
}

/**
 * `awf mcp-serve` spoken to in raw JSON-RPC lines, so a test decides exactly how the
 * process ends (stdin EOF or a signal): the SDK client's own close may escalate to signals.
 */
export async function startRawServe(
  dir: string,
  config: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<RawServe> {
  const file = join(dir, `proxy-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ version: 1, intercept_builtins: true, plugin_tools: [], ...config }), {
    mode: 0o600,
  });
  const child = spawnAwf(['mcp-serve', `--config=${file}`], { cwd: dir, env: { AWF_LOG_LEVEL: 'info', ...env } });
  let stdout = '';
  let stderr = '';
  const waiting = new Map<number, (response: Record<string, unknown>) => void>();
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    let nl: number;
    while ((nl = stdout.indexOf('\n')) >= 0) {
      const message = JSON.parse(stdout.slice(0, nl)) as { id?: number };
      stdout = stdout.slice(nl + 1);
      if (typeof message.id === 'number') waiting.get(message.id)?.(message);
    }
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let nextId = 1;
  const request = (method: string, params: object): Promise<Record<string, unknown>> => {
    const id = nextId++;
    const answer = new Promise<Record<string, unknown>>((ok) => waiting.set(id, ok));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answer;
  };
  await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'awf-telemetry-test', version: '1' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    async call(calls) {
      const out: Array<Record<string, unknown>> = [];
      for (const c of calls) out.push(await request('tools/call', { name: c.name, arguments: c.arguments ?? {} }));
      return out;
    },
    async stop(how) {
      if (how === 'stdin') child.stdin.end();
      else child.kill(how);
      return exited;
    },
    stderr: () => stderr,
  };
}

/**
 * `runAwf` without blocking this process: a test that hosts a receiver (an OTLP collector)
 * must keep answering while the CLI runs, which `spawnSync` would prevent.
 */
export async function runAwfAsync(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawnAwf(args, options);
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  // 'close', not 'exit': the exit code is known before the output pipes are drained.
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stdout, stderr };
}
