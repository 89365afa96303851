import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** AWF's Logs tab shows the last 200 lines first, then follows. */
export const FIRST_LINES = 200;

/** Where the audit lines come from: one file (AWF_AUDIT_LOG), or every step's trail in a run's directory. */
export type AuditSource = { file: string } | { dir: string };

export interface TailBatch {
  lines: string[];
  /** Set when a file shrank or went away since the last poll (rotated, truncated, pruned). */
  notice?: string;
}

/**
 * Follows audit JSON Lines by byte offset, polled by the Logs tab: the first poll gives the
 * last FIRST_LINES lines of what is there, later polls what was appended since. Only whole
 * lines are given; a file that shrinks is read again from its start, with a notice.
 */
export class AuditTail {
  private readonly offsets = new Map<string, number>();
  private first = true;

  constructor(readonly source: AuditSource) {}

  poll(): TailBatch {
    const lines: string[] = [];
    let notice: string | undefined;
    const files = this.files();
    for (const [file, seen] of this.offsets) {
      if (!files.includes(file)) {
        this.offsets.delete(file);
        notice = `${file} was removed; waiting for it to come back`;
      } else if (statSync(file).size < seen) {
        this.offsets.set(file, 0);
        notice = `${file} was truncated or rotated; reading it from its start`;
      }
    }
    for (const file of files) lines.push(...this.readNew(file));
    if (this.first) {
      this.first = false;
      return { lines: lines.sort(byTime).slice(-FIRST_LINES), notice };
    }
    return { lines: lines.sort(byTime), notice };
  }

  private files(): string[] {
    if ('file' in this.source) return existsSync(this.source.file) ? [this.source.file] : [];
    const dir = this.source.dir;
    if (!existsSync(dir)) return [];
    // A step's current trail; the `<step>.before-<ms>.events.jsonl` of earlier attempts are not followed.
    return readdirSync(dir)
      .filter((f) => f.endsWith('.events.jsonl') && !f.includes('.before-'))
      .sort()
      .map((f) => join(dir, f));
  }

  private readNew(file: string): string[] {
    const from = this.offsets.get(file) ?? 0;
    const size = statSync(file).size;
    if (size <= from) return [];
    const buffer = Buffer.alloc(size - from);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, from);
    } finally {
      closeSync(fd);
    }
    const end = buffer.lastIndexOf(0x0a) + 1;
    this.offsets.set(file, from + end);
    return buffer.subarray(0, end).toString('utf8').split('\n').filter(Boolean);
  }
}

/** Lines from several steps' files, in the order their calls started. */
function byTime(a: string, b: string): number {
  return startOf(a).localeCompare(startOf(b));
}

function startOf(line: string): string {
  return /"start":"([^"]*)"/.exec(line)?.[1] ?? '';
}
