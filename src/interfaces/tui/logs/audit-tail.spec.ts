import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditTail, FIRST_LINES } from './audit-tail';

const at = (second: number, tool: string) =>
  `${JSON.stringify({ tool, start: `2026-12-04T10:00:${String(second).padStart(2, '0')}.000Z` })}\n`;

describe('AuditTail', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'awf-tail-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("merges a run's step trails by start time, skips earlier attempts, and waits for a line's end", () => {
    writeFileSync(join(dir, 'a.events.jsonl'), at(1, 'Read') + at(3, 'Grep'));
    writeFileSync(join(dir, 'b.events.jsonl'), at(2, 'Glob'));
    writeFileSync(join(dir, 'a.before-17.events.jsonl'), at(0, 'Old'));
    const tail = new AuditTail({ dir });
    expect(tail.poll().lines.map((l) => JSON.parse(l).tool)).toEqual(['Read', 'Glob', 'Grep']);
    appendFileSync(join(dir, 'b.events.jsonl'), at(4, 'Bash').slice(0, 10));
    expect(tail.poll().lines).toEqual([]);
    appendFileSync(join(dir, 'b.events.jsonl'), at(4, 'Bash').slice(10));
    writeFileSync(join(dir, 'c.events.jsonl'), at(5, 'Write')); // a step that starts later
    expect(tail.poll().lines.map((l) => JSON.parse(l).tool)).toEqual(['Bash', 'Write']);
  });

  it(`starts with the last ${FIRST_LINES} lines, then says when the file is removed and when it shrinks`, () => {
    const file = join(dir, 'audit.jsonl');
    writeFileSync(file, Array.from({ length: FIRST_LINES + 5 }, (_, i) => `{"n":${i}}\n`).join(''));
    const tail = new AuditTail({ file });
    const first = tail.poll().lines;
    expect([first.length, first[0]]).toEqual([FIRST_LINES, '{"n":5}']);
    rmSync(file);
    expect(tail.poll().notice).toMatch(/was removed/);
    writeFileSync(file, '{"n":"again"}\n');
    expect(tail.poll().lines).toEqual(['{"n":"again"}']);
    writeFileSync(file, '{}\n');
    expect(tail.poll()).toEqual({
      lines: ['{}'],
      notice: `${file} was truncated or rotated; reading it from its start`,
    });
  });
});
