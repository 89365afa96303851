import type { GrepFileHit } from './grep-query.model';

/** Turns ripgrep's stdout, chunk by chunk, into one hit per file as soon as that file is complete. */
export interface RipgrepOutputParser {
  push(chunk: Buffer, onHit: (hit: GrepFileHit) => boolean): void;
}

interface RgText {
  text?: string;
  bytes?: string;
}

interface RgEvent {
  type: 'begin' | 'match' | 'context' | 'end' | 'summary';
  data: { path?: RgText; lines?: RgText; line_number?: number; binary_offset?: number | null };
}

const NEWLINE = 0x0a;
const NUL = 0x00;

/**
 * `--json` events (content mode, multiline, a single named file). ripgrep prints a file's
 * events in one piece even when it searches in parallel, so a file ends at its `end` event.
 * A file whose `end` carries a binary offset is dropped, as the JS engine drops it.
 */
export class JsonEventParser implements RipgrepOutputParser {
  /** Chunks of an unfinished line; joined once its newline arrives, so a 10 MB line is copied once. */
  private pending: Buffer[] = [];
  private current: Map<number, { text: string; match: boolean }> | undefined;
  private done = false;

  push(chunk: Buffer, onHit: (hit: GrepFileHit) => boolean): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1 && !this.done; nl = chunk.indexOf(NEWLINE, start)) {
      const line = this.pending.length
        ? Buffer.concat([...this.pending, chunk.subarray(start, nl)])
        : chunk.subarray(start, nl);
      this.pending = [];
      start = nl + 1;
      const hit = this.event(JSON.parse(line.toString('utf8')) as RgEvent);
      if (hit && !onHit(hit)) this.done = true;
    }
    if (!this.done && start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  private event(event: RgEvent): GrepFileHit | undefined {
    if (event.type === 'begin') this.current = new Map();
    else if ((event.type === 'match' || event.type === 'context') && this.current) {
      const texts = decode(event.data.lines).split('\n');
      if (texts[texts.length - 1] === '') texts.pop();
      texts.forEach((text, i) => {
        const n = (event.data.line_number ?? 0) + i;
        if (!this.current!.get(n)?.match)
          this.current!.set(n, { text: text.replace(/\r$/, ''), match: event.type === 'match' });
      });
    } else if (event.type === 'end' && this.current) {
      const lines = this.current;
      this.current = undefined;
      if (event.data.binary_offset != null) return undefined;
      return toHit(decode(event.data.path), lines);
    }
    return undefined;
  }
}

/**
 * `--count --null` records, `path NUL count LF`: what files_with_matches and count need,
 * without ripgrep encoding every matching line as JSON. Reading up to the NUL first keeps a
 * path holding a newline intact.
 */
export class CountParser implements RipgrepOutputParser {
  private rest: Buffer = Buffer.alloc(0);
  private done = false;

  push(chunk: Buffer, onHit: (hit: GrepFileHit) => boolean): void {
    const data = this.rest.length ? Buffer.concat([this.rest, chunk]) : chunk;
    let start = 0;
    while (!this.done) {
      const nul = data.indexOf(NUL, start);
      const nl = nul === -1 ? -1 : data.indexOf(NEWLINE, nul);
      if (nl === -1) break;
      const hit = {
        path: data.toString('utf8', start, nul),
        lines: [],
        matchedLines: Number(data.toString('latin1', nul + 1, nl)),
      };
      start = nl + 1;
      if (!onHit(hit)) this.done = true;
    }
    this.rest = this.done ? Buffer.alloc(0) : data.subarray(start);
  }
}

function decode(value: RgText | undefined): string {
  if (!value) return '';
  return value.text ?? Buffer.from(value.bytes ?? '', 'base64').toString('utf8');
}

function toHit(path: string, lines: Map<number, { text: string; match: boolean }>): GrepFileHit | undefined {
  const sorted = [...lines.entries()]
    .sort(([a], [b]) => a - b)
    .map(([line, l]) => ({ line, text: l.text, match: l.match }));
  const matchedLines = sorted.filter((l) => l.match).length;
  return matchedLines > 0 ? { path, lines: sorted, matchedLines } : undefined;
}

/**
 * ripgrep's `--sort path` order for whole paths: component by component, bytewise, which is
 * a plain byte comparison once `/` sorts below every other byte.
 */
export function byPathOrder(hits: GrepFileHit[]): GrepFileHit[] {
  const keyed = hits.map((hit) => ({ hit, key: Buffer.from(hit.path.replaceAll('/', '\0')) }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  return keyed.map((k) => k.hit);
}
