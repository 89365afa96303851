import { parseInputFlags } from '../../../application/workflow/run/input-resolver';
import type { QueuedRuns } from '../../../application/queue/queued-runs.service';
import { replay } from '../../../application/queue/run-events';
import type { RunQueues } from '../../../domain/ports/run-queue.port';
import type { RunReport } from '../../../domain/workflow/run-report.model';
import { type GlobalFlags, jsonLine } from '../global-flags';
import { queueUrl } from '../worker/queue-flag';
import type { RunSessionContext } from './run-session.command-base';
import { stringEnv } from './run-session.command-base';
import { failIfCancelled } from './run-ending';

export interface QueuedRunRequest {
  target: string;
  queue: string | true;
  detach?: boolean;
  input?: string[];
  flags: GlobalFlags;
  projectInputs: Record<string, unknown>;
  queues: RunQueues;
  queued: QueuedRuns;
  /** The local run's session (progress, output, closing line, exit code) around the follow. */
  session: (start: (base: RunSessionContext) => Promise<RunReport>) => Promise<void>;
}

/** Ctrl-C while following: the run goes on; the follow ends without a report. */
class StoppedFollowing extends Error {}

/**
 * `awf run NAME --queue URL`: the run is checked and packed here, runs on a worker, and is
 * followed to its end with the same progress lines and exit code as a local run.
 * `--detach` prints its id and returns. Ctrl-C stops following, not the run.
 */
export async function runOnQueue(r: QueuedRunRequest): Promise<void> {
  const queue = await r.queues.client(queueUrl(r.queue));
  const env = stringEnv(process.env);
  const cwd = process.cwd();
  try {
    if (r.detach) {
      const inputs = parseInputFlags(r.input ?? []);
      const job = await r.queued.prepare({ target: r.target, inputs, projectInputs: r.projectInputs, env, cwd });
      await queue.enqueue(job);
      process.stdout.write(r.flags.format === 'json' ? jsonLine({ run_id: job.run_id }) : `${job.run_id}\n`);
      return;
    }
    let ended: RunReport | undefined;
    await r.session(async (base) => {
      const { inputs, projectInputs, observer } = base;
      const job = await r.queued.prepare({ target: r.target, inputs, projectInputs, env, cwd, observer });
      await queue.enqueue(job);
      base.observer.info?.(`run ${job.run_id} queued on ${queue.label}`);
      const seen = { started: false };
      const report = await queue.follow(job.run_id, (e) => replay(e, base.observer, seen), base.signal);
      if (report) return (ended = report);
      const again = `--queue ${queue.label}`;
      process.stderr.write(
        `\nStopped following run ${job.run_id}; it goes on on the queue.\n` +
          `  follow it: awf runs follow ${job.run_id} ${again}\n` +
          `  cancel it: awf runs cancel ${job.run_id} ${again}\n`,
      );
      throw new StoppedFollowing();
    });
    if (ended) failIfCancelled(ended);
  } catch (err) {
    if (!(err instanceof StoppedFollowing)) throw err;
  } finally {
    await queue.close();
  }
}
