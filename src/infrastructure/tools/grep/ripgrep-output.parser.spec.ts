import type { GrepFileHit } from './grep-query.model';
import { byPathOrder, CountParser, JsonEventParser, type RipgrepOutputParser } from './ripgrep-output.parser';

/** Feeds `bytes` in chunks of `size`, the way a pipe may cut them. */
function parse(parser: RipgrepOutputParser, bytes: Buffer, size: number, stopAfter = Infinity): GrepFileHit[] {
  const hits: GrepFileHit[] = [];
  for (let i = 0; i < bytes.length; i += size)
    parser.push(bytes.subarray(i, i + size), (hit) => hits.push(hit) < stopAfter);
  return hits;
}

describe('ripgrep output parsers', () => {
  const counts = Buffer.from('/r/a.ts\u00003\n/r/odd:name\nwith newline.txt\u00001\n/r/é.md\u000012\n');

  it.each([1, 2, 7, 1000])(
    'reads --count --null records cut every %i bytes, newlines and colons in names included',
    (size) => {
      expect(parse(new CountParser(), counts, size).map((h) => [h.path, h.matchedLines])).toEqual([
        ['/r/a.ts', 3],
        ['/r/odd:name\nwith newline.txt', 1],
        ['/r/é.md', 12],
      ]);
    },
  );

  it('stops at the hit the caller refuses', () => {
    expect(parse(new CountParser(), counts, 5, 2)).toHaveLength(2);
  });

  const long = 'x'.repeat(200_000);
  const events = [
    { type: 'begin', data: { path: { text: '/r/a.txt' } } },
    { type: 'context', data: { lines: { text: 'before\n' }, line_number: 1 } },
    { type: 'match', data: { lines: { text: `hit ${long}\r\n` }, line_number: 2 } },
    { type: 'end', data: { path: { text: '/r/a.txt' }, binary_offset: null } },
    { type: 'begin', data: { path: { text: '/r/bin.dat' } } },
    { type: 'match', data: { lines: { text: 'hit\n' }, line_number: 1 } },
    { type: 'end', data: { path: { text: '/r/bin.dat' }, binary_offset: 9 } },
    { type: 'begin', data: { path: { bytes: Buffer.from('/r/b.txt').toString('base64') } } },
    { type: 'match', data: { lines: { text: 'one\ntwo\n' }, line_number: 5 } },
    { type: 'end', data: { path: { bytes: Buffer.from('/r/b.txt').toString('base64') }, binary_offset: null } },
    { type: 'summary', data: {} },
  ];
  const json = Buffer.from(events.map((e) => JSON.stringify(e)).join('\n') + '\n');

  it.each([3, 4096, 65_536])(
    'reads --json events cut every %i bytes, a 200 kB line included; binary files dropped',
    (size) => {
      expect(parse(new JsonEventParser(), json, size)).toEqual([
        {
          path: '/r/a.txt',
          matchedLines: 1,
          lines: [
            { line: 1, text: 'before', match: false },
            { line: 2, text: `hit ${long}`, match: true },
          ],
        },
        {
          path: '/r/b.txt',
          matchedLines: 2,
          lines: [
            { line: 5, text: 'one', match: true },
            { line: 6, text: 'two', match: true },
          ],
        },
      ]);
    },
  );

  it('puts hits in ripgrep --sort path order: by path component, bytewise', () => {
    const hit = (path: string): GrepFileHit => ({ path, lines: [], matchedLines: 1 });
    expect(
      byPathOrder(['/r/a.ts', '/r/a-b.md', '/r/b', '/r/a/z.js', '/r/B', '/r/a/b/c'].map(hit)).map((h) => h.path),
    ).toEqual(['/r/B', '/r/a/b/c', '/r/a/z.js', '/r/a-b.md', '/r/a.ts', '/r/b']);
  });
});
