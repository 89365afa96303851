import { ECHO_EXTENSION, projectWithExtensions } from '../support/cli';
import { ECHO_TOOLS, FrameGenerator, idKey, short, type Frame, type JsonRpcResponse } from './support/frame-generator';
import { memoryOf, RssSampler } from './support/proc-stats';
import { RawMcpServe, withTimeout } from './support/raw-mcp-serve';
import { SeededRandom, seedFromEnv } from './support/seeded-random';

/**
 * Item 1 of the reliability issue: thousands of malformed and hostile frames, interleaved
 * with valid calls, written to a real `awf mcp-serve` in randomly sized chunks. Replay a
 * failure with the printed seed: AWF_FUZZ_SEED=<seed> npx jest test/reliability/protocol-fuzz.
 */
const seed = seedFromEnv('AWF_FUZZ_SEED', 'protocol fuzz');
const HOSTILE_FRAMES = Number(process.env.AWF_FUZZ_FRAMES ?? 10_000);
const MiB = 1024 * 1024;
/** RSS may grow this much over its level after `initialize`, at its peak (10 MiB frames included). */
const PEAK_GROWTH_LIMIT_MiB = 256;

interface Outcome {
  frames: Frame[];
  responses: JsonRpcResponse[];
  foreignLines: string[];
  exit: { code: number | null; signal: NodeJS.Signals | null };
  /** Why the session ended early, if it did (the server stopped reading, or answers never came). */
  interrupted?: string;
  stderr: string;
  memory: { baselineKiB: number; peakKiB: number; hwmKiB: number; lastKiB: number };
}

async function runFuzz(): Promise<Outcome> {
  const rng = new SeededRandom(seed);
  const gen = new FrameGenerator(rng, ECHO_TOOLS);
  const project = projectWithExtensions([ECHO_EXTENSION]);
  const server = RawMcpServe.start(project.dir, { step: 'fuzz' });
  const frames: Frame[] = [];
  const mustAnswer = new Set<string>();
  const send = async (batch: Frame[]): Promise<void> => {
    for (const f of batch) {
      frames.push(f);
      if (f.expect.kind === 'valid' || f.expect.kind === 'error') mustAnswer.add(idKey(f.expect.id));
    }
    await server.write(Buffer.concat(batch.flatMap((f) => [f.line, Buffer.from('\n')])), rng);
  };
  try {
    let baselineKiB = 0;
    let sampler: RssSampler | undefined;
    let interrupted: string | undefined;
    try {
      // Calls before initialize must be answered too.
      await send(Array.from({ length: 40 }, () => (rng.chance(0.3) ? gen.valid() : gen.hostile())));
      const init = gen.initialize();
      await send([init, gen.initialized()]);
      await server.waitFor(
        () => init.expect.kind === 'valid' && server.answered.has(idKey(init.expect.id)),
        20_000,
        'initialize',
      );
      baselineKiB = memoryOf(server.pid)!.rssKiB;
      sampler = new RssSampler(server.pid);

      const bigAt = new Set(Array.from({ length: 3 }, () => rng.int(0, HOSTILE_FRAMES - 1)));
      const largeAt = new Set(Array.from({ length: 2 }, () => rng.int(0, HOSTILE_FRAMES - 1)));
      let batch: Frame[] = [];
      for (let i = 0; i < HOSTILE_FRAMES; i++) {
        batch.push(gen.hostile());
        if (rng.chance(0.25)) batch.push(gen.valid());
        if (bigAt.has(i)) batch.push(gen.oversized(10 * MiB));
        if (largeAt.has(i)) batch.push(gen.bigValid(rng.int(2 * MiB, 6 * MiB)));
        if (batch.length >= 200 || bigAt.has(i) || largeAt.has(i)) {
          await send(batch);
          batch = [];
        }
      }
      await send([...batch, ...Array.from({ length: 20 }, () => gen.valid())]);
      await server.waitFor(
        () => [...mustAnswer].every((k) => server.answered.has(k)),
        60_000,
        'an answer to every request that must have one',
      );
    } catch (err) {
      interrupted = (err as Error).message;
    }
    const { peakKiB, lastKiB } = sampler?.stop() ?? { peakKiB: 0, lastKiB: 0 };
    const hwmKiB = memoryOf(server.pid)?.hwmKiB ?? 0;
    const exit = await withTimeout(server.end(), 10_000, { code: null, signal: 'timeout' as NodeJS.Signals });
    return {
      frames,
      responses: server.responses,
      foreignLines: server.foreignLines,
      exit,
      stderr: server.stderr,
      interrupted,
      memory: { baselineKiB, peakKiB, hwmKiB, lastKiB },
    };
  } finally {
    server.kill();
    project.cleanup();
  }
}

