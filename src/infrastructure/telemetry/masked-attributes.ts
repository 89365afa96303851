import type { SpanAttributes } from '../../domain/ports/tracer.port';

/** A copy of `attributes` with every string value masked: secrets never reach a span. */
export function maskAttributes(attributes: SpanAttributes | undefined, mask: (text: string) => string): SpanAttributes {
  const out: SpanAttributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    out[key] = typeof value === 'string' ? mask(value) : value;
  }
  return out;
}
