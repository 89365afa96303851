import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GrepRequest } from './grep-query.model';
import { GrepWorkers } from './grep-workers.pool';

/**
 * A stand-in worker speaking the pool's protocol: it answers with its own thread id (so reuse is
 * visible), hangs on the pattern "hang" (a backtracking regex, as far as the pool can tell), and
 * reports "bad(" as a pattern error. The real search is covered by the Grep suites.
 */
const WORKER = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', (request) => {
  const pattern = request.query.pattern;
  if (pattern === 'hang') for (;;);
  if (pattern === 'bad(') return parentPort.postMessage({ ok: false, pattern: true, message: 'unterminated group' });
  setTimeout(() => parentPort.postMessage({ ok: true, outcome: { hits: [{ path: String(threadId), lines: [] }], stopped: false } }), 5);
});
`;

describe('GrepWorkers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-grep-workers-'));
  const file = join(dir, 'echo.worker.js');
  writeFileSync(file, WORKER);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const never = new AbortController().signal;
  const request = (pattern: string): GrepRequest => ({ query: { pattern } }) as unknown as GrepRequest;
  const thread = async (pool: GrepWorkers, pattern = 'x'): Promise<string> =>
    (await pool.search(request(pattern), new AbortController().signal, 10_000)).hits[0].path;

  it('reuses its workers and never holds more than its size, however many searches wait', async () => {
    const pool = new GrepWorkers(file, 2);
    const threads = await Promise.all(Array.from({ length: 40 }, () => thread(pool)));
    expect(new Set(threads).size).toBeLessThanOrEqual(2);
    expect(pool.live).toBeLessThanOrEqual(2);
    expect(await thread(pool)).toMatch(new RegExp(`^(${[...new Set(threads)].join('|')})$`));
  });

  it('ends a worker whose search times out and starts a fresh one for the next search', async () => {
    const pool = new GrepWorkers(file, 1);
    const first = await thread(pool);
    await expect(pool.search(request('hang'), never, 200)).rejects.toThrow(
      'Grep: the search took longer than 200 ms and was stopped',
    );
    const next = await thread(pool);
    expect(next).not.toBe(first);
    expect(pool.live).toBe(1);
  });

  it('ends a worker whose search is cancelled, and keeps one that reported a bad pattern', async () => {
    const pool = new GrepWorkers(file, 1);
    const first = await thread(pool);
    await expect(pool.search(request('bad('), never, 10_000)).rejects.toThrow(
      'Grep: invalid regular expression: unterminated group',
    );
    expect(await thread(pool)).toBe(first);
    const cancel = new AbortController();
    const hanging = pool.search(request('hang'), cancel.signal, 10_000);
    setTimeout(() => cancel.abort(), 50);
    await expect(hanging).rejects.toThrow('Grep: cancelled');
    expect(await thread(pool)).not.toBe(first);
  });
});
