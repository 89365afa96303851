import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ECHO_EXTENSION, REPO_ROOT, runAwf, scratchDir } from '../support/cli';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/telemetry-otlp-receiver';
import { runAwfAsync } from '../support/telemetry-serve';
import { startScriptedModel, type ScriptedModel } from '../agents/scripted-model.server';

const TELEMETRY_TOOLS = resolve(REPO_ROOT, 'test/fixtures/telemetry/telemetry-tools.module.js');

/**
 * `review` is a `script` agent: it drives the step's real `awf mcp-serve` over MCP stdio, as
 * an agent CLI would. `ask` is openai_compatible against a scripted Chat Completions model on
 * 127.0.0.1: its tools run in-process, inside `awf run`.
 */
const workflow = (modelUrl: string): string => `name: traced
states:
  initial: prepare
  prepare:
    type: step
    command: echo preparing
    on_success: review
  review:
    type: agent
    provider: script
    prompt: review the code
    mcp_proxy:
      enable: true
    options:
      calls:
        - tool: echo
          args: {text: hello}
        - tool: nap
          args: {ms: 40}
        - tool: fail
          args: {message: "lint found 2 problems"}
          expect: {is_error: true}
    on_success: ask
  ask:
    type: agent
    provider: openai_compatible
    prompt: say hello through the tool
    mcp_proxy:
      enable: true
    options:
      base_url: ${modelUrl}/v1
      model: scripted
    on_success: done
  done:
    type: terminal
`;

