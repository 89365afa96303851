import { truncationMarker } from '../../domain/workflow/output-truncation';

/**
 * One output stream of a command, held in at most `maxBytes`: the first half as it came, then
 * the latest half. Whatever fell between is counted and marked, never silently lost.
 */
export class HeadTailCapture {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes between the head and the tail that are gone. */
  dropped = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    const half = Math.floor(this.maxBytes / 2);
    if (this.headBytes < half) {
      const taken = chunk.subarray(0, half - this.headBytes);
      this.head.push(taken);
      this.headBytes += taken.length;
      chunk = chunk.subarray(taken.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0].length >= half) {
      this.dropped += this.tail[0].length;
      this.tailBytes -= this.tail.shift()!.length;
    }
    const excess = this.tailBytes - half;
    if (excess > 0) {
      this.tail[0] = this.tail[0].subarray(excess);
      this.tailBytes -= excess;
      this.dropped += excess;
    }
  }

  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (this.dropped === 0) return Buffer.concat([head, tail]).toString('utf8');
    // A character cut at either edge of the gap is dropped whole rather than shown as U+FFFD.
    const keptHead = head.toString('utf8').replace(/\uFFFD+$/, '');
    const keptTail = tail.toString('utf8').replace(/^\uFFFD+/, '');
    const gone = this.dropped + head.length + tail.length - Buffer.byteLength(keptHead) - Buffer.byteLength(keptTail);
    return keptHead + truncationMarker(gone) + keptTail;
  }
}
