import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { NativeToolUse } from '../../domain/ports/agent-provider.port';
import type { ToolUseReader } from './cli-agent.provider';
import { codexNativeToolUse, codexRecordToolCall, codexRecordToolOutput } from './native-tool-uses';
import { asRecord, type JsonEvent } from './ndjson';

/** How often the record is read while Codex runs: a strict step stops within about this long. */
const POLL_MS = 50;
const CHUNK = 64 * 1024;

export interface CodexSessionRecordOptions {
  /** `$CODEX_HOME` as Codex sees it (default `~/.codex`). */
  codexHome: string;
  serverName: string;
  /** Known up front when resuming; else read from the stream's `thread.started`. */
  threadId?: string;
  /** Epoch ms when the run began: older entries (a resumed thread's earlier turns) are not this run's. */
  since: number;
  report(use: NativeToolUse): void;
}

/**
 * Codex's native tool uses for one run (ADR 172). `exec --json` leaves out a command its sandbox
 * refused within its first 150 ms (no `command_execution` item: codex treats it as a denial, not a
 * run, though the command did run and its output reached the model), so the source is Codex's own
 * session record, which has every call the model made. It is read as Codex writes it, and once more
 * when Codex is gone. The stream is the source only when no record exists at the first tool use
 * (`--ephemeral`, history off): one source per run, so no use counts twice.
 */
export class CodexSessionRecordWatch implements ToolUseReader {
  private source: 'record' | 'stream' | undefined;
  private threadId: string | undefined;
  private record: { fd: number; offset: number; rest: string; decoder: StringDecoder } | undefined;
  private readonly calls = new Map<string, NativeToolUse>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly o: CodexSessionRecordOptions) {
    this.threadId = o.threadId;
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.timer.unref();
  }

  line(event: JsonEvent): void {
    if (event.type === 'thread.started' && typeof event.thread_id === 'string') this.threadId ??= event.thread_id;
    const use = codexNativeToolUse(event, this.o.serverName);
    if (!use) return;
    if (this.source === undefined) {
      this.poll();
      this.source ??= 'stream';
    }
    if (this.source === 'stream') this.o.report(use);
  }

  finish(): void {
    clearInterval(this.timer);
    this.poll();
    if (this.record) closeSync(this.record.fd);
    this.record = undefined;
  }

  private poll(): void {
    if (this.source === 'stream' || this.threadId === undefined) return;
    try {
      if (!this.record) {
        // A resumed thread's record may be from any day; a new one's is from today or yesterday.
        const path = findSessionRecord(this.o.codexHome, this.threadId, this.o.threadId ? Infinity : 2);
        if (!path) return;
        this.record = { fd: openSync(path, 'r'), offset: 0, rest: '', decoder: new StringDecoder('utf8') };
        this.source = 'record';
      }
      this.drain(this.record);
    } catch {
      // A record we cannot read now is read again at the next poll, and at the end.
    }
  }

  private drain(record: NonNullable<CodexSessionRecordWatch['record']>): void {
    const buffer = Buffer.alloc(CHUNK);
    for (;;) {
      const n = readSync(record.fd, buffer, 0, CHUNK, record.offset);
      if (n === 0) return;
      record.offset += n;
      const lines = (record.rest + record.decoder.write(buffer.subarray(0, n))).split('\n');
      record.rest = lines.pop() ?? '';
      for (const line of lines) this.entry(line);
    }
  }

  private entry(line: string): void {
    let entry: JsonEvent;
    try {
      entry = asRecord(JSON.parse(line));
    } catch {
      return;
    }
    const call = codexRecordToolCall(entry, this.o.serverName, this.o.since);
    if (call) {
      this.calls.set(call.id, call);
      return this.o.report(call);
    }
    const output = codexRecordToolOutput(entry);
    const known = output && this.calls.get(output.id);
    if (known) this.o.report({ ...known, status: output.status, endedAt: Date.now() });
  }
}

/**
 * `sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl` under Codex's home. A new thread is in one of
 * the two newest day directories (a run can cross midnight); a resumed one may be older.
 */
export function findSessionRecord(codexHome: string, threadId: string, days = 2): string | undefined {
  const suffix = `-${threadId}.jsonl`;
  let seen = 0;
  const newestFirst = (dir: string) =>
    readdirSync(dir)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
  try {
    for (const year of newestFirst(join(codexHome, 'sessions'))) {
      for (const month of newestFirst(join(codexHome, 'sessions', year))) {
        for (const day of newestFirst(join(codexHome, 'sessions', year, month))) {
          const dir = join(codexHome, 'sessions', year, month, day);
          const hit = readdirSync(dir).find((name) => name.endsWith(suffix));
          if (hit) return join(dir, hit);
          if (++seen >= days) return undefined;
        }
      }
    }
  } catch {
    // No sessions directory yet: Codex writes it with the thread's first entry.
  }
  return undefined;
}
