import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callBuiltin, type CallOutcome } from '../support/builtin-e2e';
import { connectMcpServe, type McpSession } from '../support/mcp-client';
import { describeEach, PLAIN, ripgrepVariants } from '../support/launch-paths';

// Issue 21, holes 1 and 2: while a directory (or a file) inside the root flips between the
// real thing and a symlink out, every tool keeps to the root. Each case flips for a bounded
// time (two flippers at once in the directory cases) and counts what leaked: it must be zero.
const SECRET = 'OUTSIDE-SECRET-7731';
const FLIP_MS = 1500;
const IN_FLIGHT = 16;

/**
 * A separate process, so the flipping never waits on jest's event loop: swaps `target` for a
 * symlink to `to` and back as fast as it can, until killed or `ms` is up.
 */
const FLIPPER = `
const fs = require('node:fs');
const [target, to, ms] = process.argv.slice(1);
const real = target + '.real-' + process.pid;
const link = target + '.link-' + process.pid;
fs.symlinkSync(to, link);
const end = Date.now() + Number(ms);
// Renames only: with two flippers at work, nothing is ever deleted, only moved and moved back.
while (Date.now() < end) {
  try { fs.renameSync(target, real); fs.renameSync(link, target); } catch {}
  try { fs.renameSync(target, link); fs.renameSync(real, target); } catch {}
}
try { if (fs.lstatSync(target).isSymbolicLink()) fs.renameSync(target, link); } catch {}
try { fs.renameSync(real, target); } catch {}
try { fs.unlinkSync(link); } catch {}
`;

/**
 * Flips each `[target, to]` with its own flipper process while `call` runs, IN_FLIGHT at a time;
 * returns the calls made.
 */
async function whileFlipping(flips: Array<[string, string]>, call: (i: number) => Promise<void>): Promise<number> {
  const flippers: ChildProcess[] = flips.map(([target, to]) =>
    spawn(process.execPath, ['-e', FLIPPER, target, to, String(FLIP_MS + 500)], { stdio: 'ignore' }),
  );
  const end = Date.now() + FLIP_MS;
  let calls = 0;
  const worker = async (): Promise<void> => {
    while (Date.now() < end) await call(calls++);
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    // They stop on their own shortly after and put the real one back: killing them mid-swap could leave the link.
    await Promise.all(
      flippers.map((f) => new Promise((done) => (f.exitCode !== null ? done(null) : f.once('exit', done)))),
    );
  }
  return calls;
}

