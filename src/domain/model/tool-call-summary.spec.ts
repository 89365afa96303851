import { formatToolCallSummary, summarizeToolCalls } from './tool-call-summary';

const call = (tool: string, duration_ms: number, status: 'ok' | 'error' = 'ok') => ({ tool, source: 'builtin', start: '', duration_ms, status, args_shape: {} });

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
