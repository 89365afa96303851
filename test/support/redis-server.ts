import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Where Debian's redis-server package puts it (.ci/run installs it); AWF_TEST_REDIS_SERVER overrides. */
export const REDIS_SERVER = process.env.AWF_TEST_REDIS_SERVER ?? '/usr/bin/redis-server';
/** Why a suite that needs Redis is skipped (describeUnless prints it), or undefined when it runs. */
export const NO_REDIS = existsSync(REDIS_SERVER)
  ? undefined
  : `${REDIS_SERVER} is not installed (apt-get install redis-server)`;

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

async function accepting(port: number, until: number): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`redis-server did not listen on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A private redis-server on a free loopback port in a temp dir, nothing saved; stopped by its pid. */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'awf-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const child: ChildProcess = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
  await accepting(port, Date.now() + 10_000);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
