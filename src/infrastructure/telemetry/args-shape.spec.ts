import { argsShape, errorSummary } from './args-shape';

describe('argsShape', () => {
  it('keeps names and sizes, never values', () => {
    const shape = argsShape({ file_path: '/etc/passwd', limit: 20, edits: [1, 2, 3], replace_all: false, meta: { a: 1 }, none: null });
    expect(shape).toEqual({ file_path: 11, limit: 'number', edits: 3, replace_all: 'boolean', meta: 'object', none: 'null' });
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
