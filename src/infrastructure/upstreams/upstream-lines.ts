import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own stdio cap (STDIO_DEFAULT_MAX_BUFFER_SIZE): a line longer than this is dropped. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * An upstream server's stdout as JSON-RPC messages, one per line, as the SDK's `ReadBuffer`
 * frames them, but without its per-message zod parse: the SDK's Protocol checks every message
 * again with its strict type guards before it uses it, and `callTool` validates the result,
 * so that parse was a third check of the same object on every call (ADR 182). What is not a
 * JSON object with `jsonrpc: "2.0"` is reported and skipped; the lines after it go on.
 */
export class UpstreamLines {
  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  private oversized = false;

  constructor(
    private readonly onMessage: (message: JSONRPCMessage) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const tail = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.oversized || this.pendingBytes + tail.length > MAX_LINE_BYTES) {
        this.drop();
        continue;
      }
      const line = this.pieces.length === 0 ? tail : Buffer.concat([...this.pieces, tail]);
      this.pieces = [];
      this.pendingBytes = 0;
      this.deliver(line);
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || this.oversized) return;
    if (this.pendingBytes + rest.length > MAX_LINE_BYTES) {
      this.oversized = true;
      this.pieces = [];
      this.pendingBytes = 0;
      return;
    }
    this.pieces.push(rest);
    this.pendingBytes += rest.length;
  }

  private drop(): void {
    this.oversized = false;
    this.pieces = [];
    this.pendingBytes = 0;
    this.onError(new Error(`a line of the server's output exceeds ${MAX_LINE_BYTES} bytes; dropped`));
  }

  private deliver(line: Buffer): void {
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    if (end === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(line.toString('utf8', 0, end));
    } catch (err) {
      this.onError(err as Error);
      return;
    }
    if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      this.onError(new Error('the server wrote a line that is not a JSON-RPC 2.0 message'));
      return;
    }
    this.onMessage(message as JSONRPCMessage);
  }
}
