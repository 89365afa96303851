import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callBuiltin, type CallOutcome } from '../support/builtin-e2e';
import { describeEach, PLAIN } from '../support/launch-paths';
import { connectMcpServe } from '../support/mcp-client';
import { memoryOf } from './support/proc-stats';

/**
 * Issue 21, hole 6: 1000 concurrent Grep calls on the JS engine took mcp-serve from 100 MiB to
 * 1.5 GiB peak, a worker thread each. The JS search now runs in a bounded pool of reused workers
 * (grep-workers.pool.ts), so 1000 Greps and 1000 Reads sent at once stay under 300 MiB peak RSS
 * (VmHWM, which the kernel keeps: no sample can miss the peak). No timing is asserted.
 */
const DIRS = 10;
const FILES = 20;
const CALLS = 1000;

describeEach(
  [PLAIN].map((launch) => ({ name: launch.name, launch })),
  `memory under ${CALLS} concurrent Grep (JS engine) and ${CALLS} concurrent Read calls`,
  ({ launch }) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'awf-grep-mem-')));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('answers every call correctly and keeps the peak RSS of mcp-serve under 300 MiB', async () => {
      for (let d = 0; d < DIRS; d++) {
        mkdirSync(join(dir, `d${d}`));
        for (let f = 0; f < FILES; f++)
          writeFileSync(join(dir, `d${d}`, `f${f}.txt`), `line with needle ${d}/${f}\n${'filler text\n'.repeat(500)}`);
      }
      const session = await connectMcpServe(
        dir,
        { root_dir: dir },
        { launch, env: { AWF_GREP_ENGINE: 'js', AWF_LOG_LEVEL: 'warn' } },
      );
      // 2000 calls at once on a shared machine take longer than the SDK's default 60 s per call.
      const call = async (name: string, args: Record<string, unknown>): Promise<CallOutcome> => {
        const result = await session.client.callTool({ name, arguments: args }, undefined, { timeout: 280_000 });
        return { isError: result.isError === true, text: (result.content as Array<{ text: string }>)[0].text };
      };
      try {
        const pid = session.transport.pid!;
        await callBuiltin(session, 'Read', { file_path: 'd0/f0.txt', limit: 1 });
        const before = memoryOf(pid)!;
        const results = await Promise.all(
          Array.from({ length: CALLS }, (_, i) => [
            call('Grep', { pattern: 'needle', path: `d${i % DIRS}`, output_mode: 'count' }),
            call('Read', { file_path: `d${i % DIRS}/f${i % FILES}.txt`, limit: 1 }),
          ]).flat(),
        );
        const after = memoryOf(pid)!;
        const mib = (kib: number): string => (kib / 1024).toFixed(1);
        console.log(
          `[grep memory, ${launch.name}] ${CALLS} Grep (js) + ${CALLS} Read at once: RSS ${mib(before.rssKiB)} MiB before, ` +
            `${mib(after.rssKiB)} MiB after, peak (VmHWM) ${mib(after.hwmKiB)} MiB`,
        );
        expect(results.filter((r) => r.isError).map((r) => r.text)).toEqual([]);
        // Answers, not just survival: each Grep counted the needle once in each of its 20 files,
        // and each Read shows its file's first line.
        results.forEach((r, k) => {
          const i = k >> 1;
          if (k % 2 === 0)
            expect(r.text.split('\n').sort()).toEqual(
              Array.from({ length: FILES }, (_, f) => `${join(dir, `d${i % DIRS}`, `f${f}.txt`)}:1`).sort(),
            );
          else expect(r.text).toContain(`line with needle ${i % DIRS}/${i % FILES}`);
        });
        expect(after.hwmKiB).toBeLessThan(300 * 1024);
      } finally {
        await session.close();
      }
    }, 300_000);
  },
);
