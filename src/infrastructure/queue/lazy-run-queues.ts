import type { RunQueue, RunQueues, RunWorkerPool, WorkerOptions } from '../../domain/ports/run-queue.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { queueSettings } from './queue-settings';

type Bullmq = typeof import('./bullmq-run-queues');

/** Default lock: a worker silent this long (killed, frozen, cut off) has its runs taken over. */
const LOCK_MS = 30_000;

/**
 * The RunQueues port for every command that may use a queue: the URL and AWF_QUEUE_SECRET are
 * checked first, and BullMQ (with ioredis or pg) is required only then, so `awf run` without
 * `--queue` never loads it. The password and the secret go to the masker before anything connects.
 */
export class LazyRunQueues implements RunQueues {
  constructor(
    private readonly masker: SecretMasker,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async client(url: string): Promise<RunQueue> {
    const settings = this.settings(url);
    return this.load().client(settings, (line) => process.stderr.write(`${this.masker.mask(line)}\n`));
  }

  async worker(url: string, options: WorkerOptions): Promise<RunWorkerPool> {
    const settings = this.settings(url);
    const lockMs = Number(this.env.AWF_QUEUE_LOCK_MS) || LOCK_MS;
    const log = (line: string): void => options.log(this.masker.mask(line));
    return this.load().worker(settings, { ...options, log, workdir: options.workdir ?? process.cwd(), lockMs });
  }

  private settings(url: string): ReturnType<typeof queueSettings> {
    const settings = queueSettings(url, this.env);
    this.masker.add(settings.secret, ...(settings.password ? [settings.password] : []));
    return settings;
  }

  private load(): InstanceType<Bullmq['BullmqRunQueues']> {
    const { BullmqRunQueues } = require('./bullmq-run-queues') as Bullmq;
    return new BullmqRunQueues();
  }
}
