import { NativeToolWatch } from './native-tool-watch';

describe('NativeToolWatch', () => {
  const shell = { tool: 'command_execution', id: 'item_1', argsShape: { command: 12 } };

  it('merges the start and the end of one use, and records it as bypassed (audit mode)', () => {
    const watch = new NativeToolWatch('codex', undefined);
    watch.report({ ...shell, status: 'running' });
    watch.report({ ...shell, status: 'error' });
    watch.report({ tool: 'bash', id: 'c2', argsShape: {}, status: 'ok', startedAt: 1_000, endedAt: 1_250 });
    expect(watch.count).toBe(2);
    expect(watch.signal.aborted).toBe(false);
    expect(watch.failure('build')).toBeUndefined();
    const [first, second] = watch.events('r1', 'build');
    expect(first).toMatchObject({
      run_id: 'r1',
      step: 'build',
      tool: 'command_execution',
      source: 'native:codex',
      status: 'error',
      args_shape: { command: 12 },
      policy: { decision: 'bypassed' },
    });
    expect(second).toMatchObject({ start: new Date(1_000).toISOString(), duration_ms: 250, status: 'ok' });
  });

  it('stops the agent at the first use when the policy is strict, and names the rule in the coded failure', () => {
    const watch = new NativeToolWatch('opencode', 'step build: enforce "strict"');
    expect(watch.failure('build')).toBeUndefined();
    watch.report({ tool: 'bash', id: 'c1', argsShape: {}, status: 'ok' });
    expect(watch.signal.aborted).toBe(true);
    const failure = watch.failure('build')!;
    expect(failure.code).toBe('EXECUTION.POLICY.BYPASSED');
    expect(failure.exitCode).toBe(3);
    expect(failure.message).toBe(
      'step "build": opencode used its own tool bash around the proxy, and the step\'s policy is strict ' +
        '(step build: enforce "strict"); the agent was stopped',
    );
    expect(watch.events('r1', 'build')[0].policy).toEqual({
      decision: 'bypassed',
      rule: 'step build: enforce "strict"',
    });
  });
});
