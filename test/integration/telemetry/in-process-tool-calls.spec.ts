import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { errorResult, textResult, type ToolResult } from '../../../src/domain/model/tool-result';
import type { AppLogger } from '../../../src/domain/ports/app-logger.port';
import { ProvidesTools } from '../../../src/domain/ports/markers';
import { TELEMETRY_CONTROL, type TelemetryControl } from '../../../src/domain/ports/telemetry-control.port';
import { APP_LOGGER, TOOL_ROUTER_FACTORY } from '../../../src/domain/ports/tokens';
import type { ToolRouterFactory } from '../../../src/domain/ports/tool-router-factory.port';
import type { ToolScope } from '../../../src/domain/ports/tool-scope';
import { TRACER, type Tracer } from '../../../src/domain/ports/tracer.port';
import { DEFAULT_LIMITS } from '../../../src/domain/proxy/proxy-config';
import { CoreModule } from '../../../src/infrastructure/core/core.module';
import { TelemetryModule } from '../../../src/infrastructure/telemetry/telemetry.module';
import { renderSpanTree } from '../../support/telemetry-span-tree';

@ProvidesTools()
@Injectable()
class CounterTools {
  listTools() {
    return [
      {
        name: 'count',
        description: 'Returns its n.',
        source: 'module:counter',
        inputSchema: { type: 'object' as const },
      },
      {
        name: 'refuse',
        description: 'Always fails.',
        source: 'module:counter',
        inputSchema: { type: 'object' as const },
      },
    ];
  }
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    await new Promise((ok) => setImmediate(ok));
    return name === 'refuse' ? errorResult('refused by policy') : textResult(String(args.n));
  }
}

@Module({ providers: [CounterTools] })
class CounterModule {}

class RecordingLogger implements AppLogger {
  readonly lines: Array<{ level: string; fields: Record<string, unknown>; msg: string }> = [];
  debug(fields: object, msg: string) {
    this.lines.push({ level: 'debug', fields: fields as Record<string, unknown>, msg });
  }
  info(fields: object, msg: string) {
    this.lines.push({ level: 'info', fields: fields as Record<string, unknown>, msg });
  }
  warn(fields: object, msg: string) {
    this.lines.push({ level: 'warn', fields: fields as Record<string, unknown>, msg });
  }
  error(fields: object, msg: string) {
    this.lines.push({ level: 'error', fields: fields as Record<string, unknown>, msg });
  }
  child(): AppLogger {
    return this;
  }
}

describe('the in-process path (openai_compatible): tool calls traced under the step, logged and audited', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-tel-int-'));
  const spansFile = join(dir, 'spans.jsonl');
  const eventsFile = join(dir, 'runs', 'r-int', 'steps', 'ask.events.jsonl');
  const logger = new RecordingLogger();
  let app: TestingModule;
  let runSpanId: string;
  let stepSpanId: string;

  beforeAll(async () => {
    app = await Test.createTestingModule({ imports: [CoreModule, TelemetryModule, CounterModule] })
      .overrideProvider(APP_LOGGER)
      .useValue(logger)
      .compile();
    await app.init();
    const control = app.get<TelemetryControl>(TELEMETRY_CONTROL);
    await control.start({ exporter: 'file', file: spansFile, serviceName: 'awf-int' });
    const tracer = app.get<Tracer>(TRACER);
    const run = tracer.startSpan('workflow.run', { attributes: { 'awf.workflow': 'demo', 'awf.run_id': 'r-int' } });
    const step = tracer.startSpan('step ask', { parent: run, attributes: { 'awf.step.type': 'agent' } });
    runSpanId = run.traceparent!.split('-')[2];
    stepSpanId = step.traceparent!.split('-')[2];
    expect(control.proxyTelemetry(step.traceparent)).toEqual({
      exporter: 'file',
      file: spansFile,
      service_name: 'awf-int',
      traceparent: step.traceparent,
    });

    const scope: ToolScope = {
      rootDir: dir,
      interceptBuiltins: false,
      pluginTools: [],
      limits: DEFAULT_LIMITS,
      step: 'ask',
      runId: 'r-int',
      eventsPath: eventsFile,
      traceparent: step.traceparent,
    };
    const tools = await app.get<ToolRouterFactory>(TOOL_ROUTER_FACTORY).open(scope);
    const calls = Array.from({ length: 40 }, (_, n) => tools.call(n % 10 === 9 ? 'refuse' : 'count', { n }));
    await Promise.all(calls);
    await tools.close();
    step.end();
    run.end();
    await app.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('nests workflow.run → step → tool.call in one trace', () => {
    const spans = readFileSync(spansFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const tool = spans.filter((s) => s.name.startsWith('tool.call '));
    expect(tool).toHaveLength(40);
    expect(new Set(spans.map((s) => s.trace_id)).size).toBe(1);
    expect(tool.every((s) => s.parent_span_id === stepSpanId)).toBe(true);
    expect(spans.find((s) => s.name === 'step ask').parent_span_id).toBe(runSpanId);
    expect(spans.find((s) => s.name === 'workflow.run').parent_span_id).toBeUndefined();
    expect(tool.filter((s) => s.status === 'error')).toHaveLength(4);
    const tree = renderSpanTree(spans, (s) => s.name).split('\n');
    expect(tree.slice(0, 3)).toEqual(['workflow.run', '└─ step ask', '   ├─ tool.call count']);
    expect(tree.at(-1)).toMatch(/^ {3}└─ tool\.call (count|refuse)$/);
  });

  it('appends 40 whole audit lines from 40 concurrent calls', () => {
    const lines = readFileSync(eventsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(40);
    expect(lines.filter((l) => l.status === 'error').map((l) => l.error)).toEqual(Array(4).fill('refused by policy'));
    expect(
      lines.every(
        (l) => l.run_id === 'r-int' && l.step === 'ask' && l.source === 'module:counter' && l.args_shape.n === 'number',
      ),
    ).toBe(true);
  });

  it('logs one "tool call" line per call, warn for the failures', () => {
    const calls = logger.lines.filter((l) => l.msg === 'tool call');
    expect(calls).toHaveLength(40);
    expect(calls.filter((l) => l.level === 'warn')).toHaveLength(4);
    expect(calls[0].fields).toMatchObject({
      source: 'module:counter',
      step: 'ask',
      run_id: 'r-int',
      status: expect.any(String),
      duration_ms: expect.any(Number),
    });
  });
});
