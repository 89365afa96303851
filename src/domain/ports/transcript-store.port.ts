import type { NewTranscriptEvent, TranscriptEvent } from '../model/transcript-event';

/** An open transcript: numbers each event (`seq`) and appends it; never throws. */
export interface TranscriptSink {
  append(event: NewTranscriptEvent): void;
  close(): void;
}

/**
 * The runs' transcripts, `<storage>/transcripts/<run_id>.jsonl` (mode 0600, append-only).
 *
 * - `open` appends to the run's file (a resumed run goes on numbering where it stopped) and,
 *   with `mirror`, to that file too (`--debug-transcript-mirror`). A file that cannot be opened
 *   gives a sink that writes nothing and warns once through `warn`: a transcript must not stop a run.
 * - `resolve` maps a run id or a unique prefix of one to the id of a transcript:
 *   `USER.RUN.NOT_FOUND`, `USER.RUN.AMBIGUOUS_ID`.
 * - `read` gives the events in file order; lines that do not parse (a torn last line) are skipped.
 * - `remove` deletes a run's transcript, if there is one, and those of its called workflows' runs
 *   (`awf runs prune`).
 */
export interface TranscriptStore {
  open(runId: string, options?: { mirror?: string; warn?: (message: string) => void }): TranscriptSink;
  resolve(idOrPrefix: string): string;
  read(runId: string): TranscriptEvent[];
  pathOf(runId: string): string;
  remove(runId: string): void;
}

export const TRANSCRIPT_STORE = Symbol.for('awf.TranscriptStore');
