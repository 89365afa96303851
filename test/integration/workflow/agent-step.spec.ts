import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Global, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { WorkflowService } from '../../../src/application/workflow/workflow.service';
import type { AgentProvider, AgentRunRequest, AgentRunResult } from '../../../src/domain/ports/agent-provider.port';
import { ProvidesAgent } from '../../../src/domain/ports/markers';
import { RUN_HISTORY, type RunHistory } from '../../../src/domain/ports/run-history.port';
import { RunFilesStore } from '../../../src/infrastructure/history/run-files.store';
import type { RunReport } from '../../../src/domain/workflow/run-report.model';
import { CoreModule } from '../../../src/infrastructure/core/core.module';
import { ProjectConfigModule } from '../../../src/infrastructure/config/project-config.module';
import { WorkflowModule } from '../../../src/infrastructure/workflow/workflow.module';

/** A stand-in agent that records what it was handed and acts like mcp-serve on the audit file. */
@Injectable()
@ProvidesAgent()
class RecordingAgent implements AgentProvider {
  readonly name = 'recording';
  readonly canInterceptBuiltins = true;
  requests: AgentRunRequest[] = [];
  configs: Record<string, unknown>[] = [];

  async run(request: AgentRunRequest): Promise<AgentRunResult> {
    this.requests.push(request);
    if (request.proxy) {
      const config = JSON.parse(readFileSync(request.proxy.configPath, 'utf8'));
      this.configs.push(config);
      // As mcp-serve's audit writer does: it makes the run's directory on its first line.
      mkdirSync(dirname(config.events_path), { recursive: true, mode: 0o700 });
      for (let i = 0; i < 2; i++)
        appendFileSync(
          config.events_path,
          `${JSON.stringify({ tool: 'Read', source: 'builtin', start: '', duration_ms: 1, status: 'ok', args_shape: {} })}\n`,
        );
    }
    if (request.options.fail) throw new Error('agent gave up');
    return { output: JSON.stringify({ verdict: 'ok', prompt: request.prompt }), exitCode: 0 };
  }
}

@Module({ providers: [RecordingAgent] })
class RecordingAgentModule {}

/** The run history's files, as the step executor uses them: one line per tool call. */
const history: RunHistory = new RunFilesStore();

@Global()
@Module({ providers: [{ provide: RUN_HISTORY, useValue: history }], exports: [RUN_HISTORY] })
class HistoryReaderModule {}

describe('agent steps, Nest-wired', () => {
  let service: WorkflowService;
  let agent: RecordingAgent;
  let dir: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const app = await Test.createTestingModule({
      imports: [ProjectConfigModule.forRoot(), CoreModule, HistoryReaderModule, WorkflowModule, RecordingAgentModule],
    }).compile();
    await app.init();
    service = app.get(WorkflowService);
    agent = app.get(RecordingAgent);
    close = () => app.close();
  });
  afterAll(() => close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'awf-agent-step-'));
    agent.requests = [];
    agent.configs = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(yaml: string): Promise<RunReport> {
    writeFileSync(join(dir, 'wf.yaml'), yaml);
    return await service.run({
      target: join(dir, 'wf.yaml'),
      inputs: {},
      signal: new AbortController().signal,
      cwd: dir,
      env: { GREETING: 'hi' },
      runsDir: join(dir, 'runs'),
    });
  }

  it('hands the agent the proxy, interpolated prompt and options, and counts its tool calls', async () => {
    const report = await run(`
name: review
states:
  initial: review
  review:
    type: agent
    provider: recording
    prompt: '{{.env.GREETING}} from {{.workflow.Name}}'
    options: {model: sonnet, note: '{{.env.GREETING}}'}
    mcp_proxy: {enable: true}
    on_success: verdict
  verdict: {type: step, command: 'echo {{.states.review.Response.verdict}}', on_success: done}
  done: {type: terminal}
`);
    expect(report.status).toBe('success');
    expect(report.steps.map((s) => [s.name, s.tool_calls])).toEqual([
      ['review', 2],
      ['verdict', 0],
    ]);
    expect(report.steps[1].output).toBe('ok\n');
    const [request] = agent.requests;
    expect(request).toMatchObject({
      prompt: 'hi from review',
      options: { model: 'sonnet', note: 'hi' },
      cwd: dir,
      workflow: 'review',
      step: 'review',
    });
    expect(request.proxy).toMatchObject({ command: process.execPath });
    expect(request.proxy!.args).toEqual([
      '--max-semi-space-size=4',
      expect.stringMatching(/dist\/main\.js$/),
      'mcp-serve',
      `--config=${request.proxy!.configPath}`,
    ]);
    expect(agent.configs[0]).toMatchObject({
      intercept_builtins: true,
      root_dir: dir,
      step: 'review',
      run_id: report.run_id,
      owner_pid: process.pid,
    });
    expect(existsSync(request.proxy!.configPath)).toBe(false);
  });

  it('gives no proxy when mcp_proxy is absent or disabled', async () => {
    await run(`
name: plain
states:
  initial: a
  a: {type: agent, provider: recording, prompt: p, mcp_proxy: {enable: false}, on_success: done}
  done: {type: terminal}
`);
    expect(agent.requests[0].proxy).toBeUndefined();
  });

  it('routes an agent failure through on_failure without evaluating transitions, and removes the config', async () => {
    const report = await run(`
name: failing
states:
  initial: a
  a:
    type: agent
    provider: recording
    prompt: p
    options: {fail: true}
    mcp_proxy: {enable: true}
    transitions: [{goto: wrong}]
    on_failure: handled
  wrong: {type: terminal}
  handled: {type: terminal, status: failure, message: 'handled {{.states.a.ExitCode}}'}
`);
    expect(report).toMatchObject({ terminal: 'handled', error: { message: 'handled 1' } });
    expect(report.steps[0]).toMatchObject({
      status: 'failure',
      tool_calls: 2,
      error: { code: 'EXECUTION.AGENT.FAILED', message: 'step "a": agent gave up' },
    });
    expect(existsSync(agent.requests[0].proxy!.configPath)).toBe(false);
  });

  it('fails the step before the agent starts when the proxy is refused, and follows on_failure', async () => {
    const report = await run(`
name: refused
states:
  initial: a
  a: {type: agent, provider: recording, prompt: p, dir: ${join(dir, 'missing')}, mcp_proxy: {enable: true}, on_success: done, on_failure: refused}
  done: {type: terminal}
  refused: {type: terminal, status: failure, message: proxy refused}
`);
    expect(agent.requests).toEqual([]);
    expect(report.steps[0]).toMatchObject({ status: 'failure', error: { code: 'USER.MCP_PROXY.INVALID_CONFIG' } });
    expect(report.terminal).toBe('refused');
  });
});
