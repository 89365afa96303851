import { createHmac, timingSafeEqual } from 'node:crypto';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { RunJob } from '../../domain/ports/run-queue.port';

/** A job as BullMQ stores it: the run as JSON text, and the HMAC-SHA256 of exactly that text. */
export interface SignedJob {
  payload: string;
  sig: string;
}

function hmac(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload, 'utf8').digest('hex');
}

export function signJob(job: RunJob, secret: string): SignedJob {
  const payload = JSON.stringify(job);
  return { payload, sig: hmac(payload, secret) };
}

/** The run in a job, when its signature is ours and it is the job it says it is; else BAD_SIGNATURE. */
export function openJob(data: unknown, secret: string, jobId: string | undefined): RunJob {
  const signed = data as Partial<SignedJob> | undefined;
  if (typeof signed?.payload !== 'string' || typeof signed.sig !== 'string') throw refused('it is not signed');
  const expected = Buffer.from(hmac(signed.payload, secret), 'hex');
  const given = Buffer.from(signed.sig, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw refused('its signature does not match (another AWF_QUEUE_SECRET, or changed in the queue)');
  const job = JSON.parse(signed.payload) as RunJob;
  if (job.run_id !== jobId) throw refused(`it is signed for run ${job.run_id}, not ${jobId}`);
  return job;
}

function refused(why: string): AwfError {
  return new AwfError(
    ErrorCodes.QUEUE_BAD_SIGNATURE,
    `job refused: ${why}`,
    {},
    'Give `awf run --queue` and the workers the same AWF_QUEUE_SECRET; check who else can write to the queue.',
  );
}
