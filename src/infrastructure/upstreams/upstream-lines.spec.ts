import { MAX_LINE_BYTES, UpstreamLines } from './upstream-lines';

function framing(): { lines: UpstreamLines; messages: unknown[]; errors: string[] } {
  const messages: unknown[] = [];
  const errors: string[] = [];
  const lines = new UpstreamLines(
    (m) => messages.push(m),
    (e) => errors.push(e.message),
  );
  return { lines, messages, errors };
}

const frame = (m: object): string => `${JSON.stringify(m)}\n`;
const result = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `r${id}` }] } });

describe('UpstreamLines', () => {
  it('gives each line as one message, whether a chunk holds several or a line spans chunks', () => {
    const { lines, messages, errors } = framing();
    const text = frame(result(1)) + frame(result(2)) + frame(result(3));
    lines.push(Buffer.from(text.slice(0, 10)));
    lines.push(Buffer.from(text.slice(10, text.length - 5)));
    expect(messages).toEqual([result(1), result(2)]);
    lines.push(Buffer.from(text.slice(text.length - 5)));
    expect(messages).toEqual([result(1), result(2), result(3)]);
    expect(errors).toEqual([]);
  });

  it('takes CRLF line ends and skips blank lines', () => {
    const { lines, messages, errors } = framing();
    lines.push(Buffer.from(`\n${JSON.stringify(result(1))}\r\n\r\n`));
    expect(messages).toEqual([result(1)]);
    expect(errors).toEqual([]);
  });

  it('reports a line that is not JSON, or not JSON-RPC 2.0, and goes on with the next', () => {
    const { lines, messages, errors } = framing();
    lines.push(Buffer.from(`starting server...\n{"id":1,"result":{}}\n[1,2]\n${frame(result(4))}`));
    expect(messages).toEqual([result(4)]);
    expect(errors).toHaveLength(3);
    expect(errors[1]).toMatch(/not a JSON-RPC 2\.0 message/);
  });

  it('drops a line over the size cap without holding it, and reads the line after it', () => {
    const { lines, messages, errors } = framing();
    const big = Buffer.alloc(1024 * 1024, 0x61);
    for (let sent = 0; sent <= MAX_LINE_BYTES; sent += big.length) lines.push(big);
    lines.push(Buffer.from(`"\n${frame(result(5))}`));
    expect(errors).toEqual([expect.stringMatching(/exceeds 10485760 bytes/)]);
    expect(messages).toEqual([result(5)]);
  });
});
