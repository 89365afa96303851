const waiting: Array<() => void> = [];
let scheduled = false;

/**
 * Runs `record` just after the answer to the call it records. The MCP edge writes the answer a
 * few promise hops after the interceptors return; what an interceptor did before returning (a
 * log line, the end of a span, a metric) made every call wait for it (ADR 237). The records run
 * from one `setImmediate`; an in-process caller sees them one turn after the call returns. Only
 * for recording: what shapes a result, or must be on disk when the result is (the audit line),
 * stays before the answer.
 */
export function afterAnswer(record: () => void): void {
  waiting.push(record);
  if (scheduled) return;
  scheduled = true;
  setImmediate(recordWaiting);
}

/**
 * Runs every record still waiting, now. What closes the outlets records go to calls it first:
 * telemetry's shutdown, and the log streams' drain at exit. An answer written from a timer is
 * followed by the poll phase, which may read the client's end of stdin and start the shutdown
 * before the immediate runs.
 */
export function recordWaiting(): void {
  scheduled = false;
  for (const record of waiting.splice(0)) {
    try {
      record();
    } catch {
      // A record that fails must not take the process down with it, nor the records after it.
    }
  }
}
