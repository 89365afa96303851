import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnAwf } from '../support/cli';
import { NO_REDIS, type RedisServer, startRedis } from '../support/redis-server';
import { describeUnless } from '../support/skip';
import { awf, workflowProject } from './workflow-support';

// Each item appends "<its child job's directory> <item>" to $MARK, sleeps, and says which item it was.
const FAN = (sleep: number) => `name: fan
states:
  initial: each
  each:
    type: for_each
    items: [a, b, c, d]
    fan_out: true
    max_concurrent: 2
    body: [work]
    on_success: done
  work:
    type: step
    command: 'echo "$PWD {{.loop.Item}}" >> $MARK; sleep ${sleep}; echo "item {{.loop.Item}}"'
  done: {type: terminal}
`;

const until = async (what: () => boolean, ms = 30_000): Promise<void> => {
  for (const end = Date.now() + ms; !what(); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > end) throw new Error('timed out');
};
const exited = (p: ChildProcess): Promise<number | null> =>
  p.exitCode !== null || p.signalCode !== null
    ? Promise.resolve(p.exitCode)
    : new Promise((r) => p.once('exit', (code) => r(code)));

describeUnless(NO_REDIS, 'fan_out: true on awf worker, the built CLI over a real redis-server', () => {
  let redis: RedisServer;
  let project: ReturnType<typeof workflowProject>;
  let env: NodeJS.ProcessEnv;
  const workers: ChildProcess[] = [];
  const worker = (name: string): ChildProcess => {
    const p = spawnAwf(['worker', '--queue', redis.url, '--workdir', join(project.dir, name)], {
      cwd: project.dir,
      env,
    });
    workers.push(p);
    return p;
  };
  const marks = (): string[] => {
    const path = join(project.dir, 'marks');
    return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n') : [];
  };

  beforeAll(async () => {
    redis = await startRedis();
    project = workflowProject({ 'fan.yaml': FAN(0.5), 'slow-fan.yaml': FAN(3) });
    env = { ...project.env, AWF_QUEUE_SECRET: 'e2e-secret-0123456789', AWF_QUEUE_LOCK_MS: '1500' };
    env.MARK = join(project.dir, 'marks');
  }, 30_000);
  afterEach(async () => {
    for (const p of workers.splice(0)) {
      p.kill('SIGTERM');
      await exited(p);
    }
  });
  afterAll(async () => {
    await redis?.stop();
    project?.cleanup();
  });

  it("awf run --queue says the items go out as child jobs and prints each item's step as a local run does", async () => {
    worker('w1');
    worker('w2');
    const r = awf(['run', 'fan.yaml', '--queue', redis.url], { cwd: project.dir, env });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('each: 4 items as child jobs on redis://127.0.0.1');
    expect(r.stderr.match(/✓ work/g)).toHaveLength(4);
    expect(r.stderr).toContain('✓ fan succeeded');
  }, 60_000);

  it('a worker killed with kill -9 while it runs a child: another worker runs that item again; the run succeeds', async () => {
    worker('w1');
    const id = awf(['run', 'slow-fan.yaml', '--queue', redis.url, '--detach'], { cwd: project.dir, env }).stdout.trim();
    // The run is on w1; w2 starts next and takes a child job, and is killed mid-item.
    await until(() => existsSync(join(project.dir, 'w1', id)));
    const doomed = worker('w2');
    const w2 = `${join(project.dir, 'w2')}/`;
    const ours = (): string[] => marks().filter((m) => m.includes(`/${id}.`));
    await until(() => ours().some((m) => m.startsWith(w2)));
    doomed.kill('SIGKILL');
    const killed = ours()
      .find((m) => m.startsWith(w2))!
      .split(' ')[1];
    const r = awf(['runs', 'follow', id, '--queue', redis.url], { cwd: project.dir, env });
    expect([r.status, r.stderr]).toEqual([0, expect.stringContaining('✓ fan succeeded')]);
    const items = ours().map((m) => m.split(' ')[1]);
    // Every item ran; the one w2 was running ran again elsewhere (at-least-once).
    for (const item of ['a', 'b', 'c', 'd'])
      expect([item, items.filter((i) => i === item).length]).toEqual([item, item === killed ? 2 : 1]);
  }, 90_000);
});
