import { createHmac, timingSafeEqual } from 'node:crypto';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ApprovalAnswer } from '../../domain/ports/approval-gate.port';
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

/** A person's answer on its way to the worker that asked: which run and question, and the answer. */
export interface QueueAnswer {
  run_id: string;
  approval_id: string;
  answer: ApprovalAnswer;
}

/** Signed as jobs are: a worker takes an answer only from whoever holds AWF_QUEUE_SECRET (ADR 310). */
export function signAnswer(answer: QueueAnswer, secret: string): SignedJob {
  const payload = JSON.stringify(answer);
  return { payload, sig: hmac(payload, secret) };
}

/** The answer, when signed with our secret for run `jobId`; undefined for anything else (ignored). */
export function openAnswer(data: unknown, secret: string, jobId: string): QueueAnswer | undefined {
  const signed = data as Partial<SignedJob> | undefined;
  if (typeof signed?.payload !== 'string' || typeof signed.sig !== 'string') return undefined;
  const expected = Buffer.from(hmac(signed.payload, secret), 'hex');
  const given = Buffer.from(signed.sig, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const answer = JSON.parse(signed.payload) as QueueAnswer;
  return answer.run_id === jobId ? answer : undefined;
}