// The launch an agent meets (the command `awf run` hands out); ripgrep on PATH (the default
// engine is then ripgrep) and hidden (the JS walker).
describeEach([PLAIN], 'races against the sandbox', (launch) => {
  describeEach(ripgrepVariants(), 'Grep', (rg) => {
    const env = { PATH: rg.path };
    const engine = rg.name === 'rg on PATH' ? 'ripgrep' : 'js';
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'awf-race-')));
    const root = join(base, 'proj');
    const outside = join(base, 'outside');
    let session: McpSession;
    const call = (tool: string, args: Record<string, unknown>): Promise<CallOutcome> =>
      callBuiltin(session, tool, args);
    const leaked = (outcome: CallOutcome): boolean => outcome.text.includes(SECRET);

    /**
     * A fresh layout per case: a Write that lands while `d` is renamed away creates a new `d`,
     * which is fine but not the one the next case expects.
     */
    const layout = (): void => {
      // The root itself stays: mcp-serve holds it open for its whole life.
      mkdirSync(root, { recursive: true });
      for (const name of readdirSync(root)) rmSync(join(root, name), { recursive: true, force: true });
      for (const dir of ['d', 'e']) {
        mkdirSync(join(root, dir), { recursive: true });
        writeFileSync(join(root, dir, 'secret.txt'), 'inside EDITME\n');
      }
      writeFileSync(join(root, 'f'), 'inside file\n');
    };
    beforeAll(async () => {
      layout();
      mkdirSync(outside);
      writeFileSync(join(outside, 'secret.txt'), `${SECRET} EDITME\n`);
      session = await connectMcpServe(base, { root_dir: root }, { env, launch });
    }, 60_000);
    beforeEach(layout);
    afterAll(async () => {
      await session?.close();
      rmSync(base, { recursive: true, force: true });
    });
    // Two flippers: `d` (which the calls aim at) and `e` beside it, both swapped for links out.
    const DIRS: Array<[string, string]> = [
      [join(root, 'd'), outside],
      [join(root, 'e'), outside],
    ];
    const outsideNames = (): string[] => readdirSync(outside).filter((n) => n !== 'secret.txt');
    it('Write and Write with new parents create nothing outside', async () => {
      const calls = await whileFlipping(DIRS, async (i) => {
        await call('Write', { file_path: i % 2 ? `d/pwn-${i}.txt` : `d/new${i}/x.txt`, content: 'PWNED' });
      });
      expect(calls).toBeGreaterThan(20);
      expect(outsideNames()).toEqual([]);
    }, 60_000);

    it('Edit never rewrites the file outside', async () => {
      await whileFlipping(DIRS, async (i) => {
        await call('Edit', {
          file_path: 'd/secret.txt',
          old_string: 'EDITME',
          new_string: `EDITME${i % 10}`,
          replace_all: true,
        });
      });
      expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET} EDITME\n`);
      expect(outsideNames()).toEqual([]);
    }, 60_000);

    it('Read never returns the content outside', async () => {
      let leaks = 0;
      let served = 0;
      await whileFlipping(DIRS, async () => {
        const result = await call('Read', { file_path: 'd/secret.txt' });
        if (leaked(result)) leaks++;
        if (result.text.includes('inside EDITME')) served++;
      });
      expect(leaks).toBe(0);
      // Not a sandbox that refuses everything: the inside file is still read while the flipping goes on.
      expect(served).toBeGreaterThan(0);
    }, 60_000);

    it(`Grep (${engine}) of a flipping file and over a flipping directory never shows the content outside`, async () => {
      let leaks = 0;
      let served = 0;
      await whileFlipping([[join(root, 'f'), join(outside, 'secret.txt')]], async () => {
        const result = await call('Grep', { pattern: 'SECRET|inside', path: 'f', output_mode: 'content' });
        if (leaked(result)) leaks++;
        if (result.text.includes('inside file')) served++;
      });
      await whileFlipping(DIRS, async (i) => {
        // Only the file outside holds SECRET: any hit for it, in any mode, is a leak.
        const mode = ['content', 'files_with_matches', 'count', 'content'][i % 4];
        const result = await call('Grep', { pattern: i % 4 === 3 ? 'EDITME' : 'SECRET', output_mode: mode });
        if (leaked(result) || (i % 4 !== 3 && result.text.includes('secret.txt'))) leaks++;
        if (result.text.includes('inside EDITME')) served++;
      });
      expect(leaks).toBe(0);
      expect(served).toBeGreaterThan(0);
    }, 60_000);

    it('Glob over a flipping directory lists nothing outside', async () => {
      writeFileSync(join(outside, 'only-outside.txt'), 'x');
      let leaks = 0;
      let served = 0;
      try {
        await whileFlipping(DIRS, async () => {
          const result = await call('Glob', { pattern: '**/*.txt' });
          if (result.text.includes('only-outside')) leaks++;
          if (result.text.includes(join(root, 'd', 'secret.txt'))) served++;
        });
      } finally {
        rmSync(join(outside, 'only-outside.txt'));
      }
      expect(leaks).toBe(0);
      expect(served).toBeGreaterThan(0);
    }, 60_000);

    it('a hard link to a file outside is refused by Read, Grep, Edit and Write, and skipped by walks', async () => {
      writeFileSync(join(outside, 'linked.txt'), `${SECRET} linked\n`);
      linkSync(join(outside, 'linked.txt'), join(root, 'hard.txt'));
      try {
        for (const [tool, args] of [
          ['Read', { file_path: 'hard.txt' }],
          ['Grep', { pattern: 'linked', path: 'hard.txt', output_mode: 'content' }],
          ['Edit', { file_path: 'hard.txt', old_string: 'linked', new_string: 'edited' }],
          ['Write', { file_path: 'hard.txt', content: 'overwritten' }],
        ] as const) {
          const result = await call(tool, args);
          expect(result).toEqual({ isError: true, text: expect.stringMatching(/hard\.txt has 2 hard links/) });
        }
        expect((await call('Grep', { pattern: 'linked', output_mode: 'content' })).text).toBe('No matches found');
        expect((await call('Glob', { pattern: 'hard*' })).text).toBe('No files found');
        expect(readFileSync(join(root, 'hard.txt'), 'utf8')).toBe(`${SECRET} linked\n`);
      } finally {
        rmSync(join(root, 'hard.txt'));
        rmSync(join(outside, 'linked.txt'));
      }
    });

    it('left nothing of its own outside', () => {
      expect(existsSync(join(outside, 'secret.txt'))).toBe(true);
      expect(outsideNames()).toEqual([]);
    });
  });
});
