import { argsShape, errorSummary, withoutArgValues } from './args-shape';
import { outcomeOf } from './tool-call-outcome';

describe('argsShape', () => {
  it('keeps names and sizes, never values', () => {
    const shape = argsShape({
      file_path: '/etc/passwd',
      limit: 20,
      edits: [1, 2, 3],
      replace_all: false,
      meta: { a: 1 },
      none: null,
    });
    expect(shape).toEqual({
      file_path: 11,
      limit: 'number',
      edits: 3,
      replace_all: 'boolean',
      meta: 'object',
      none: 'null',
    });
    expect(JSON.stringify(shape)).not.toContain('passwd');
  });

  it('summarises argument objects with very many keys', () => {
    const args = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v']));
    const shape = argsShape(args);
    expect(Object.keys(shape)).toHaveLength(33);
    expect(shape['…']).toBe('8 more keys');
  });
});

describe('errorSummary', () => {
  it('trims and cuts long messages with an ellipsis', () => {
    expect(errorSummary('  short  ')).toBe('short');
    const cut = errorSummary('x'.repeat(600));
    expect(cut).toHaveLength(500);
    expect(cut.endsWith('…')).toBe(true);
  });
});

describe('withoutArgValues', () => {
  it('replaces every argument value in an error text by the argument name, longest first', () => {
    const args = { file_path: 'ARGSENT-missing-3.txt', pattern: 'ARGSENT', paths: ['secret/a.md'], n: 5, x: 'ab' };
    expect(withoutArgValues('ARGSENT-missing-3.txt does not exist', args)).toBe('<file_path> does not exist');
    expect(withoutArgValues('Grep: ARGSENT in secret/a.md: ab', args)).toBe('Grep: <pattern> in <paths>: ab');
  });

  it('leaves the deciding policy rule as written, while the argument stays masked around it', () => {
    const rule = 'step work: paths.deny "notes.txt"';
    const text = `reading notes.txt is not allowed.\nDecided by: ${rule}. Retry notes.txt later`;
    expect(withoutArgValues(text, { file_path: 'notes.txt' }, rule)).toBe(
      `reading <file_path> is not allowed.\nDecided by: ${rule}. Retry <file_path> later`,
    );
    expect(withoutArgValues(text, { file_path: 'notes.txt' })).toContain('paths.deny "<file_path>"');
  });

  it('is what the log line, the span and the audit line get as the error (outcomeOf)', () => {
    const result = {
      isError: true,
      content: [{ type: 'text' as const, text: 'Read: /tmp/p/ARGSENT.txt does not exist' }],
    };
    expect(outcomeOf(result, { file_path: '/tmp/p/ARGSENT.txt' })).toEqual({
      status: 'error',
      error: 'Read: <file_path> does not exist',
    });
  });
});
