/**
 * Runs `record` just after the answer to the call it records. The MCP edge writes the answer a
 * few promise hops after the interceptors return; what an interceptor did before returning (a
 * log line, the end of a span, a metric) made every call wait for it (ADR 237). `setImmediate`
 * runs it in the same turn of the event loop, before any later I/O: an exit or a shutdown that
 * follows the answer still finds it. An in-process caller sees it one turn after the call
 * returns. Only for recording: what shapes a result, or must be on disk when the result is
 * (the audit line), stays before the answer.
 */
export function afterAnswer(record: () => void): void {
  setImmediate(record);
}
