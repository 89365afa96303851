import { randomInt } from 'node:crypto';

/**
 * A small deterministic PRNG (mulberry32). Every random choice of a reliability suite comes
 * from one of these, so a printed seed replays the exact same frames, sizes and timings.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = this.int(0, 255);
    return out;
  }

  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-'): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }
}

/**
 * The seed of a run: `envName` when set (to replay a failure), otherwise a fresh one. Either
 * way it is printed, because a fuzz failure without its seed cannot be reproduced.
 */
export function seedFromEnv(envName: string, suite: string): number {
  const raw = process.env[envName];
  const seed = raw !== undefined && raw !== '' ? Number(raw) >>> 0 : randomInt(0, 2 ** 32 - 1);
  if (raw !== undefined && raw !== '' && !Number.isFinite(Number(raw)))
    throw new Error(`${envName}=${raw} is not a number`);
  process.stderr.write(`[${suite}] seed ${seed} (replay with ${envName}=${seed})\n`);
  return seed;
}
