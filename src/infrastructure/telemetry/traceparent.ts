/** The parts of a W3C `traceparent` a child span needs. */
export interface ParentContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** A valid `traceparent` header value, or undefined (malformed, version ff, all-zero ids): the span becomes a root. */
export function parseTraceparent(value: string): ParentContext | undefined {
  const m = TRACEPARENT.exec(value);
  if (!m || m[1] === 'ff' || m[2] === ZERO_TRACE || m[3] === ZERO_SPAN) return undefined;
  return { traceId: m[2], spanId: m[3], traceFlags: parseInt(m[4], 16) };
}

export function formatTraceparent(traceId: string, spanId: string, traceFlags: number): string {
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
}
