import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnAwf } from '../support/cli';
import { downUrl, QUEUE_BACKENDS, type QueueServer } from '../support/queue-servers';
import { describeUnless } from '../support/skip';
import { startOtlpReceiver } from '../support/telemetry-otlp-receiver';
import { awf, workflowProject } from './workflow-support';

/** Each step appends "<its run directory> <step>" to $MARK, then sleeps. */
const steps = (names: string[], sleep: number, last = 'true') =>
  `name: chain\nstates:\n  initial: ${names[0]}\n${names
    .map(
      (s, i) =>
        `  ${s}:\n    type: step\n    command: 'echo "$PWD ${s}" >> $MARK; sleep ${sleep}; ${i === names.length - 1 ? last : 'true'}'\n    on_success: ${names[i + 1] ?? 'done'}`,
    )
    .join('\n')}\n  done:\n    type: terminal\n`;

const until = async (what: () => boolean, ms = 30_000): Promise<void> => {
  for (const end = Date.now() + ms; !what(); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > end) throw new Error('timed out');
};
const exited = (p: ChildProcess): Promise<number | null> =>
  p.exitCode !== null ? Promise.resolve(p.exitCode) : new Promise((r) => p.once('exit', (code) => r(code)));

describe.each(QUEUE_BACKENDS)('awf worker and awf run --queue, the built CLI over a real $name', (backend) => {
  describeUnless(backend.skip, 'BullMQ on it', () => {
    let server: QueueServer;
    let project: ReturnType<typeof workflowProject>;
    let env: NodeJS.ProcessEnv;
    const workers: ChildProcess[] = [];
    const worker = (name: string): ChildProcess => {
      const args = ['worker', '--queue', server.url, '--workdir', join(project.dir, name)];
      const p = spawnAwf(args, { cwd: project.dir, env });
      workers.push(p);
      return p;
    };
    const marks = (): string[] => {
      const path = join(project.dir, 'marks');
      return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n') : [];
    };

    beforeAll(async () => {
      server = await backend.start();
      project = workflowProject({
        'ok.yaml': steps(['a', 'b'], 0),
        'fails.yaml': steps(['a', 'b'], 0, 'exit 7'),
        'slow.yaml': steps(['a', 'b'], 1),
        'three.yaml': steps(['a', 'b', 'c'], 1.5),
        'long.yaml': `name: long\nstates:\n  initial: a\n  a: {type: step, command: 'echo $$ > pid; exec sleep 60', on_success: done}\n  done: {type: terminal}\n`,
      });
      env = { ...project.env, AWF_QUEUE_SECRET: 'e2e-secret-0123456789', AWF_QUEUE_LOCK_MS: '1500' };
      // One PostgreSQL for queue and history, as docs/scale-out.md sets it up.
      if (backend.name === 'PostgreSQL') env.AWF_HISTORY_URL = server.url;
      env.MARK = join(project.dir, 'marks');
    }, 30_000);
    afterEach(async () => {
      for (const p of workers.splice(0)) {
        p.kill('SIGTERM');
        await exited(p);
      }
    });
    afterAll(async () => {
      await server?.stop();
      project?.cleanup();
    });

    it('prints the same progress, output and exit code as a local run', async () => {
      worker('w');
      const shape = (s: string) =>
        s
          .replace(/^run \S+ queued on .*\n/m, '')
          .replace(/ — resume with: awf resume \S+/, '')
          .replace(/[0-9a-f-]{36}/g, 'ID')
          .replace(/\d+(\.\d+)?m?s\b/g, 'T');
      for (const file of ['ok.yaml', 'fails.yaml']) {
        const local = awf(['run', file], { cwd: project.dir, env });
        const queued = awf(['run', file, '--queue', server.url], { cwd: project.dir, env });
        expect([queued.status, queued.stdout, shape(queued.stderr)]).toEqual([
          local.status,
          local.stdout,
          shape(local.stderr),
        ]);
        expect(shape(local.stderr)).toMatch(/✓ a +success/);
      }
      expect(awf(['run', 'fails.yaml', '--queue', server.url], { cwd: project.dir, env }).status).toBe(3);
    }, 60_000);

    it('--detach prints the run id (-f json: {"run_id": …}); runs follow shows it to its end', async () => {
      const text = awf(['run', 'ok.yaml', '--queue', server.url, '--detach'], { cwd: project.dir, env });
      const json = awf(['run', 'ok.yaml', '--queue', server.url, '--detach', '-f', 'json'], { cwd: project.dir, env });
      expect(text.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
      const { run_id } = JSON.parse(json.stdout) as { run_id: string };
      worker('w');
      const followed = awf(['runs', 'follow', run_id, '--queue', server.url], { cwd: project.dir, env });
      expect([followed.status, followed.stderr]).toEqual([0, expect.stringContaining('✓ chain succeeded')]);
    }, 60_000);

    it('Ctrl-C while following stops following; the run goes on and says how to follow or cancel it', async () => {
      worker('w');
      const p = spawnAwf(['run', 'slow.yaml', '--queue', server.url], { cwd: project.dir, env });
      let stderr = '';
      p.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      await until(() => stderr.includes('Workflow started'));
      p.kill('SIGINT');
      expect(await exited(p)).toBe(130);
      const id = /Workflow ID: (\S+)/.exec(stderr)![1];
      expect(stderr).toContain(`goes on on the queue.\n  follow it: awf runs follow ${id} --queue ${server.url}`);
      expect(stderr).toContain(`cancel it: awf runs cancel ${id}`);
      const followed = awf(['runs', 'follow', id, '--queue', server.url], { cwd: project.dir, env });
      expect(followed.status).toBe(0);
    }, 60_000);

    it('awf runs cancel stops a running run on its worker; its follower exits 3', async () => {
      worker('w');
      const r = awf(['run', 'long.yaml', '--queue', server.url, '--detach'], { cwd: project.dir, env });
      const id = r.stdout.trim();
      const pidFile = join(project.dir, 'w', id, 'pid');
      await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '');
      const cancelled = awf(['runs', 'cancel', id, '--queue', server.url], { cwd: project.dir, env });
      expect([cancelled.status, cancelled.stdout]).toEqual([
        0,
        `run ${id} is being cancelled: its worker stops the step in flight\n`,
      ]);
      const followed = awf(['runs', 'follow', id, '--queue', server.url], { cwd: project.dir, env });
      expect([followed.status, followed.stderr]).toEqual([3, expect.stringContaining('■ long cancelled at step a')]);
      expect(() => process.kill(Number(readFileSync(pidFile, 'utf8')), 0)).toThrow();
    }, 60_000);

    it('a worker killed with kill -9 mid-step: another takes its run over at that step; all runs succeed', async () => {
      const doomed = worker('w1');
      worker('w2');
      const ids = Array.from({ length: 8 }, () => {
        const r = awf(['run', 'three.yaml', '--queue', server.url, '--detach'], { cwd: project.dir, env });
        return r.stdout.trim();
      });
      // The moment a step of w1 starts, it is mid-step (it sleeps 1.5 s): kill it there.
      const w1 = `${join(project.dir, 'w1')}/`;
      await until(() => marks().some((m) => m.startsWith(w1) && !m.endsWith(' a')));
      doomed.kill('SIGKILL');
      const inFlight = marks()
        .filter((m) => m.startsWith(w1))
        .at(-1)!
        .slice(w1.length);
      for (const id of ids) {
        const r = awf(['runs', 'follow', id, '--queue', server.url, '-q'], { cwd: project.dir, env });
        expect([id, r.status]).toEqual([id, 0]);
      }
      const counts = new Map<string, number>();
      const byW2 = new Set<string>();
      for (const m of marks()) {
        const [dir, step] = m.split(' ');
        const key = `${dir.split('/').pop()} ${step}`;
        if (!ids.some((id) => key.startsWith(id))) continue;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (dir.includes('/w2/')) byW2.add(key);
      }
      // Every step of every run ran once, but the one in flight when w1 died: w2 ran it again (at-least-once).
      const expected = ids.flatMap((id) =>
        ['a', 'b', 'c'].map((s) => [`${id} ${s}`, `${id} ${s}` === inFlight ? 2 : 1]),
      );
      expect([...counts].sort()).toEqual(expected.sort());
      expect(byW2.has(inFlight)).toBe(true);
      // The history holds every run to its end, each with its three steps.
      const listed = awf(['runs', 'list', '-n', '100', '-f', 'json'], { cwd: project.dir, env });
      const runs = (JSON.parse(listed.stdout) as { runs: { run_id: string }[] }).runs;
      for (const id of ids)
        expect(runs.find((r) => r.run_id === id)).toMatchObject({ run_id: id, status: 'success', steps: 3 });
    }, 120_000);

    it("a worker with OpenTelemetry on sends each run's wait and run time, the queue's depth, and the run's own", async () => {
      const receiver = await startOtlpReceiver();
      try {
        const otel = { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_METRIC_EXPORT_INTERVAL: '300' };
        const w = spawnAwf(['worker', '--queue', server.url, '--workdir', join(project.dir, 'm')], {
          cwd: project.dir,
          env: otel,
        });
        workers.push(w);
        // Not synchronous: the receiver lives in this process and must answer the worker meanwhile.
        const run = spawnAwf(['run', 'ok.yaml', '--queue', server.url], { cwd: project.dir, env });
        expect(await exited(run)).toBe(0);
        await until(() => receiver.metrics.some((m) => m.name === 'awf.queue.depth'));
        w.kill('SIGTERM');
        expect(await exited(w)).toBe(0);
        const points = (name: string) => receiver.metrics.filter((m) => m.name === name).flatMap((m) => m.points);
        const run1 = { 'awf.workflow': 'chain', 'awf.run.status': 'success' };
        for (const name of ['awf.queue.wait', 'awf.queue.run', 'awf.run.duration'])
          expect(points(name)).toContainEqual(expect.objectContaining({ count: 1, attributes: run1 }));
        const states = new Set(points('awf.queue.depth').map((p) => p.attributes['awf.queue.state']));
        expect([...states].sort()).toEqual(['active', 'delayed', 'waiting']);
      } finally {
        await receiver.close();
      }
    }, 60_000);

    it('a queue that is down: a clear SYSTEM error naming the masked URL, exit 4; a bad URL: exit 1', () => {
      const url = downUrl(server.url);
      const masked = url.replace('hunter2', '***');
      for (const args of [
        ['run', 'ok.yaml', '--queue', url],
        ['worker', '--queue', url],
      ]) {
        const r = awf(args, { cwd: project.dir, env });
        expect([r.status, r.stderr]).toEqual([4, expect.stringContaining('[SYSTEM.QUEUE.UNAVAILABLE]')]);
        expect(r.stderr).toContain(masked);
        expect(r.stderr).not.toContain('hunter2');
      }
      const bad = awf(['run', 'ok.yaml', '--queue', 'http://awf:hunter2@127.0.0.1:1'], { cwd: project.dir, env });
      expect([bad.status, bad.stderr]).toEqual([1, expect.stringContaining('[USER.QUEUE.INVALID_URL]')]);
      expect(bad.stderr).toContain('http://awf:***@127.0.0.1:1');
      expect(bad.stderr).not.toContain('hunter2');
      const r = awf(['worker', '--queue', server.url], { cwd: project.dir, env: { ...env, AWF_QUEUE_SECRET: '' } });
      expect([r.status, r.stderr]).toEqual([1, expect.stringContaining('[USER.QUEUE.NO_SECRET]')]);
    });
  });
});
