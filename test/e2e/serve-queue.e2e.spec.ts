import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../support/awf-serve';
import { spawnAwf } from '../support/cli';
import { call, openEvents } from '../support/http-api-client';
import { downUrl, QUEUE_BACKENDS, type QueueServer } from '../support/queue-servers';
import { describeUnless } from '../support/skip';
import { waitForFiles } from '../support/run-watch';
import { awf, processesWith, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const MARKER = 'awf-serve-queue-e2e-long';
const files = {
  '.awf/workflows/two.yaml': `name: two
states:
  initial: a
  a: {type: step, command: 'echo "$PWD" > where; echo one', on_success: b}
  b: {type: step, command: 'echo two', on_success: done}
  done: {type: terminal}
`,
  '.awf/workflows/long.yaml': `name: long
states:
  initial: wait
  wait: {type: step, command: 'touch started; exec sleep 60 # ${MARKER}', on_success: done}
  done: {type: terminal}
`,
};
const exited = (p: ChildProcess): Promise<number | null> =>
  p.exitCode !== null ? Promise.resolve(p.exitCode) : new Promise((r) => p.once('exit', (code) => r(code)));

describe.each(QUEUE_BACKENDS)('awf serve --queue on a real $name', (backend) => {
  describeUnless(backend.skip, 'the runs it is asked for go to the workers', () => {
    let queue: QueueServer;
    const project = workflowProject(files);
    const env = { ...project.env, AWF_QUEUE_SECRET: 'e2e-secret-0123456789', AWF_QUEUE_LOCK_MS: '1500' };
    const children: ChildProcess[] = [];
    const worker = (): ChildProcess => {
      const p = spawnAwf(['worker', '--queue', queue.url, '--workdir', join(project.dir, 'w')], {
        cwd: project.dir,
        env,
      });
      children.push(p);
      return p;
    };

    beforeAll(async () => {
      queue = await backend.start();
    });
    afterEach(async () => {
      for (const p of children.splice(0)) {
        p.kill('SIGTERM');
        await exited(p);
      }
    });
    afterAll(async () => {
      await queue?.stop();
      project.cleanup();
    });

    it('POST …/run is queued, a worker runs it in its own directory, and the event stream follows it to its end', async () => {
      const server = await serve(project, ['--queue', queue.url], env);
      children.push(server.child);
      expect(server.out()).toContain(`Runs go to the workers of ${queue.url}`);
      // Answered at once, though no worker is there yet: the run waits on the queue.
      const started = await call(server.url, 'POST', '/api/workflows/local/two/run', { body: {} });
      expect(started.status).toBe(202);
      const id = started.json.body.execution_id as string;
      const events = openEvents(server.url, `/api/executions/${id}/events`);
      worker();
      await events.ended;
      const seen = events.frames.map((f) => [f.data.kind, f.data.step ?? ''].join(' ').trim());
      expect(seen).toEqual([
        'run.started',
        'step.started a',
        'step.completed a',
        'step.started b',
        'step.completed b',
        'run.completed',
        'workflow.completed',
      ]);
      expect(readFileSync(join(project.dir, 'w', id, 'where'), 'utf8').trim()).toBe(join(project.dir, 'w', id));
    });

    it('DELETE cancels a queued run on its worker, whose step process ends; stopping serve leaves runs to the workers', async () => {
      const server = await serve(project, ['--queue', queue.url], env);
      children.push(server.child);
      worker();
      const id = (await call(server.url, 'POST', '/api/workflows/local/long/run', { body: {} })).json.body.execution_id;
      const events = openEvents(server.url, `/api/executions/${id}/events`);
      await waitForFiles([join(project.dir, 'w', id, 'started')]);
      expect((await call(server.url, 'DELETE', `/api/executions/${id}`)).status).toBe(204);
      await events.ended;
      expect(events.frames.at(-1)!.data).toMatchObject({ kind: 'workflow.failed', status: 'cancelled' });
      await new Promise((r) => setTimeout(r, 500));
      expect(processesWith(MARKER)).toEqual([]);

      const second = (await call(server.url, 'POST', '/api/workflows/local/two/run', { body: {} })).json.body
        .execution_id as string;
      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
      await waitForFiles([join(project.dir, 'w', second, 'where')]);
      const followed = awf(['runs', 'follow', second, '--queue', queue.url], { cwd: project.dir, env });
      expect([followed.status, followed.stderr]).toEqual([0, expect.stringContaining('✓ two succeeded')]);
    });

    it('a queue that is down: serve does not start, and says which queue (its password masked), exit 4', () => {
      const down = downUrl(queue.url);
      const r = awf(['serve', '--queue', down], { cwd: project.dir, env });
      expect([r.status, r.stderr]).toEqual([4, expect.stringContaining('[SYSTEM.QUEUE.UNAVAILABLE]')]);
      expect(r.stderr).toContain(down.replace('hunter2', '***'));
      expect(r.stderr).not.toContain('hunter2');
    });
  });
});
