import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { selfCommand } from '../../src/infrastructure/core/self-command';
import { ECHO_EXTENSION, REPO_ROOT, projectWithExtensions } from '../support/cli';
import { startOtlpReceiver, type OtlpReceiver } from '../support/telemetry-otlp-receiver';

// The startup snapshot leaves gRPC and the OpenTelemetry SDK out of its heap and loads them
// from dist/awf-grpc.cjs, awf-otel.cjs and awf-otlp.cjs when a config asks for plugins or tracing
// (docs/adr/097-perf-snapshot-heap.md). These start mcp-serve exactly as `awf run` injects it.
jest.setTimeout(120_000);

const DIST = resolve(REPO_ROOT, 'dist');
const EXAMPLES = resolve(REPO_ROOT, 'examples/plugins');
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const STEP_TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

async function serveFromLaunchCommand(
  dir: string,
  config: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<Client> {
  const file = join(dir, `proxy-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: [], ...config }), {
    mode: 0o600,
  });
  const cmd = selfCommand(['mcp-serve', `--config=${file}`], { distDir: DIST });
  const transport = new StdioClientTransport({
    command: cmd.command,
    args: cmd.args,
    cwd: dir,
    stderr: 'ignore',
    env: { ...(process.env as Record<string, string>), ...env },
  });
  const client = new Client({ name: 'perf-snapshot-heap-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('awf mcp-serve from the startup snapshot loads what the config asks for at run time', () => {
  const project = projectWithExtensions([ECHO_EXTENSION]);
  let receiver: OtlpReceiver | undefined;
  afterEach(async () => receiver?.close());
  afterAll(() => project.cleanup());

  it('is launched from the snapshot, next to its run-time bundles', () => {
    expect(selfCommand(['mcp-serve'], { distDir: DIST }).args).toContain('--snapshot-blob');
    expect(
      ['awf-grpc.cjs', 'awf-otel.cjs', 'awf-otlp.cjs', 'awf-metrics.cjs'].filter((f) => !existsSync(join(DIST, f))),
    ).toEqual([]);
  });

  it('exports tool-call spans over OTLP (the OpenTelemetry SDK and its OTLP exporter)', async () => {
    receiver = await startOtlpReceiver();
    const client = await serveFromLaunchCommand(project.dir, {
      step: 'review',
      run_id: 'run-heap',
      workflow: 'demo',
      telemetry: {
        exporter: 'otlp',
        endpoint: `${receiver.endpoint}/v1/traces`,
        traceparent: STEP_TRACEPARENT,
        service_name: 'awf-heap',
      },
    });
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
    await client.close();
    const spans = await receiver.waitForSpans(1, 30_000);
    expect(spans[0]).toMatchObject({ name: 'tool.call echo', traceId: TRACE_ID, service: 'awf-heap' });
  });

  it("serves a plugin's operations (gRPC and the plugin protocol)", async () => {
    const env = {
      AWF_PLUGINS_PATH: EXAMPLES,
      XDG_DATA_HOME: join(project.dir, 'xdg'),
      AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000',
    };
    const client = await serveFromLaunchCommand(
      project.dir,
      { plugin_tools: [{ plugin: 'time', expose: ['now'] }] },
      env,
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('time_now');
      const now = await client.callTool({ name: 'time_now', arguments: {} });
      expect(now.isError).toBeFalsy();
      expect((now.structuredContent as { iso8601?: string }).iso8601).toMatch(/^\d{4}-\d\d-\d\dT/);
    } finally {
      await client.close();
    }
  });
});
