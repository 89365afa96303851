import type { Readable, Writable } from 'node:stream';
import { JsonRpcErrorCode, toJsonRpcMessage, type JsonRpcFrame, type JsonRpcMessage, type RequestId } from './json-rpc';

/** The SDK's own stdio cap; a frame above it is refused, not buffered. */
export const DEFAULT_MAX_FRAME_BYTES = 10 * 1024 * 1024;
/**
 * Output buffered for a client that does not read it, beyond which no more input is read:
 * memory stays bounded, and a client that writes everything before it reads still gets through.
 */
const OUTPUT_BACKLOG_BYTES = 8 * 1024 * 1024;
/** How much of an oversized or broken frame is kept to find its id. */
const PEEK_BYTES = 512;
const ID = String.raw`(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\\r\n]|\\.)*")`;
const ID_AT_HEAD = new RegExp(String.raw`^\uFEFF?\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"]*"\s*,\s*)?"id"\s*:\s*${ID}\s*[,}]`);
const ID_AT_TAIL = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

export interface StdioLineTransportOptions {
  maxFrameBytes?: number;
  /** Told about every frame that was refused or dropped, for the log. */
  onMalformed?: (reason: string) => void;
}

/**
 * MCP over stdio, one JSON-RPC message per line, for clients that misbehave. Unlike the
 * SDK's transport, a frame over the cap is skipped (the SDK closes the whole session), a
 * malformed request whose id can be read gets a JSON-RPC error (the SDK leaves the client
 * waiting forever), and a client that stops reading ends the session instead of crashing
 * the process with EPIPE.
 */
export class StdioLineTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage) => void;

  private readonly maxFrameBytes: number;
  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  private oversized?: { head: Buffer; tail: Buffer; bytes: number };
  private inputPaused = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly options: StdioLineTransportOptions = {},
  ) {
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  start(): void {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    // Stays attached after close: a late EPIPE must never become an uncaught exception.
    this.stdout.on('error', this.onStdoutError);
  }

  /**
   * Returns as soon as the frame is queued: waiting until the pipe drains would
   * keep every request alive (arguments and all) for as long as the client is slow to read.
   * Backpressure goes to the input instead: past the backlog limit, no new request is read.
   */
  send(frame: JsonRpcFrame): void {
    if (this.closed || this.stdout.destroyed || !this.stdout.writable) return;
    this.stdout.write(`${JSON.stringify(frame)}\n`);
    if (this.stdout.writableLength > OUTPUT_BACKLOG_BYTES && !this.inputPaused) {
      this.inputPaused = true;
      this.stdin.pause();
      this.stdout.once('drain', this.resumeInput);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.stdout.off('drain', this.resumeInput);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pieces = [];
    this.oversized = undefined;
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    while (!this.closed) {
      const nl = chunk.indexOf(0x0a, start);
      this.append(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) return;
      this.endOfFrame();
      start = nl + 1;
    }
  };

  private readonly resumeInput = (): void => {
    this.inputPaused = false;
    if (!this.closed) this.stdin.resume();
  };

  private readonly onStreamError = (error: Error): void => this.onerror?.(error);

  private readonly onStdoutError = (error: Error): void => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.oversized) {
      this.oversized.bytes += part.length;
      this.oversized.tail = lastBytes(Buffer.concat([this.oversized.tail, lastBytes(part, PEEK_BYTES)]), PEEK_BYTES);
      return;
    }
    if (this.pendingBytes + part.length <= this.maxFrameBytes) {
      this.pieces.push(part);
      this.pendingBytes += part.length;
      return;
    }
    const all = Buffer.concat([...this.pieces, part]);
    this.oversized = {
      head: Buffer.from(all.subarray(0, PEEK_BYTES)),
      tail: Buffer.from(lastBytes(all, PEEK_BYTES)),
      bytes: all.length,
    };
    this.pieces = [];
    this.pendingBytes = 0;
  }

  private endOfFrame(): void {
    if (this.oversized) {
      const { head, tail, bytes } = this.oversized;
      this.oversized = undefined;
      this.refuse(
        recoverId(head.toString('utf8'), tail.toString('utf8')),
        JsonRpcErrorCode.InvalidRequest,
        `Invalid Request: a frame of ${bytes} bytes exceeds the limit of ${this.maxFrameBytes} bytes`,
      );
      return;
    }
    const frame = this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces);
    this.pieces = [];
    this.pendingBytes = 0;
    // Byte checks, not a regex and a trim: this runs for every message, and nearly all open with `{`.
    const end = frame.length > 0 && frame[frame.length - 1] === 0x0d ? frame.length - 1 : frame.length;
    const line = frame.toString('utf8', 0, end);
    if (frame[0] !== 0x7b && line.trim() === '') return;
    this.handleLine(line);
  }

  private handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.refuse(
        recoverId(line.slice(0, PEEK_BYTES), line.slice(-PEEK_BYTES)),
        JsonRpcErrorCode.ParseError,
        'Parse error: the frame is not valid JSON',
      );
      return;
    }
    const message = toJsonRpcMessage(value);
    if (!message) {
      this.refuse(
        requestIdOf(value),
        JsonRpcErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 request, notification or response',
      );
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /**
   * Answers with an error when the frame has an id to answer to (null for one that cannot be
   * read exactly, as JSON-RPC 2.0 says); a frame without one is only reported.
   */
  private refuse(id: RequestId | null | undefined, code: number, message: string): void {
    this.options.onMalformed?.(message);
    if (id !== undefined) this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }
}

function lastBytes(buffer: Buffer, n: number): Buffer {
  return buffer.length <= n ? buffer : buffer.subarray(buffer.length - n);
}

/** The id of a parsed frame that is a request in all but form; responses are never answered. */
function requestIdOf(value: unknown): RequestId | null | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const frame = value as Record<string, unknown>;
  if ('result' in frame || 'error' in frame) return undefined;
  return usableId(frame.id);
}

/** Reads the id of a frame that does not parse: the first key of the object, or its last. */
function recoverId(head: string, tail: string): RequestId | null | undefined {
  const match = ID_AT_HEAD.exec(head) ?? ID_AT_TAIL.exec(tail);
  if (!match) return undefined;
  try {
    return usableId(JSON.parse(match[1]));
  } catch {
    return undefined;
  }
}

/**
 * A number id that is not a safe integer (2^53 + 1 parses as 2^53, 1.5 is no id) names no
 * request exactly: echoing the parsed value would answer an id nobody sent, so it is null.
 */
function usableId(id: unknown): RequestId | null | undefined {
  if (typeof id === 'string') return id;
  if (typeof id === 'number') return Number.isSafeInteger(id) ? id : null;
  return undefined;
}
