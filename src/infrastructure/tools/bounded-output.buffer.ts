/**
 * Collects a stream of text while holding at most about 3×`keep` characters, however much
 * arrives: the first `keep` characters, a sliding tail, and a count of everything seen.
 * That is what lets `yes | head -c 200M` finish without the proxy growing by 200 MB.
 */
export class BoundedOutput {
  private head = '';
  private tail = '';
  private seen = 0;

  constructor(private readonly keep: number) {}

  get total(): number {
    return this.seen;
  }

  push(chunk: string): void {
    this.seen += chunk.length;
    let rest = chunk;
    if (this.head.length < this.keep) {
      const room = this.keep - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    this.tail += rest;
    if (this.tail.length > 2 * this.keep) this.tail = this.tail.slice(-this.keep);
  }

  /** At most `limit` characters of the output, cut in the middle, with a marker saying how much went. */
  render(limit: number): string {
    const kept = this.head.length + this.tail.length;
    if (this.seen <= limit && kept === this.seen) return this.head + this.tail;
    const headPart = this.head.slice(0, Math.ceil(limit / 2));
    const tailSize = limit - headPart.length;
    const whole = kept === this.seen ? this.head + this.tail : this.tail;
    const tailPart = tailSize > 0 ? whole.slice(-tailSize) : '';
    const cut = this.seen - headPart.length - tailPart.length;
    return `${headPart}\n\n... [${cut} characters cut from the middle of the output] ...\n\n${tailPart}`;
  }
}
