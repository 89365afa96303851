import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, type TestingModule } from '@nestjs/testing';
import { QueuedRuns } from '../../../src/application/queue/queued-runs.service';
import { type RunEvent, type RunQueue, RUN_QUEUES, type RunQueues } from '../../../src/domain/ports/run-queue.port';
import type { RunWorkerPool } from '../../../src/domain/ports/run-queue.port';
import type { RunReport } from '../../../src/domain/workflow/run-report.model';
import { ProjectConfigModule } from '../../../src/infrastructure/config/project-config.module';
import { CoreModule } from '../../../src/infrastructure/core/core.module';
import { QueuedRunsModule } from '../../../src/infrastructure/queue/queued-runs.module';
import type { QueueBackendCase, QueueServer } from '../../support/queue-servers';

export const SECRET = 'test-secret-0123456789abcdef';

/** A workflow of command steps that each append "<run id> <step>" to $MARK, then sleep. */
export function stepsYaml(steps: string[], sleep = 1, extra = ''): string {
  const states = steps.map((s, i) => {
    const next = steps[i + 1] ?? 'done';
    return `  ${s}:\n    type: step\n    command: 'echo "$(basename $PWD) ${s}" >> $MARK; sleep ${sleep}'\n    on_success: ${next}`;
  });
  return `name: queued\n${extra}states:\n  initial: ${steps[0]}\n${states.join('\n')}\n  done:\n    type: terminal\n`;
}

/**
 * The queue's two ends in one Nest container wired as the CLI wires `awf run` and `awf worker`,
 * over a private server of the backend: enqueue as `awf run --queue` does, run workers as `awf worker` does.
 */
export function queueHarness(backend: QueueBackendCase) {
  const h = {
    server: undefined as unknown as QueueServer,
    queues: undefined as unknown as RunQueues,
    queued: undefined as unknown as QueuedRuns,
    client: undefined as unknown as RunQueue,
    dir: '',
    logs: [] as string[],
    pools: [] as RunWorkerPool[],
    env: () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: h.dir, MARK: join(h.dir, 'marks') }),
    write(name: string, text: string): string {
      writeFileSync(join(h.dir, name), text);
      return join(h.dir, name);
    },
    async enqueue(yaml: string, inputs: Record<string, string> = {}): Promise<string> {
      const job = await h.queued.prepare({ target: h.write('wf.yaml', yaml), inputs, env: h.env(), cwd: h.dir });
      await h.client.enqueue(job);
      return job.run_id;
    },
    async worker(env: Record<string, string> = {}, concurrency = 1): Promise<RunWorkerPool> {
      const workdir = join(h.dir, `worker-${h.pools.length}`);
      const pool = await h.queues.worker(h.server.url, {
        concurrency,
        workdir,
        log: (line) => h.logs.push(line),
        handler: (job, context) =>
          h.queued.execute(job, { env: { ...h.env(), ...env }, runsDir: join(h.dir, 'runs') }, context),
        branchHandler: (job, context) =>
          h.queued.executeTask(job, { env: { ...h.env(), ...env }, runsDir: join(h.dir, 'runs') }, context),
      });
      h.pools.push(pool);
      return pool;
    },
    async follow(runId: string): Promise<{ report?: RunReport; events: RunEvent[] }> {
      const events: RunEvent[] = [];
      const report = await h.client.follow(runId, (e) => events.push(e), AbortSignal.timeout(60_000));
      return { report, events };
    },
    /** "<run id> <step>" lines the steps wrote, counted. */
    marks(): Record<string, number> {
      const path = join(h.dir, 'marks');
      const lines = existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n') : [];
      return lines.reduce<Record<string, number>>((n, l) => ({ ...n, [l]: (n[l] ?? 0) + 1 }), {});
    },
  };
  let app: TestingModule | undefined;
  const saved = { ...process.env };
  beforeAll(async () => {
    process.env.AWF_QUEUE_SECRET = SECRET;
    process.env.AWF_QUEUE_LOCK_MS = '1500';
    h.server = await backend.start();
    app = await Test.createTestingModule({
      imports: [ProjectConfigModule.forRoot(), CoreModule, QueuedRunsModule],
    }).compile();
    await app.init();
    h.queues = app.get(RUN_QUEUES);
    h.queued = app.get(QueuedRuns);
    h.client = await h.queues.client(h.server.url);
  }, 30_000);
  beforeEach(() => {
    h.dir = mkdtempSync(join(tmpdir(), 'awf-queue-'));
    h.logs = [];
  });
  afterEach(async () => {
    await Promise.all(h.pools.splice(0).map((p) => p.stop()));
    rmSync(h.dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await h.client?.close();
    await app?.close();
    await h.server?.stop();
    process.env.AWF_QUEUE_SECRET = saved.AWF_QUEUE_SECRET;
    process.env.AWF_QUEUE_LOCK_MS = saved.AWF_QUEUE_LOCK_MS;
    if (saved.AWF_QUEUE_SECRET === undefined) delete process.env.AWF_QUEUE_SECRET;
    if (saved.AWF_QUEUE_LOCK_MS === undefined) delete process.env.AWF_QUEUE_LOCK_MS;
  }, 30_000);
  return h;
}
