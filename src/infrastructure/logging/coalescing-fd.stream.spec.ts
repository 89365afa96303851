import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { COALESCE_WINDOW_MS, CoalescingFdStream } from './coalescing-fd.stream';

const line = (i: number, level = 30): string => `{"level":${level},"n":${i},"msg":"tool call"}\n`;

describe('CoalescingFdStream', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-coalesce-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function fileStream(name: string): { stream: CoalescingFdStream; text: () => string; close: () => void } {
    const path = join(dir, name);
    const fd = openSync(path, 'a');
    const stream = new CoalescingFdStream(fd);
    return { stream, text: () => readFileSync(path, 'utf8'), close: () => (stream.end(), closeSync(fd)) };
  }

  it('writes the first line at once and the rest of a burst together when the window closes, in order', async () => {
    const { stream, text, close } = fileStream('burst.log');
    const lines = Array.from({ length: 100 }, (_, i) => line(i));
    for (const l of lines) stream.write(l);
    expect(text()).toBe(lines[0]);
    await sleep(COALESCE_WINDOW_MS * 3);
    expect(text()).toBe(lines.join(''));
    close();
  });

  it('writes a warning immediately, together with the lines before it', () => {
    const { stream, text, close } = fileStream('warn.log');
    stream.write(line(0));
    stream.write(line(1));
    stream.lastLevel = 40;
    stream.write(line(2, 40));
    expect(text()).toBe(line(0) + line(1) + line(2, 40));
    close();
  });

  it('drains everything on flushSync, as the exit hook does', () => {
    const { stream, text, close } = fileStream('exit.log');
    for (let i = 0; i < 10; i++) stream.write(line(i));
    stream.flushSync();
    expect(text()).toBe(Array.from({ length: 10 }, (_, i) => line(i)).join(''));
    close();
  });

  it('keeps what a full pipe refuses instead of blocking, and delivers all of it once the reader reads', async () => {
    // A FIFO opened read-write is a pipe nobody reads yet: it fills after 64 KiB, every time.
    const fifo = join(dir, 'pipe');
    spawnSync('mkfifo', [fifo]);
    const writeFd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const stream = new CoalescingFdStream(writeFd);
    const lines = Array.from({ length: 4000 }, (_, i) => line(i));
    for (const l of lines) stream.write(l);
    // ~180 KB against a 64 KiB pipe: the rest waits in memory and the caller was not blocked.
    expect(stream.pending).toBeGreaterThan(0);
    const got: Buffer[] = [];
    const buf = Buffer.alloc(65536);
    for (;;) {
      const n = readAvailable(readFd, buf);
      if (n > 0) got.push(Buffer.from(buf.subarray(0, n)));
      else if (stream.pending === 0) break;
      else await sleep(COALESCE_WINDOW_MS);
    }
    stream.end();
    closeSync(writeFd);
    closeSync(readFd);
    expect(Buffer.concat(got).toString()).toBe(lines.join(''));
  });
});

function readAvailable(fd: number, buf: Buffer): number {
  try {
    return readSync(fd, buf);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return 0;
    throw err;
  }
}
