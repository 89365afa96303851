import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ECHO_EXTENSION, projectWithExtensions, REPO_ROOT, runAwf } from '../support/cli';
import { startRawServe, STEP_SPAN_ID, STEP_TRACEPARENT } from '../support/telemetry-serve';

const TELEMETRY_TOOLS = resolve(REPO_ROOT, 'test/fixtures/telemetry/telemetry-tools.module.js');
const SECRET = 'sk-live-7f3a9c1e55d2';

function jsonLines(file: string): Array<Record<string, any>> {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('awf mcp-serve: file exporter, tool-call log lines and the audit trail', () => {
  const project = projectWithExtensions([ECHO_EXTENSION, TELEMETRY_TOOLS]);
  const xdg = join(project.dir, 'xdg');
  const runDir = join(xdg, 'awf', 'runs', 'run-file-1');
  const events = join(runDir, 'review.events.jsonl');
  const spans = join(project.dir, 'spans.jsonl');
  let stderr = '';

  beforeAll(async () => {
    const serve = await startRawServe(
      project.dir,
      {
        step: 'review',
        run_id: 'run-file-1',
        events_path: events,
        telemetry: { exporter: 'file', file: spans, traceparent: STEP_TRACEPARENT },
      },
      { DEPLOY_TOKEN: SECRET },
    );
    await serve.call([
      { name: 'echo', arguments: { text: `deploy with ${SECRET}`, tags: ['a', 'b'], dry: true } },
      { name: 'fail', arguments: { message: `refused: token ${SECRET} expired` } },
      { name: 'nap', arguments: { ms: 60 } },
    ]);
    expect(await serve.stop('stdin')).toBe(0);
    stderr = serve.stderr();
  });
  afterAll(() => project.cleanup());

  it('writes one span per call as JSON lines, each a child of the step span', () => {
    const records = jsonLines(spans);
    expect(records.map((r) => r.name)).toEqual(['tool.call echo', 'tool.call fail', 'tool.call nap']);
    expect(records.every((r) => r.parent_span_id === STEP_SPAN_ID)).toBe(true);
    expect(records[1]).toMatchObject({
      status: 'error',
      attributes: { 'tool.status': 'error', 'tool.source': 'module:telemetry-tools' },
    });
  });

  it('appends one audit line per call with the argument shape and never the values', () => {
    const lines = jsonLines(events);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      run_id: 'run-file-1',
      step: 'review',
      tool: 'echo',
      source: 'module:echo-tools',
      status: 'ok',
      args_shape: { text: `deploy with ${SECRET}`.length, tags: 2, dry: 'boolean' },
    });
    expect(lines[1]).toMatchObject({ tool: 'fail', status: 'error', error: '<message>' }); // the text was the argument's value: shape only
    expect(lines[2].duration_ms).toBeGreaterThanOrEqual(50);
    expect(Date.parse(lines[0].start)).not.toBeNaN();
    expect(readFileSync(events, 'utf8')).not.toContain('deploy with');
  });

  it('logs one "tool call" line per call on stderr, with shape only and secrets masked', () => {
    const calls = stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'tool call');
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatchObject({
      tool: 'echo',
      source: 'module:echo-tools',
      status: 'ok',
      step: 'review',
      run_id: 'run-file-1',
      args_shape: { text: `deploy with ${SECRET}`.length },
    });
    expect(calls[1]).toMatchObject({ tool: 'fail', status: 'error', error: '<message>', level: 40 });
    expect(typeof calls[0].duration_ms).toBe('number');
    expect(stderr).not.toContain(SECRET);
    expect(readFileSync(spans, 'utf8')).not.toContain(SECRET);
  });

  it('prints the run with `awf runs show <id>`, in text and as JSON', () => {
    const text = runAwf(['runs', 'show', 'run-file-1'], { cwd: project.dir, env: { XDG_DATA_HOME: xdg } });
    expect(text.status).toBe(0);
    const slowest = jsonLines(events).reduce((a, b) => (b.duration_ms > a.duration_ms ? b : a));
    expect(text.stdout).toContain(
      `step review: 3 tool calls, 1 error, slowest ${slowest.tool} ${slowest.duration_ms} ms`,
    );
    expect(text.stdout).toMatch(/fail\s+module:telemetry-tools\s+[\d.]+ ms\s+error\s+<message>/);
    const json = runAwf(['runs', 'show', 'run-file-1', '-f', 'json'], {
      cwd: project.dir,
      env: { XDG_DATA_HOME: xdg },
    });
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({
      run_id: 'run-file-1',
      dir: runDir,
      steps: [{ step: 'review', summary: { calls: 3, errors: 1, slowest: { tool: slowest.tool } } }],
    });
    expect(parsed.steps[0].events).toHaveLength(3);
  });

  it('answers an unknown run id with a user error and exit code 1', () => {
    const result = runAwf(['runs', 'show', 'no-such-run'], { cwd: project.dir, env: { XDG_DATA_HOME: xdg } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('[USER.RUN.NOT_FOUND] no run "no-such-run"');
    expect(result.stdout).toBe('');
  });
});

describe('AWF_LOG_TOOL_ARGS=1', () => {
  const project = projectWithExtensions([ECHO_EXTENSION]);
  afterAll(() => project.cleanup());

  it('logs argument values, still masked', async () => {
    const serve = await startRawServe(project.dir, { step: 's' }, { AWF_LOG_TOOL_ARGS: '1', DEPLOY_TOKEN: SECRET });
    await serve.call([{ name: 'echo', arguments: { text: `value ${SECRET}` } }]);
    await serve.stop('stdin');
    const line = serve
      .stderr()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'tool call');
    expect(line).toMatchObject({ tool: 'echo', args: { text: 'value ***' } });
    expect(line.args_shape).toBeUndefined();
  });
});

describe('the console exporter', () => {
  const project = projectWithExtensions([ECHO_EXTENSION]);
  afterAll(() => project.cleanup());

  it('writes spans as JSON lines to stderr, leaving stdout to the protocol', async () => {
    const serve = await startRawServe(project.dir, {
      step: 's',
      telemetry: { exporter: 'console', traceparent: STEP_TRACEPARENT },
    });
    const [answer] = await serve.call([{ name: 'echo', arguments: { text: 'x' } }]);
    expect(answer).toMatchObject({ jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'x' }] } });
    expect(await serve.stop('stdin')).toBe(0);
    const spans = serve
      .stderr()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.span_id);
    expect(spans).toEqual([expect.objectContaining({ name: 'tool.call echo', parent_span_id: STEP_SPAN_ID })]);
  });
});
