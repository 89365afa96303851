import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../../src/domain/workflow/run-report.model';
import { wiredWorkflowService } from '../../support/wired-workflow-service';

describe('WorkflowService.run, Nest-wired, real shell', () => {
  let dir: string;

  const wired = wiredWorkflowService();
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'awf-runner-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(
    yaml: string,
    inputs: Record<string, string> = {},
    signal = new AbortController().signal,
  ): Promise<RunReport> {
    const file = join(dir, 'wf.yaml');
    writeFileSync(file, yaml);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    return await wired.service.run({ target: file, inputs, signal, cwd: dir, env, runsDir: join(dir, 'runs') });
  }
  const names = (r: RunReport) => r.steps.map((s) => `${s.name}:${s.status}`);

  it('routes by transitions on success and on failure, and passes inputs as env vars', async () => {
    const report = await run(`
name: routes
inputs: [{name: mode, default: fast}]
states:
  initial: probe
  probe:
    type: step
    command: 'echo "$mode"; exit 4'
    transitions:
      - when: states.probe.ExitCode == 4 and inputs.mode == 'fast'
        goto: fast
      - goto: slow
  fast:
    type: step
    command: printf '%s' {{escape (trimSpace .states.probe.Output)}}
    on_success: done
  slow: {type: step, command: 'true', on_success: done}
  done: {type: terminal, message: 'mode={{.states.fast.Output}}'}
`);
    expect(report).toMatchObject({ status: 'success', terminal: 'done', output: 'mode=fast' });
    expect(names(report)).toEqual(['probe:failure', 'fast:success']);
    expect(report.steps[0]).toMatchObject({ exit_code: 4, output: 'fast\n', tool_calls: 0 });
  });

  it('follows on_failure, continue_on_error, and the inline on_failure terminal', async () => {
    const report = await run(`
name: failures
states:
  initial: a
  a: {type: step, command: 'exit 1', continue_on_error: true, on_success: b, on_failure: never}
  b: {type: step, command: 'exit 2', on_success: never, on_failure: {message: 'b broke with {{.states.b.ExitCode}}'}}
  never: {type: terminal}
`);
    expect(names(report)).toEqual(['a:failure', 'b:failure']);
    expect(report).toMatchObject({
      status: 'failure',
      terminal: '__inline_error_b',
      error: { code: 'EXECUTION.WORKFLOW.TERMINAL_FAILURE', message: 'b broke with 2' },
    });
  });

  it('fails the run with the step error when a failed step has no route', async () => {
    const report = await run(`
name: unrouted
states:
  initial: a
  a: {type: step, command: 'echo nope >&2; exit 7', on_success: done}
  done: {type: terminal}
`);
    expect(report).toMatchObject({
      status: 'failure',
      error: { code: 'EXECUTION.STEP.FAILED', message: 'step "a" failed (exit code 7): nope' },
    });
  });

  it('a command the shell cannot find (127) or run (126) gets a hint, as in AWF', async () => {
    const oneStep = (command: string) =>
      run(
        `name: one\nstates:\n  initial: a\n  a: {type: step, command: '${command}', on_success: done}\n  done: {type: terminal}\n`,
      );
    expect((await oneStep('awf-no-such-command-xyz --flag')).error).toMatchObject({
      code: 'EXECUTION.STEP.FAILED',
      message: expect.stringContaining('(exit code 127)'),
      hint: 'The command is not installed or not in PATH: check with `command -v awf-no-such-command-xyz`.',
    });
    writeFileSync(join(dir, 'plain.sh'), 'echo hi\n');
    expect((await oneStep('./plain.sh')).error).toMatchObject({
      message: expect.stringContaining('(exit code 126)'),
      hint: 'The command is not executable: check its permissions (`chmod +x <file>`).',
    });
  });

  it('retries a flaky command until it passes, and only on the listed exit codes', async () => {
    const counter = join(dir, 'count');
    const report = await run(`
name: flaky
states:
  initial: flaky
  flaky:
    type: step
    command: 'n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}; [ $n -ge 3 ]'
    retry: {max_attempts: 5, initial_delay: 10ms, backoff: exponential, retryable_exit_codes: [1]}
    on_success: done
  done: {type: terminal}
`);
    expect(report.status).toBe('success');
    expect(report.steps[0]).toMatchObject({ status: 'success', attempts: 3 });
    expect(readFileSync(counter, 'utf8').trim()).toBe('3');
    const noRetry = await run(`
name: fatal
states:
  initial: a
  a: {type: step, command: 'exit 9', retry: {max_attempts: 4, initial_delay: 10ms, retryable_exit_codes: [1]}, on_success: done, on_failure: done}
  done: {type: terminal}
`);
    expect(noRetry.steps[0].attempts).toBeUndefined();
  });

  it('times a step out, stopping its process, and routes the timeout like a failure', async () => {
    const report = await run(`
name: slow
states:
  initial: slow
  slow: {type: step, command: 'sleep 20', timeout: 300ms, on_success: done, on_failure: late}
  done: {type: terminal}
  late: {type: terminal, status: failure, message: too slow}
`);
    expect(report.steps[0]).toMatchObject({
      status: 'failure',
      exit_code: -1,
      error: { code: 'EXECUTION.STEP.TIMEOUT' },
    });
    expect(report.duration_ms).toBeLessThan(15_000);
    expect(report.error).toEqual({ code: 'EXECUTION.WORKFLOW.TERMINAL_FAILURE', message: 'too slow' });
  });

  it('stops at run time on a reference to a state that has not run, naming the step', async () => {
    const report = await run(`
name: forward
states:
  initial: first
  first: {type: step, command: 'echo {{.states.second.Output}}', on_success: second}
  second: {type: step, command: 'echo two', on_success: done}
  done: {type: terminal}
`);
    expect(report).toMatchObject({
      status: 'failure',
      error: {
        code: 'WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE',
        message: 'states.first.command: undefined reference .states.second',
      },
    });
  });

  it('validates before the first step: an invalid workflow runs nothing', async () => {
    const marker = join(dir, 'ran');
    await expect(
      run(`
name: invalid
states:
  initial: a
  a: {type: step, command: 'touch ${marker}', on_success: nowhere}
  b: {type: agent, provider: script, prompt: x, mcp_proxy: {enable: true, intercept_builtins: false}, on_success: a}
  z: {type: terminal}
`),
    ).rejects.toMatchObject({
      code: 'WORKFLOW.VALIDATION.MISSING_STATE',
      message: expect.stringContaining('[USER.MCP_PROXY.EMPTY_PROXY] states.b.mcp_proxy'),
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('cancels on abort: the running step is stopped and the run ends as cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const report = await run(
      `
name: cancel
states:
  initial: wait
  wait: {type: step, command: 'sleep 20', on_success: after}
  after: {type: step, command: 'touch ${join(dir, 'after')}', on_success: done}
  done: {type: terminal}
`,
      {},
      controller.signal,
    );
    expect(report.status).toBe('cancelled');
    expect(names(report)).toEqual(['wait:cancelled']);
    expect(existsSync(join(dir, 'after'))).toBe(false);
  });
});
