import { meetsExpectation, parseScriptCalls } from './script-calls';

describe('script agent calls', () => {
  it('parses tool, args and the expect forms', () => {
    expect(
      parseScriptCalls(
        {
          calls: [
            { tool: 'Read', args: { file_path: 'a' } },
            { tool: 'Grep', expect: 'TODO' },
            { tool: 'Bash', expect: { is_error: true, contains: 'exit' } },
          ],
        },
        's',
      ),
    ).toEqual([
      { tool: 'Read', args: { file_path: 'a' }, expect: { is_error: false } },
      { tool: 'Grep', args: {}, expect: { is_error: false, contains: ['TODO'] } },
      {
        tool: 'Bash',
        args: {},
        expect: { is_error: true, contains: ['exit'], not_contains: undefined, matches: undefined },
      },
    ]);
  });

  it('refuses a missing or malformed call list, naming the step', () => {
    expect(() => parseScriptCalls({}, 'probe')).toThrow(/states\.probe\.options\.calls: a non-empty list/);
    expect(() => parseScriptCalls({ calls: [{ args: {} }] }, 'probe')).toThrow(/entry 1 needs a tool name/);
    expect(() => parseScriptCalls({ calls: [{ tool: 'X', args: [1] }] }, 'probe')).toThrow(/args must be a mapping/);
  });

  it('fails a call that errored unless an error was expected, and checks the text', () => {
    const call = (expect: unknown) => parseScriptCalls({ calls: [{ tool: 'T', expect }] }, 's')[0];
    expect(meetsExpectation(call(undefined), { tool: 'T', is_error: true, text: 'boom' })).toBe('failed: boom');
    expect(meetsExpectation(call({ is_error: true }), { tool: 'T', is_error: false, text: 'ok' })).toBe(
      'succeeded but was expected to fail',
    );
    expect(meetsExpectation(call('needle'), { tool: 'T', is_error: false, text: 'haystack' })).toBe(
      'output does not contain "needle"',
    );
    expect(meetsExpectation(call({ not_contains: 'secret' }), { tool: 'T', is_error: false, text: 'a secret' })).toBe(
      'output contains "secret"',
    );
    expect(
      meetsExpectation(call({ matches: '^\\d+ files?$' }), { tool: 'T', is_error: false, text: '3 files' }),
    ).toBeUndefined();
  });
});
