import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { AWF_VERSION, versionText } from '../../version';

/**
 * The startup snapshot of an installed awf, built for the user's own node on first use (ADR 121).
 * A blob works only with the node binary that built it and resolves files from the dist/ it was
 * built in, so the package ships the snapshot bundle (dist/awf-snapshot.cjs), not a blob, and
 * each (awf build, dist/, node) gets its own blob in `$XDG_CACHE_HOME/awf/snapshots`
 * (~/.cache/awf/snapshots). Building takes a few seconds, once; until a blob is there, or when
 * this node cannot build one, awf starts from the bundle, which works the same, only slower.
 */
export const SNAPSHOT_BUNDLE = 'awf-snapshot.cjs';

/**
 * V8 flags the blob is built and run with; scripts/build-bundle.mjs uses the same. A small young
 * generation (ADR 091), and functions optimised after a sixteenth of V8's default interrupt
 * budget: a step's mcp-serve lives for hundreds of calls, not the millions the default is tuned for (ADR 237).
 */
export const SNAPSHOT_V8_FLAGS = ['--max-semi-space-size=4', '--interrupt-budget=4096'];

/** A lock older than this is a builder that died: a build takes seconds. */
const STALE_LOCK_MS = 120_000;

export interface CachedSnapshot {
  blob: string;
  meta: string;
}

/** Where this dist's blob for the running node lives, or undefined when dist ships no snapshot bundle. */
export function cachedSnapshot(dist: string, env: NodeJS.ProcessEnv = process.env): CachedSnapshot | undefined {
  let bundle;
  try {
    bundle = statSync(join(dist, SNAPSHOT_BUNDLE));
  } catch {
    return undefined;
  }
  // The bundle's size and mtime stand for its content: a rebuild or a reinstall gets a new key.
  const id = createHash('sha256')
    .update(JSON.stringify([dist, bundle.size, bundle.mtimeMs, SNAPSHOT_V8_FLAGS]))
    .digest('hex')
    .slice(0, 16);
  const base = join(
    cacheDir(env),
    `awf-${AWF_VERSION}-node-${process.version}-${process.platform}-${process.arch}-${id}`,
  );
  return { blob: `${base}.blob`, meta: `${base}.blob.json` };
}

function cacheDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'awf', 'snapshots');
}

/**
 * Builds the cached blob when it is missing, and returns whether it is there now. Safe under
 * concurrent first runs: one builder holds `<blob>.lock`; the others start from the bundle this
 * time. The blob and its .json appear by rename, after the blob has been seen to load, so a
 * reader never finds half of one. A node that cannot build it leaves `<blob>.failed` with the
 * reason and is not asked again. Never throws: a start without the snapshot is still a start.
 */
export function ensureCachedSnapshot(
  dist: string,
  env: NodeJS.ProcessEnv = process.env,
  note: (line: string) => void = () => undefined,
): boolean {
  const target = cachedSnapshot(dist, env);
  if (!target) return false;
  if (existsSync(target.meta) && existsSync(target.blob)) return true;
  if (existsSync(`${target.blob}.failed`)) return false;
  try {
    mkdirSync(join(target.blob, '..'), { recursive: true, mode: 0o700 });
    if (!takeLock(`${target.blob}.lock`)) return false;
  } catch {
    return false;
  }
  try {
    note(`awf: building the startup snapshot for node ${process.version} into ${join(target.blob, '..')} (once)`);
    const why = buildBlob(dist, target);
    if (why !== undefined) writeFileSync(`${target.blob}.failed`, `${why}\n`);
    return why === undefined;
  } catch {
    return false;
  } finally {
    rmSync(`${target.blob}.lock`, { force: true });
  }
}

/** Why the blob could not be built, or undefined once it is in place. */
function buildBlob(dist: string, target: CachedSnapshot): string | undefined {
  const tmp = `${target.blob}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  // Only PATH: nothing of the caller's environment may be captured in a heap every start reuses.
  const quiet = { cwd: dist, encoding: 'utf8' as const, env: { PATH: process.env.PATH ?? '' }, timeout: 120_000 };
  try {
    const made = spawnSync(
      process.execPath,
      [...SNAPSHOT_V8_FLAGS, '--snapshot-blob', tmp, '--build-snapshot', join(dist, SNAPSHOT_BUNDLE)],
      quiet,
    );
    if (made.status !== 0)
      return `the snapshot build failed: ${lastLines(made.stderr || made.stdout || String(made.error))}`;
    const ran = spawnSync(
      process.execPath,
      [...SNAPSHOT_V8_FLAGS, '--snapshot-blob', tmp, join(dist, 'main.js'), '--version'],
      quiet,
    );
    // The blob must answer as this very dist does: its version, commit and build date.
    if (ran.status !== 0 || ran.stdout.trim() !== versionText(dist))
      return `the blob does not load: ${lastLines(ran.stderr || ran.stdout)}`;
    renameSync(tmp, target.blob);
    const meta = {
      node: process.version,
      arch: process.arch,
      platform: process.platform,
      flags: SNAPSHOT_V8_FLAGS,
      dist,
    };
    writeFileSync(`${tmp}.json`, `${JSON.stringify(meta)}\n`);
    renameSync(`${tmp}.json`, target.meta);
    return undefined;
  } finally {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}.json`, { force: true });
  }
}

/** O_EXCL create; a lock whose holder is gone, or that is older than a build can take, is taken over once. */
function takeLock(file: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !staleLock(file)) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

function staleLock(file: string): boolean {
  try {
    if (Date.now() - statSync(file).mtimeMs > STALE_LOCK_MS) return true;
    const pid = Number(readFileSync(file, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false; // being written this instant
    process.kill(pid, 0);
    return false;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ESRCH' || code === 'ENOENT';
  }
}

const lastLines = (text: string) => text.trim().split('\n').slice(-2).join(' | ');
