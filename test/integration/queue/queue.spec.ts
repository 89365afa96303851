import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../../../src/domain/ports/run-queue.port';
import { signJob } from '../../../src/infrastructure/queue/job-signature';
import { QUEUE_BACKENDS } from '../../support/queue-servers';
import { describeUnless } from '../../support/skip';
import { queueHarness, SECRET, stepsYaml } from './queue-harness';

const stepsOf = (events: RunEvent[]): string[] => events.flatMap((e) => (e.t === 'step' ? [e.step] : []));

describe.each(QUEUE_BACKENDS)('the run queue on a real $name', (backend) => {
  describeUnless(backend.skip, 'Nest-wired as awf run --queue and awf worker', () => {
    const h = queueHarness(backend);

    it('runs a queued run on a worker with its files and inputs, and its follower sees every step live', async () => {
      h.write('b.sh', 'echo "$(basename $PWD) b" >> $MARK; echo "hello $WHO from b"');
      const yaml = `name: queued
inputs:
  - {name: who, type: string}
  - {name: token, type: string, secret: true}
states:
  initial: a
  a: {type: step, command: 'echo "$(basename $PWD) a" >> $MARK; echo {{.inputs.who}} {{.inputs.token}}', on_success: b}
  b: {type: step, script_file: b.sh, on_success: done}
  done: {type: terminal}
`;
      const id = await h.enqueue(yaml, { who: 'ada' });
      await h.worker({ AWF_INPUT_TOKEN: 'sekret-from-worker-env' });
      const { report, events } = await h.follow(id);
      expect(report).toMatchObject({ status: 'success', run_id: id });
      expect(stepsOf(events)).toEqual(['a', 'b']);
      expect(report!.steps[0].output).toContain('ada');
      // The secret came from the worker's environment and is masked in what the run reports.
      expect(report!.steps[0].output).not.toContain('sekret-from-worker-env');
      expect(h.marks()).toEqual({ [`${id} a`]: 1, [`${id} b`]: 1 });
      expect(readFileSync(join(h.dir, 'worker-0', id, 'b.sh'), 'utf8')).toContain('hello');
    }, 30_000);

    it('checks the inputs before queueing, as a local run checks them', async () => {
      const yaml = stepsYaml(['a'], 0, 'inputs:\n  - {name: who, type: string, required: true}\n');
      await expect(h.enqueue(yaml)).rejects.toMatchObject({ code: 'USER.INPUT.VALIDATION_FAILED' });
      await expect(h.enqueue(yaml, { nope: '1' })).rejects.toMatchObject({ code: 'USER.INPUT.VALIDATION_FAILED' });
    });

    it('refuses a secret input given to a queued run, so its value never enters the queue', async () => {
      const yaml = stepsYaml(['a'], 0, 'inputs:\n  - {name: token, type: string, secret: true}\n');
      await expect(h.enqueue(yaml, { token: 'hunter2' })).rejects.toMatchObject({
        code: 'USER.QUEUE.SECRET_INPUT',
        hint: expect.stringContaining('AWF_INPUT_TOKEN'),
      });
    });

    it('refuses to queue a file it cannot carry: a templated path, or one outside the workflow directory', async () => {
      const templated = `name: t\ninputs:\n  - {name: f, type: string}\nstates:\n  initial: a\n  a: {type: step, script_file: '{{.inputs.f}}', on_success: done}\n  done: {type: terminal}\n`;
      await expect(h.enqueue(templated, { f: 'x.sh' })).rejects.toMatchObject({ code: 'USER.QUEUE.UNBUNDLABLE' });
      const outside = `name: o\nstates:\n  initial: a\n  a: {type: step, script_file: /etc/hostname, on_success: done}\n  done: {type: terminal}\n`;
      await expect(h.enqueue(outside)).rejects.toMatchObject({ code: 'USER.QUEUE.UNBUNDLABLE' });
    });

    it('fails unsigned, tampered and digest-mismatched jobs with a clear code and runs none of them', async () => {
      const target = h.write('wf.yaml', stepsYaml(['a'], 0));
      const job = await h.queued.prepare({ target, inputs: {}, env: h.env(), cwd: h.dir });
      const queue = h.server.queue('awf-runs');
      const forRun = (runId: string) => ({ ...job, run_id: runId });
      const tamper = (runId: string) => {
        const signed = signJob(forRun(runId), SECRET);
        return { ...signed, payload: signed.payload.replace('sleep 0', 'sleep 0; touch pwned') };
      };
      const cases = [
        ['unsigned', (runId: string) => ({ payload: JSON.stringify(forRun(runId)) }), 'EXECUTION.QUEUE.BAD_SIGNATURE'],
        ['tampered', tamper, 'EXECUTION.QUEUE.BAD_SIGNATURE'],
        [
          'other-secret',
          (runId: string) => signJob(forRun(runId), 'another-secret-0123456789'),
          'EXECUTION.QUEUE.BAD_SIGNATURE',
        ],
        [
          'bad-digest',
          (runId: string) =>
            signJob({ ...forRun(runId), files: job.files.map((f) => ({ ...f, text: `${f.text}#` })) }, SECRET),
          'EXECUTION.QUEUE.BAD_DIGEST',
        ],
      ] as const;
      await h.worker();
      for (const [what, body, code] of cases) {
        const runId = `${job.run_id}-${what}`;
        await queue.add('x', body(runId), { jobId: runId });
        const { report } = await h.follow(runId);
        expect({ what, code: report?.error?.code }).toEqual({ what, code });
        expect(await (await queue.getJob(runId))!.getState()).toBe('failed');
      }
      await queue.close();
      expect(existsSync(join(h.dir, 'marks'))).toBe(false);
    }, 30_000);

    it('cancels a waiting run (removed) and a running one (its step process killed)', async () => {
      const waiting = await h.enqueue(stepsYaml(['a'], 0));
      const following = h.follow(waiting);
      await new Promise((r) => setTimeout(r, 300));
      await expect(h.client.cancel(waiting)).resolves.toBe('removed');
      expect((await following).report).toMatchObject({ status: 'cancelled', run_id: waiting, workflow: 'queued' });

      const yaml = `name: long\nstates:\n  initial: a\n  a: {type: step, command: 'echo $$ > pid; exec sleep 30', on_success: done}\n  done: {type: terminal}\n`;
      const running = await h.enqueue(yaml);
      await h.worker();
      const pidFile = join(h.dir, 'worker-0', running, 'pid');
      while (!existsSync(pidFile) || !readFileSync(pidFile, 'utf8').trim()) await new Promise((r) => setTimeout(r, 50));
      await expect(h.client.cancel(running)).resolves.toBe('signalled');
      expect((await h.follow(running)).report).toMatchObject({ status: 'cancelled' });
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(() => process.kill(pid, 0)).toThrow();
      await expect(h.client.cancel(running)).rejects.toMatchObject({ code: 'USER.QUEUE.RUN_ENDED' });
      await expect(h.client.cancel('no-such-run')).rejects.toMatchObject({ code: 'USER.RUN.NOT_FOUND' });
    }, 30_000);

    it('ends the follow of a run whose waiting job was removed by hand: it never ran, so it is cancelled', async () => {
      const id = await h.enqueue(stepsYaml(['a'], 0));
      const following = h.follow(id);
      await new Promise((r) => setTimeout(r, 300));
      const queue = h.server.queue('awf-runs');
      await queue.remove(id);
      await queue.close();
      expect((await following).report).toMatchObject({ status: 'cancelled', steps: [] });
    }, 30_000);

    it('ends the follow of a run whose job failed with no ending from an awf worker, with the reason', async () => {
      const id = await h.enqueue(stepsYaml(['a'], 0));
      const following = h.follow(id);
      const stranger = h.server.worker('awf-runs', () => Promise.reject(new Error('not an awf worker')));
      try {
        expect((await following).report).toMatchObject({
          status: 'failure',
          error: { code: 'EXECUTION.QUEUE.JOB_FAILED', message: expect.stringContaining('not an awf worker') },
        });
      } finally {
        await stranger.close();
      }
    }, 30_000);

    it('rides out a queue that drops every connection mid-run: the run succeeds, each step once', async () => {
      const id = await h.enqueue(stepsYaml(['a', 'b', 'c'], 1));
      await h.worker();
      await new Promise((r) => setTimeout(r, 1500));
      // The worker's, the follower's and the client's connections, all at once.
      expect(await h.server.dropConnections()).toBeGreaterThanOrEqual(3);
      const { report } = await h.follow(id);
      expect(report?.status).toBe('success');
      expect(h.marks()).toEqual({ [`${id} a`]: 1, [`${id} b`]: 1, [`${id} c`]: 1 });
    }, 30_000);

    it('a stopping worker finishes the step in flight and hands the run back; the next resumes after it', async () => {
      const id = await h.enqueue(stepsYaml(['a', 'b', 'c'], 1));
      const first = await h.worker();
      while (!h.marks()[`${id} a`]) await new Promise((r) => setTimeout(r, 50));
      await first.stop();
      h.pools.splice(h.pools.indexOf(first), 1);
      expect(h.marks()).toEqual({ [`${id} a`]: 1 });
      await h.worker();
      const { report, events } = await h.follow(id);
      expect(report?.status).toBe('success');
      expect(events.some((e) => e.t === 'handed-back')).toBe(true);
      expect(h.marks()).toEqual({ [`${id} a`]: 1, [`${id} b`]: 1, [`${id} c`]: 1 });
    }, 30_000);
  });
});