describe(`awf mcp-serve under a protocol fuzz (seed ${seed}; replay with AWF_FUZZ_SEED=${seed})`, () => {
  let outcome: Outcome;

  beforeAll(async () => {
    outcome = await runFuzz();
    const { baselineKiB, peakKiB, hwmKiB, lastKiB } = outcome.memory;
    process.stderr.write(
      `[protocol fuzz] ${outcome.frames.length} frames (${HOSTILE_FRAMES} hostile), ${outcome.responses.length} answers; ` +
        (outcome.interrupted
          ? `INTERRUPTED: ${outcome.interrupted.split('\n')[0]}; stderr: ${outcome.stderr.slice(-3000)}\n`
          : '') +
        `RSS after initialize ${(baselineKiB / 1024).toFixed(1)} MiB, peak ${(peakKiB / 1024).toFixed(1)} MiB, VmHWM ${(hwmKiB / 1024).toFixed(1)} MiB, at end ${(lastKiB / 1024).toFixed(1)} MiB\n`,
    );
  }, 150_000);

  it('sends at least 10 000 malformed or hostile frames', () => {
    expect(outcome.frames.filter((f) => f.hostile || f.label.startsWith('oversized')).length).toBeGreaterThanOrEqual(
      HOSTILE_FRAMES,
    );
  });

  it('never crashes: serves to the end, exits 0 when stdin closes, without a stack trace', () => {
    expect(outcome.interrupted).toBeUndefined();
    expect(outcome.exit).toEqual({ code: 0, signal: null });
    expect(outcome.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('prints nothing but JSON-RPC responses on stdout', () => {
    expect(outcome.foreignLines).toEqual([]);
  });

  it('answers every valid request exactly once, correctly', () => {
    expect(violations(outcome, (f) => f.expect.kind === 'valid')).toEqual([]);
  });

  it('answers every malformed request whose id it can read with an error, instead of leaving the client waiting', () => {
    expect(violations(outcome, (f) => f.expect.kind === 'error')).toEqual([]);
  });

  it('never answers a notification, a response, or a request without a usable id, and never answers twice', () => {
    expect(violations(outcome, (f) => f.expect.kind === 'none' || f.expect.kind === 'may')).toEqual([]);
    const known = new Set(
      outcome.frames.flatMap((f) => ('id' in f.expect && f.expect.kind !== 'none' ? [idKey(f.expect.id)] : [])),
    );
    // A request whose id cannot be used (1.5, true, beyond 2^53) gets JSON-RPC's -32600 with a null id.
    const unusableIdAnswer = (r: JsonRpcResponse): boolean => r.id === null && r.error?.code === -32600;
    expect(outcome.responses.filter((r) => !known.has(idKey(r.id)) && !unusableIdAnswer(r)).map(short)).toEqual([]);
  });

  it(`keeps its memory bounded: RSS peak within ${PEAK_GROWTH_LIMIT_MiB} MiB of its level after initialize`, () => {
    const { baselineKiB, peakKiB, hwmKiB } = outcome.memory;
    expect(Math.max(peakKiB, hwmKiB) - baselineKiB).toBeLessThan(PEAK_GROWTH_LIMIT_MiB * 1024);
  });
});

/** Every broken promise about the selected frames, as readable lines (the first 20). */
function violations(outcome: Outcome, select: (f: Frame) => boolean): string[] {
  const byId = new Map<string, JsonRpcResponse[]>();
  for (const r of outcome.responses) byId.set(idKey(r.id), [...(byId.get(idKey(r.id)) ?? []), r]);
  const out: string[] = [];
  for (const [index, frame] of outcome.frames.entries()) {
    if (!select(frame)) continue;
    const e = frame.expect;
    const answers = 'id' in e && e.id !== undefined ? (byId.get(idKey(e.id)) ?? []) : [];
    const where = `frame #${index} (${frame.label})`;
    if (e.kind === 'valid') {
      if (answers.length !== 1) out.push(`${where}: ${answers.length} answers`);
      else if (answers[0].error) out.push(`${where}: error ${short(answers[0].error)}`);
      else {
        const problem = e.check(answers[0]);
        if (problem) out.push(`${where}: ${problem}`);
      }
    } else if (e.kind === 'error') {
      if (answers.length !== 1) out.push(`${where}: ${answers.length} answers`);
      else if (!answers[0].error) out.push(`${where}: answered with a result ${short(answers[0])}`);
      else if (e.code !== undefined && answers[0].error.code !== e.code)
        out.push(
          `${where}: error code ${answers[0].error.code}, expected ${e.code} (${answers[0].error.message.slice(0, 200)})`,
        );
    } else if (e.kind === 'may') {
      if (answers.length > 1) out.push(`${where}: ${answers.length} answers`);
    } else if (answers.length > 0) {
      out.push(`${where}: answered ${short(answers[0])}`);
    }
  }
  return out.length > 20 ? [...out.slice(0, 20), `… and ${out.length - 20} more`] : out;
}
