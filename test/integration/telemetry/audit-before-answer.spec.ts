import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ToolRouterService } from '../../../src/application/tool-router.service';
import { ValueSecretMasker } from '../../../src/application/secret-masker.service';
import { textResult } from '../../../src/domain/model/tool-result';
import type { AppLogger } from '../../../src/domain/ports/app-logger.port';
import type { ToolProvider } from '../../../src/domain/ports/tool-provider.port';
import type { ToolScope } from '../../../src/domain/ports/tool-scope';
import { DEFAULT_LIMITS } from '../../../src/domain/proxy/proxy-config';
import { McpStdioEdge } from '../../../src/infrastructure/mcp-edge/mcp-stdio.edge';
import { AuditTrailInterceptor } from '../../../src/infrastructure/telemetry/audit-trail.interceptor';
import { AuditTrailWriter } from '../../../src/infrastructure/telemetry/audit-trail.writer';

const quiet: AppLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

const echo: ToolProvider = {
  listTools: async () => [{ name: 'echo', description: 'echo', source: 'test', inputSchema: { type: 'object' } }],
  callTool: async (_name, args) => textResult(String(args.text)),
};

describe('the audit line of a call served over MCP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-audit-order-'));
  const events = join(dir, 'events.jsonl');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is on disk when the answer reaches the client', async () => {
    const scope: ToolScope = {
      rootDir: dir,
      interceptBuiltins: false,
      pluginTools: [],
      limits: DEFAULT_LIMITS,
      eventsPath: events,
    };
    const writer = new AuditTrailWriter(quiet);
    const router = await ToolRouterService.open([echo], scope, [
      new AuditTrailInterceptor(writer, new ValueSecretMasker()),
    ]);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const server = new McpStdioEdge({ stdin, stdout }).open(router);
    const served = server.serve();
    const audited = () => (readFileSync(events, { encoding: 'utf8', flag: 'a+' }).match(/\n/g) ?? []).length;
    // Read the trail the moment the answer's bytes arrive, before anything else can run.
    const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } };
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize })}\n`);
    await new Promise((resolve) => stdout.once('data', resolve));
    const answered = new Promise<number>((resolve) => stdout.once('data', () => resolve(audited())));
    stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } })}\n`,
    );
    expect(await answered).toBe(1);
    expect(JSON.parse(readFileSync(events, 'utf8'))).toMatchObject({ tool: 'echo', status: 'ok' });
    stdin.end();
    await served;
    writer.onModuleDestroy();
  });
});
