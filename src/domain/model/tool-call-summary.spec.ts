import { formatToolCallSummary, summarizeToolCalls } from './tool-call-summary';

const call = (tool: string, duration_ms: number, status: 'ok' | 'error' = 'ok') => ({
  tool,
  source: 'builtin',
  start: '',
  duration_ms,
  status,
  args_shape: {},
});

describe('summarizeToolCalls', () => {
  it('counts calls and errors and names the slowest tool', () => {
    const summary = summarizeToolCalls([call('Read', 3), call('Bash', 830, 'error'), call('Grep', 12)]);
    expect(summary).toEqual({ calls: 3, errors: 1, slowest: { tool: 'Bash', duration_ms: 830 } });
    expect(formatToolCallSummary(summary)).toBe('3 tool calls, 1 error, slowest Bash 830 ms');
  });

  it('says so when a step called no tool', () => {
    expect(summarizeToolCalls([])).toEqual({ calls: 0, errors: 0 });
    expect(formatToolCallSummary(summarizeToolCalls([]))).toBe('no tool calls');
  });
});

describe('the policy in a step summary', () => {
  it('counts what the policy did not simply allow', () => {
    const events = [
      { ...call('Read', 1), policy: { decision: 'allowed' as const } },
      {
        ...call('Bash', 2, 'error'),
        policy: { decision: 'denied' as const, code: 'POLICY.TOOL_DENIED' as const, rule: 'step s: tools.deny "Bash"' },
      },
      { ...call('Write', 3), policy: { decision: 'approved' as const, rule: 'step s: approve "Write" (person)' } },
      { ...call('Edit', 1, 'error'), policy: { decision: 'denied' as const } },
    ];
    const summary = summarizeToolCalls(events);
    expect(summary.policy).toEqual({ denied: 2, approved: 1 });
    expect(formatToolCallSummary(summary)).toBe(
      '4 tool calls, 2 errors, slowest Write 3 ms, policy 2 denied, 1 approved',
    );
  });
});
