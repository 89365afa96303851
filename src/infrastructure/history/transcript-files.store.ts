import { closeSync, fchmodSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { NewTranscriptEvent, TranscriptEvent } from '../../domain/model/transcript-event';
import type { TranscriptSink, TranscriptStore } from '../../domain/ports/transcript-store.port';
import { storageRoot } from './run-files.store';

const SUFFIX = '.jsonl';
const ID_PREFIX = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Transcripts as JSON Lines under `<storage>/transcripts/` (directory 0700, files 0600). Each
 * event is one `write` on an `O_APPEND` descriptor, so a killed run leaves whole lines only.
 * The root is read per call unless fixed ($AWF_STORAGE, which `--storage` sets).
 */
export class TranscriptFilesStore implements TranscriptStore {
  constructor(private readonly fixedRoot?: string) {}

  private get dir(): string {
    return this.fixedRoot ?? join(storageRoot(), 'transcripts');
  }

  pathOf(runId: string): string {
    if (!ID_PREFIX.test(runId)) throw notFound(runId, this.dir);
    return join(this.dir, `${runId}${SUFFIX}`);
  }

  open(runId: string, options: { mirror?: string; warn?: (message: string) => void } = {}): TranscriptSink {
    const warn = options.warn ?? (() => undefined);
    const path = this.pathOf(runId);
    const fds: number[] = [];
    const before = existing(path);
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      fds.push(openPrivate(path));
      // A run killed mid-line left a torn line: the next one starts on a line of its own.
      if (before && !before.endsWith('\n')) writeSync(fds[0], '\n');
    } catch (err) {
      warn(`the transcript ${path} cannot be written (${(err as Error).message}); the run goes on without it`);
    }
    if (options.mirror) {
      try {
        fds.push(openPrivate(options.mirror));
      } catch (err) {
        warn(`--debug-transcript-mirror ${options.mirror} cannot be written (${(err as Error).message})`);
      }
    }
    return new FileSink(fds, lastSeq(before), warn);
  }

  resolve(idOrPrefix: string): string {
    if (!ID_PREFIX.test(idOrPrefix)) throw notFound(idOrPrefix, this.dir);
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      names = [];
    }
    const ids = names
      .filter((n) => n.endsWith(SUFFIX) && n.startsWith(idOrPrefix))
      .map((n) => n.slice(0, -SUFFIX.length));
    if (ids.includes(idOrPrefix)) return idOrPrefix;
    if (ids.length === 1) return ids[0];
    if (ids.length === 0) throw notFound(idOrPrefix, this.dir);
    throw new AwfError(
      ErrorCodes.RUN_AMBIGUOUS_ID,
      `"${idOrPrefix}" matches more than one transcript: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`,
      { prefix: idOrPrefix, matches: ids.slice(0, 5) },
      'Give more characters of the run id.',
    );
  }

  read(runId: string): TranscriptEvent[] {
    return parseLines(readFileSync(this.pathOf(runId), 'utf8'));
  }

  /** With the transcripts of its called workflows' runs, found through their `child_run_id`. */
  remove(runId: string): void {
    const path = this.pathOf(runId);
    const children = parseLines(existing(path) ?? '').flatMap((e) => (e.child_run_id ? [e.child_run_id] : []));
    rmSync(path, { force: true });
    for (const child of new Set(children)) if (ID_PREFIX.test(child)) this.remove(child);
  }
}

class FileSink implements TranscriptSink {
  private failed = false;

  constructor(
    private readonly fds: number[],
    private seq: number,
    private readonly warn: (message: string) => void,
  ) {}

  append(event: NewTranscriptEvent): void {
    if (this.fds.length === 0) return;
    const line = `${JSON.stringify({ seq: ++this.seq, ...event })}\n`;
    for (const fd of this.fds) {
      try {
        writeSync(fd, line);
      } catch (err) {
        if (!this.failed) this.warn(`a transcript line could not be written (${(err as Error).message})`);
        this.failed = true;
      }
    }
  }

  close(): void {
    for (const fd of this.fds.splice(0)) closeSync(fd);
  }
}

function openPrivate(path: string): number {
  const fd = openSync(path, 'a', 0o600);
  fchmodSync(fd, 0o600);
  return fd;
}

function existing(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Where a resumed run's numbering goes on: the last whole line's `seq`, 0 for a new file. */
function lastSeq(text: string | undefined): number {
  return parseLines(text ?? '').reduce((max, e) => Math.max(max, e.seq), 0);
}

function parseLines(text: string): TranscriptEvent[] {
  return text.split('\n').flatMap((line) => {
    if (!line.trim()) return [];
    try {
      const event = JSON.parse(line) as TranscriptEvent;
      return typeof event?.seq === 'number' && typeof event.type === 'string' ? [event] : [];
    } catch {
      return [];
    }
  });
}

function notFound(runId: string, dir: string): AwfError {
  return new AwfError(
    ErrorCodes.RUN_NOT_FOUND,
    `no transcript for run "${runId}" in ${dir}`,
    { run_id: runId, transcripts_dir: dir },
    'Use the id `awf run` printed (`awf history` lists runs); a single step run with `-s` keeps no transcript.',
  );
}
