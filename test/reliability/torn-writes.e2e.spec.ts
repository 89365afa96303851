import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { delay, RawMcpServe } from './support/raw-mcp-serve';
import { idKey } from './support/frame-generator';
import { SeededRandom, seedFromEnv } from './support/seeded-random';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(600_000);

const seed = seedFromEnv('AWF_TORN_SEED', 'torn writes');
const ROUNDS = Number(process.env.AWF_TORN_ROUNDS ?? 8);
const MiB = 1024 * 1024;
/** Big enough that reading, replacing and writing it takes a while; under the 10 MiB frame cap. */
const LIMITS = { read_max_bytes: 16 * MiB, write_max_bytes: 16 * MiB };
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'torn', version: '1' } },
});
const TEMP_PATTERN = /^\.target\.txt\.awf-[0-9a-f]{12}\.tmp$/;

/** `size` bytes of numbered lines: any prefix, suffix or mix of two versions shows. */
function content(tag: string, size: number): string {
  const lines: string[] = [];
  let total = 0;
  for (let i = 0; total < size; i++) {
    const line = `${tag} line ${i} ${'.'.repeat(40 + (i % 23))}\n`;
    lines.push(line);
    total += line.length;
  }
  return lines.join('');
}

const OLD = content('old', 6 * MiB);
const NEW_WRITE = content('new', 7 * MiB);
const EDIT_FROM = 'old line 0 ';
const NEW_EDIT = OLD.replace(EDIT_FROM, 'edited line 0 ');

interface Round {
  tool: 'Write' | 'Edit';
  signal: 'SIGKILL' | 'SIGTERM';
  delayMs: number;
  answered: boolean;
  outcome: 'old' | 'new' | 'torn';
  temps: string[];
}

async function startServe(dir: string): Promise<RawMcpServe> {
  const server = RawMcpServe.start(
    dir,
    { intercept_builtins: true, root_dir: dir, limits: LIMITS },
    { AWF_LOG_LEVEL: 'warn' },
  );
  await server.write(
    Buffer.from(`${INIT}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`),
  );
  await server.waitFor(() => server.answered.has(idKey('init')), 60_000, 'initialize');
  return server;
}

function callFrame(tool: 'Write' | 'Edit', file: string): Buffer {
  const args =
    tool === 'Write'
      ? { file_path: file, content: NEW_WRITE }
      : { file_path: file, old_string: EDIT_FROM, new_string: 'edited line 0 ' };
  return Buffer.from(
    `${JSON.stringify({ jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: tool, arguments: args } })}\n`,
  );
}

/** How long a full call takes here, from the last byte sent to the answer. */
async function calibrate(dir: string, tool: 'Write' | 'Edit'): Promise<number> {
  const file = join(dir, 'target.txt');
  writeFileSync(file, OLD);
  const server = await startServe(dir);
  try {
    await server.write(callFrame(tool, file));
    const sent = Date.now();
    await server.waitFor(() => server.answered.has(idKey('call')), 120_000, `${tool} to finish`);
    expect(readFileSync(file, 'utf8')).toBe(tool === 'Write' ? NEW_WRITE : NEW_EDIT);
    return Date.now() - sent;
  } finally {
    await server.end();
  }
}

/** Item 3 of the reliability issue: a Write or Edit cut off by a signal is never torn. */
describe(`a Write or Edit of a ${(OLD.length / MiB).toFixed(0)} MiB file cut off by SIGKILL or SIGTERM of mcp-serve (seed ${seed})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-rel-torn-'));
  const rng = new SeededRandom(seed);
  const rounds: Round[] = [];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const took = { Write: await calibrate(dir, 'Write'), Edit: await calibrate(dir, 'Edit') };
    process.stderr.write(
      `[torn writes] a full call takes ${took.Write} ms (Write) and ${took.Edit} ms (Edit) after its last byte is sent\n`,
    );
    const file = join(dir, 'target.txt');
    for (let i = 0; i < ROUNDS * 2; i++) {
      const tool = i % 2 === 0 ? 'Write' : 'Edit';
      const signal = i % 4 < 2 ? 'SIGKILL' : 'SIGTERM';
      // Anywhere from the moment the frame is sent to a little after the call ends when nothing
      // stops it, stratified: the k-th round of each tool and signal draws from the k-th slice of
      // that span, so early cuts (the old file) and late ones (the new) both come up whatever the seed.
      const slices = Math.ceil(ROUNDS / 2);
      const slice = Math.floor(i / 4);
      const span = took[tool] * 1.15;
      const delayMs = rng.int(Math.floor((span * slice) / slices), Math.ceil((span * (slice + 1)) / slices));
      for (const name of readdirSync(dir)) if (TEMP_PATTERN.test(name)) rmSync(join(dir, name));
      writeFileSync(file, OLD);
      const server = await startServe(dir);
      await server.write(callFrame(tool, file));
      await delay(delayMs);
      const answered = server.answered.has(idKey('call'));
      server.child.kill(signal);
      const { code, signal: by } = await server.exited;
      if (signal === 'SIGTERM')
        expect({ code, by, stderr: server.stderr }).toEqual({
          code: 0,
          by: null,
          stderr: expect.not.stringMatching(/\n\s+at .+:\d+:\d+/),
        });
      const bytes = readFileSync(file, 'utf8');
      const outcome = bytes === OLD ? 'old' : bytes === (tool === 'Write' ? NEW_WRITE : NEW_EDIT) ? 'new' : 'torn';
      rounds.push({
        tool,
        signal,
        delayMs,
        answered,
        outcome,
        temps: readdirSync(dir).filter((n) => n.startsWith('.target.txt')),
      });
    }
    for (const r of rounds)
      process.stderr.write(
        `[torn writes] ${r.tool} ${r.signal} after ${r.delayMs} ms: ${r.outcome}${r.answered ? ' (answered before the signal)' : ''}${r.temps.length ? `, left ${r.temps.join(', ')}` : ''}\n`,
      );
  });

  it('leaves exactly the old bytes or exactly the new ones, every time', () => {
    expect(rounds.filter((r) => r.outcome === 'torn')).toEqual([]);
    // An answered call wrote the new file; the signal cannot take that back.
    expect(rounds.filter((r) => r.answered && r.outcome !== 'new')).toEqual([]);
  });

  it('hits both sides: some rounds end with the old file and some with the new', () => {
    expect(new Set(rounds.map((r) => r.outcome))).toEqual(new Set(['old', 'new']));
  });

  it('leaves no temp file beside the target after a SIGTERM', () => {
    expect(rounds.filter((r) => r.signal === 'SIGTERM' && r.temps.length > 0)).toEqual([]);
  });

  it('names any temp file a SIGKILL leaves .<name>.awf-<12 hex>.tmp, beside the target', () => {
    const left = rounds.filter((r) => r.signal === 'SIGKILL').flatMap((r) => r.temps);
    process.stderr.write(`[torn writes] SIGKILL left ${left.length} temp file(s) in ${ROUNDS} rounds\n`);
    expect(left.filter((n) => !TEMP_PATTERN.test(n))).toEqual([]);
  });
});
