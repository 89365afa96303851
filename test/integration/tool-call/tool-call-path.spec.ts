import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { ValueSecretMasker } from '../../../src/application/secret-masker.service';
import { ToolPolicyInterceptor } from '../../../src/application/policy/tool-policy.interceptor';
import { ToolRouterService } from '../../../src/application/tool-router.service';
import type { AppLogger } from '../../../src/domain/ports/app-logger.port';
import type { ToolCallInterceptor } from '../../../src/domain/ports/tool-call-interceptor.port';
import type { ToolScope } from '../../../src/domain/ports/tool-scope';
import { ToolPolicy } from '../../../src/domain/policy/tool-policy';
import { DEFAULT_LIMITS } from '../../../src/domain/proxy/proxy-config';
import { McpStdioEdge } from '../../../src/infrastructure/mcp-edge/mcp-stdio.edge';
import { AuditTrailInterceptor } from '../../../src/infrastructure/telemetry/audit-trail.interceptor';
import { AuditTrailWriter } from '../../../src/infrastructure/telemetry/audit-trail.writer';
import { TelemetryService } from '../../../src/infrastructure/telemetry/telemetry.service';
import { ToolCallLogInterceptor } from '../../../src/infrastructure/telemetry/tool-call-log.interceptor';
import { ToolTelemetryInterceptor } from '../../../src/infrastructure/telemetry/tool-telemetry.interceptor';
import { PathSandbox } from '../../../src/infrastructure/tools/path-sandbox.service';
import { builtinTools } from '../../support/builtin-context';

/** The most awf source files a tools/call may cross from the MCP edge to the tool (issue #29). */
const MAX_FILES_ON_A_CALL = 8;

const lines: Array<{ fields: Record<string, unknown>; message: string }> = [];
const logger: AppLogger = {
  debug() {},
  info: (fields, message) => void lines.push({ fields: fields as Record<string, unknown>, message }),
  warn: (fields, message) => void lines.push({ fields: fields as Record<string, unknown>, message }),
  error() {},
  child: () => logger,
};

/** A real MCP session with the real chain: the SDK server over a pipe, the router, policy, telemetry, built-ins. */
describe('one tools/call through the MCP edge', () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'awf-call-path-')));
  const traces = join(base, 'traces.jsonl');
  const events = join(base, 'events.jsonl');
  const entered: string[] = [];
  const masker = new ValueSecretMasker({});
  const telemetry = new TelemetryService(masker, logger);
  const writer = new AuditTrailWriter(logger);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers = new Map<number, { result?: { isError?: boolean; content: Array<{ text: string }> } }>();
  let served: Promise<void>;
  let stacks: string[] = [];

  /** Notes the order the interceptors are entered in, without changing what they do. */
  const noted = (name: string, interceptor: ToolCallInterceptor): ToolCallInterceptor => {
    const intercept = interceptor.intercept.bind(interceptor);
    interceptor.intercept = (call, next) => (entered.push(name), intercept(call, next));
    return interceptor;
  };

  const request = (id: number, method: string, params: object) =>
    new Promise<void>((resolve) => {
      const onData = () => answers.has(id) && (stdout.off('data', onData), resolve());
      stdout.on('data', onData);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });

  beforeAll(async () => {
    writeFileSync(join(base, 'notes.txt'), 'one\ntwo\n');
    await telemetry.start({ exporter: 'file', file: traces });
    const scope: ToolScope = {
      rootDir: base,
      interceptBuiltins: true,
      pluginTools: [],
      limits: DEFAULT_LIMITS,
      eventsPath: events,
      step: 'review',
      policy: new ToolPolicy([{ origin: 'step review', tools: { deny: ['Bash'] } }]),
    };
    const router = await ToolRouterService.open([builtinTools(masker)], scope, [
      noted('log', new ToolCallLogInterceptor(logger)),
      noted('audit', new AuditTrailInterceptor(writer, masker)),
      noted('telemetry', new ToolTelemetryInterceptor(telemetry, telemetry.recorder)),
      noted('policy', new ToolPolicyInterceptor({ ask: async () => ({ answer: 'deny', by: 'flag' }) }, masker)),
    ]);
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      const parts = (buffered + chunk.toString()).split('\n');
      buffered = parts.pop()!;
      for (const p of parts) if (p) answers.set(JSON.parse(p).id, JSON.parse(p));
    });
    served = new McpStdioEdge({ stdin, stdout })
      .open(router)
      .serve()
      .finally(() => router.close());
    await request(0, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '0' },
    });
  });

  afterAll(async () => {
    stdin.end();
    await served;
    writer.onModuleDestroy();
    rmSync(base, { recursive: true, force: true });
  });

  it(`crosses at most ${MAX_FILES_ON_A_CALL} awf source files from the edge to the Read tool`, async () => {
    // Inside Read: the stack of the sandbox lookup its run() makes first.
    const resolve = PathSandbox.prototype.resolve;
    const spy = jest.spyOn(PathSandbox.prototype, 'resolve').mockImplementation(function (this: PathSandbox, ...args) {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = Infinity;
      stacks.push(new Error('inside Read').stack ?? '');
      Error.stackTraceLimit = limit;
      return resolve.apply(this, args);
    });
    try {
      await request(1, 'tools/call', { name: 'Read', arguments: { file_path: 'notes.txt' } });
    } finally {
      spy.mockRestore();
    }
    expect(answers.get(1)?.result?.content[0].text).toContain('one');
    const src = join(__dirname, '../../../src');
    const files = [...new Set([...stacks[0].matchAll(/\(?(\/[^\s()]+?\.ts):\d+:\d+\)?/g)].map((m) => m[1]))]
      .filter((f) => f.startsWith(src))
      .map((f) => relative(src, f));
    console.log(`a tools/call crosses ${files.length} awf source files:\n  ${files.join('\n  ')}`);
    expect(files).toContain('infrastructure/tools/read.tool.ts');
    expect(files.length).toBeLessThanOrEqual(MAX_FILES_ON_A_CALL);
    stacks = [];
  });

  it('runs the policy outermost, and a denied call still gets its span, log line and audit line', async () => {
    entered.length = 0;
    await request(2, 'tools/call', { name: 'Bash', arguments: { command: 'echo hi' } });
    expect(entered).toEqual(['policy', 'telemetry', 'audit', 'log']);
    expect(answers.get(2)?.result?.isError).toBe(true);
    expect(lines.find((l) => l.message === 'tool call' && l.fields.tool === 'Bash')?.fields.policy).toMatchObject({
      decision: 'denied',
    });
    const audit = readFileSync(events, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.find((e) => e.tool === 'Bash')).toMatchObject({ status: 'error', policy: { decision: 'denied' } });
    await telemetry.shutdown();
    const spans = readFileSync(traces, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(spans.find((s) => s.name === 'tool.call Bash')?.attributes).toMatchObject({ 'policy.decision': 'denied' });
  });
});
