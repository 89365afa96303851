/** The parts of a W3C `traceparent` a child span needs. */
export interface ParentContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

/** The W3C `traceparent` layout: version-traceid-spanid-flags, lowercase hex. */
export const TRACEPARENT_PATTERN = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** A valid `traceparent` header value, or undefined (malformed, version ff, all-zero ids): the span becomes a root. */
export function parseTraceparent(value: string): ParentContext | undefined {
  const m = TRACEPARENT_PATTERN.exec(value);
  if (!m || m[1] === 'ff' || m[2] === ZERO_TRACE || m[3] === ZERO_SPAN) return undefined;
  return { traceId: m[2], spanId: m[3], traceFlags: parseInt(m[4], 16) };
}

export function formatTraceparent(traceId: string, spanId: string, traceFlags: number): string {
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
}

/**
 * The `TRACEPARENT` a process inherited (a CI system's span, or an agent CLI that forwards its
 * environment but not our config), when it is well-formed: the parent of what awf traces.
 */
export function inheritedTraceparent(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const value = env.TRACEPARENT;
  return value && TRACEPARENT_PATTERN.test(value) ? value : undefined;
}
