import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Where Debian's postgresql package puts its binaries (.ci/run installs it); AWF_TEST_PG_BIN overrides. */
export const PG_BIN = process.env.AWF_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** Why a suite that needs PostgreSQL is skipped (describeUnless prints it), or undefined when it runs. */
export const NO_POSTGRES = existsSync(join(PG_BIN, 'pg_ctl'))
  ? undefined
  : `${PG_BIN}/pg_ctl is not installed (apt-get install postgresql)`;

export interface PostgresServer {
  /** postgres://awf@127.0.0.1:PORT/awf (trust authentication: loopback only, no password). */
  url: string;
  port: number;
  /** A new, empty database on the same server: one per test keeps tests apart. */
  createDatabase(name: string): string;
  stop(): Promise<void>;
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
function run(command: string, args: string[]): void {
  const bin = join(PG_BIN, command);
  if (process.getuid?.() !== 0) {
    execFileSync(bin, args, { stdio: 'pipe' });
    return;
  }
  const quoted = [bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
}

/**
 * A private PostgreSQL on a free loopback port, its data and socket in a temp dir; stopped by
 * `pg_ctl stop` (its postmaster's pid is in DIR/data/postmaster.pid) and the dir removed.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'awf-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  const port = await freePort();
  const data = join(dir, 'data');
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'awf', '--no-sync']);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'awf', 'awf']);
  } catch (err) {
    stopQuietly(data);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const base = `postgres://awf@127.0.0.1:${port}`;
  return {
    url: `${base}/awf`,
    port,
    createDatabase(name) {
      run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'awf', name]);
      return `${base}/${name}`;
    },
    async stop() {
      stopQuietly(data);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function stopQuietly(data: string): void {
  if (!existsSync(join(data, 'postmaster.pid'))) return;
  const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  try {
    run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  } catch {
    if (pid > 0) process.kill(pid, 'SIGTERM');
  }
}
