import { type ClientRequest, type IncomingHttpHeaders, request } from 'node:http';

/** One answer of `awf serve`, read whole. */
export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
}

/**
 * A plain HTTP/1.1 client on node:http, so a test sets any header it likes (Host, Origin,
 * Sec-Fetch-Site), as a browser or an attacker would. `body` is sent as JSON unless `raw`.
 * A connection per call: a kept-alive one can be closed by the server's idle timer just as it
 * is reused (ECONNRESET), which a test that blocks its process (spawnSync) makes likely.
 */
export function call(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; raw?: string | Buffer } = {},
): Promise<Reply> {
  const payload =
    options.raw !== undefined ? options.raw : options.body !== undefined ? JSON.stringify(options.body) : undefined;
  const headers: Record<string, string> = {
    ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export interface SseFrame {
  id?: string;
  data: any;
}

/** A live event stream: the frames so far, a wait for more, and how it ended. */
export interface EventStream {
  status: Promise<number>;
  frames: SseFrame[];
  /** Resolves once `n` frames came; rejects if the stream ends before. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The client goes away (its socket destroyed). */
  close(): void;
}

export function openEvents(base: string, path: string, headers: Record<string, string> = {}): EventStream {
  const frames: SseFrame[] = [];
  const waiters: Array<() => void> = [];
  let req!: ClientRequest;
  let done = false;
  let resolveStatus!: (n: number) => void;
  const status = new Promise<number>((r) => (resolveStatus = r));
  const ended = new Promise<void>((resolve, reject) => {
    req = request(new URL(path, base), { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      resolveStatus(res.statusCode ?? 0);
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        for (let cut = buffered.indexOf('\n\n'); cut >= 0; cut = buffered.indexOf('\n\n')) {
          const block = buffered.slice(0, cut);
          buffered = buffered.slice(cut + 2);
          const frame = parseFrame(block);
          if (frame) frames.push(frame);
        }
        waiters.splice(0).forEach((w) => w());
      });
      res.on('end', () => {
        done = true;
        waiters.splice(0).forEach((w) => w());
        resolve();
      });
    });
    req.on('error', (err) => (done ? resolve() : reject(err)));
    req.end();
  });
  ended.catch(() => undefined);
  const waitFor = (n: number, timeoutMs = 20_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${frames.length} of ${n} frames in ${timeoutMs} ms`)),
        timeoutMs,
      );
      const check = (): void => {
        if (frames.length >= n) {
          clearTimeout(timer);
          resolve();
        } else if (done) {
          clearTimeout(timer);
          reject(new Error(`the stream ended after ${frames.length} of ${n} frames`));
        } else waiters.push(check);
      };
      check();
    });
  return { status, frames, waitFor, ended, close: () => req.destroy() };
}

function parseFrame(block: string): SseFrame | undefined {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  return data.length ? { id, data: JSON.parse(data.join('\n')) } : undefined;
}