describe('awf run: one trace from workflow.run through each step to the tool calls of its mcp-serve', () => {
  const project = scratchDir({
    '.awf/config.yaml': `extensions:\n  - ${JSON.stringify(ECHO_EXTENSION)}\n  - ${JSON.stringify(TELEMETRY_TOOLS)}\ntelemetry:\n  service_name: from-config\n`,
  });
  const xdg = join(project.dir, 'xdg');
  let receiver: OtlpReceiver;
  let model: ScriptedModel;
  let report: { run_id: string; steps: Array<Record<string, any>> };
  let stderr: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    model = await startScriptedModel([{ tool: 'echo', args: { text: 'from the model' } }], 'DONE');
    mkdirSync(join(project.dir, '.awf', 'workflows'), { recursive: true });
    writeFileSync(join(project.dir, '.awf', 'workflows', 'traced.yaml'), workflow(model.url));
    const result = await runAwfAsync(
      ['run', 'traced', '-f', 'json', '--otel-exporter', 'otlp', '--otel-endpoint', receiver.endpoint],
      { cwd: project.dir, env: { XDG_DATA_HOME: xdg } },
    );
    stderr = result.stderr;
    if (result.status !== 0) throw new Error(`awf run failed (${result.status}): ${result.stderr}`);
    report = JSON.parse(result.stdout);
  });
  afterAll(async () => {
    await receiver.close();
    await model.close();
    project.cleanup();
  });

  it('puts the run, its steps and the tool calls in one trace, each tool call under its step', () => {
    // Both processes flush before they exit, so every span is here once the run is over.
    const spans = receiver.spans;
    expect(spans.map((s) => s.name).sort()).toEqual([
      'step ask',
      'step prepare',
      'step review',
      'tool.call echo',
      'tool.call echo',
      'tool.call fail',
      'tool.call nap',
      'workflow.run',
    ]);
    const byName = (name: string): ReceivedSpan => spans.find((s) => s.name === name)!;
    const run = byName('workflow.run');
    expect(run.parentSpanId).toBe('');
    expect(run.attributes).toMatchObject({
      'awf.workflow': 'traced',
      'awf.run_id': report.run_id,
      'awf.run.status': 'success',
    });
    expect(byName('step prepare')).toMatchObject({
      parentSpanId: run.spanId,
      attributes: expect.objectContaining({ 'awf.step.type': 'step', 'awf.step.status': 'success' }),
    });
    const review = byName('step review');
    expect(review).toMatchObject({
      parentSpanId: run.spanId,
      attributes: expect.objectContaining({
        'awf.step.type': 'agent',
        'awf.step.provider': 'script',
        'awf.step.tool_calls': 3,
        'awf.step.tool_errors': 1,
      }),
    });
    const tools = spans.filter((s) => s.name.startsWith('tool.call ') && s.attributes['awf.step'] === 'review');
    expect(tools).toHaveLength(3);
    for (const s of tools)
      expect(s).toMatchObject({ traceId: run.traceId, parentSpanId: review.spanId, service: 'from-config' });
    expect(byName('tool.call fail').attributes).toMatchObject({
      'tool.status': 'error',
      'tool.source': 'module:telemetry-tools',
      'awf.step': 'review',
      'awf.run_id': report.run_id,
    });
    expect(byName('tool.call fail').status.code).toBe('STATUS_CODE_ERROR');
  });

  it('traces the in-process tool calls of an openai_compatible step under that step too', () => {
    const run = receiver.spans.find((s) => s.name === 'workflow.run')!;
    const ask = receiver.spans.find((s) => s.name === 'step ask')!;
    expect(ask).toMatchObject({
      traceId: run.traceId,
      parentSpanId: run.spanId,
      attributes: expect.objectContaining({ 'awf.step.provider': 'openai_compatible', 'awf.step.tool_calls': 1 }),
    });
    const calls = receiver.spans.filter((s) => s.name === 'tool.call echo' && s.attributes['awf.step'] === 'ask');
    expect(calls).toEqual([
      expect.objectContaining({
        traceId: run.traceId,
        parentSpanId: ask.spanId,
        attributes: expect.objectContaining({
          'tool.status': 'ok',
          'tool.source': 'module:echo-tools',
          'tool.args_shape': '{"text":14}',
        }),
      }),
    ]);
    expect(model.requests.at(-1)!.toolResults).toEqual(['from the model']);
    // The audit record names the call's trace, so the dashboard and `runs show -f json` lead to it.
    expect(report.steps.find((s) => s.name === 'ask')!.events).toEqual([
      expect.objectContaining({ tool: 'echo', step: 'ask', status: 'ok', trace_id: run.traceId }),
    ]);
  });

  it('prints a per-step summary and puts the events in -f json', () => {
    const review = report.steps.find((s) => s.name === 'review')!;
    expect(review.events.map((e: { tool: string }) => e.tool)).toEqual(['echo', 'nap', 'fail']);
    const slowest = slowestOf(review.events);
    expect(review.tool_summary).toEqual({
      calls: 3,
      errors: 1,
      slowest: { tool: slowest.tool, duration_ms: slowest.duration_ms },
    });
    expect(stderr).toContain(`3 tool calls, 1 error, slowest ${slowest.tool} ${slowest.duration_ms} ms`);
    expect(report.steps.find((s) => s.name === 'prepare')!.events).toBeUndefined();
  });

  it('keeps the run under $XDG_DATA_HOME/awf/runs/<run_id>/ for `awf runs show`', () => {
    expect(readdirSync(join(xdg, 'awf', 'runs', report.run_id)).sort()).toEqual([
      'ask.events.jsonl',
      'review.events.jsonl',
      'run.json',
    ]);
    const shown = runAwf(['runs', 'show', report.run_id], { cwd: project.dir, env: { XDG_DATA_HOME: xdg } });
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(`run ${report.run_id} (workflow traced, status success`);
    const slowest = slowestOf(report.steps.find((s) => s.name === 'review')!.events);
    expect(shown.stdout).toContain(
      `step review: 3 tool calls, 1 error, slowest ${slowest.tool} ${slowest.duration_ms} ms`,
    );
    expect(shown.stdout).toMatch(/fail\s+module:telemetry-tools\s+[\d.]+ ms\s+error\s+<message>/); // the error text was the argument's value
  });

  it('rejects an unknown exporter before running anything', () => {
    const result = runAwf(['run', 'traced', '--otel-exporter', 'zipkin'], {
      cwd: project.dir,
      env: { XDG_DATA_HOME: xdg },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('[USER.CONFIG.INVALID] --otel-exporter "zipkin" is not an exporter awf knows');
    expect(result.stdout).toBe('');
  });
});

/** Which call was slowest depends on the machine's load; the summary must name that one. */
function slowestOf(events: Array<{ tool: string; duration_ms: number }>): { tool: string; duration_ms: number } {
  return events.reduce((a, b) => (b.duration_ms > a.duration_ms ? b : a));
}
