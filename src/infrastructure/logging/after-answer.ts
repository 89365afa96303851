/**
 * How long a record may wait for the ones after it. Records run together: a log line, a span's
 * end and a metric cost a few µs each when a batch of them runs on warm caches, and several
 * times that when each runs alone between two calls, where it also evicts the call path's own
 * code (ADR 238). The log stream writes at the same pace (COALESCE_WINDOW_MS).
 */
export const RECORD_WINDOW_MS = 20;

const records: Array<{ record: () => void; at: number }> = [];
let recordTimer: NodeJS.Timeout | undefined;
/** The time of the call whose record is running: its log line says when the call ended, not when the batch ran. */
let runningAt: number | undefined;
const answered: Array<() => void> = [];
let answeredFallback: NodeJS.Immediate | undefined;

/**
 * Runs `record` after the answer to the call it records, together with the records of the other
 * calls answered within {@link RECORD_WINDOW_MS}: the log line, the span's end, the metrics. The
 * timer holds the process until the batch has run. Only for recording: what shapes a result, or
 * must be on disk by the time anyone can act on it (the audit line), stays before the answer.
 * Whatever reads what the records write calls {@link recordWaiting} first.
 */
export function afterAnswer(record: () => void): void {
  records.push({ record, at: Date.now() });
  recordTimer ??= setTimeout(recordWaiting, RECORD_WINDOW_MS);
}

/**
 * Runs `work` right after the answer to its call is written, before awf reads anything more:
 * the MCP edge calls {@link answerSent} once the answer is with the kernel. For clean-up that
 * need not delay the answer (an upstream call's abort listener), not for records. A call no edge
 * answers (the in-process path, a cancelled call) has it run at the next turn of the loop.
 */
export function onceAnswered(work: () => void): void {
  answered.push(work);
  answeredFallback ??= setImmediate(answerSent);
}

/** The edge has written an answer: what waited for it runs now. */
export function answerSent(): void {
  if (answeredFallback) clearImmediate(answeredFallback);
  answeredFallback = undefined;
  for (const work of answered.splice(0)) runSafely(work);
}

/**
 * Runs everything still waiting, now. What closes the outlets records go to calls it first:
 * telemetry's shutdown, and the log streams' drain at exit; so does an in-process caller that
 * reads the log or the spans right after a call.
 */
export function recordWaiting(): void {
  answerSent();
  clearTimeout(recordTimer);
  recordTimer = undefined;
  for (const { record, at } of records.splice(0)) {
    runningAt = at;
    runSafely(record);
  }
  runningAt = undefined;
}

/** Now, or, while a record runs, the time its call was answered: the logger's clock (`time`). */
export function recordedAt(): number {
  return runningAt ?? Date.now();
}

function runSafely(work: () => void): void {
  try {
    work();
  } catch {
    // A record that fails must not take the process down with it, nor the records after it.
  }
}
