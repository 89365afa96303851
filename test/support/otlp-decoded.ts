// What the test OTLP receiver (telemetry-otlp-receiver.ts) keeps of a decoded export: spans and
// metrics as a collector stores them, ids in hex, attributes flattened to plain values.

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  kind: string;
  status: { code: string; message: string };
  attributes: Record<string, unknown>;
  service: string;
  resource: Record<string, unknown>;
}

export interface ReceivedPoint {
  attributes: Record<string, unknown>;
  /** Sums and gauges. */
  value?: number;
  /** Histograms. */
  count?: number;
  sum?: number;
  bucketCounts?: number[];
}

export interface ReceivedMetric {
  name: string;
  unit: string;
  kind: 'sum' | 'gauge' | 'histogram';
  points: ReceivedPoint[];
  service: string;
  resource: Record<string, unknown>;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  value?: string;
}
export interface KeyValue {
  key: string;
  value?: AnyValue;
}

export interface RawSpan {
  name: string;
  traceId: Buffer;
  spanId: Buffer;
  parentSpanId: Buffer;
  kind: string;
  status?: { code: string; message: string };
  attributes: KeyValue[];
}

interface RawNumberPoint {
  attributes: KeyValue[];
  asDouble?: number;
  asInt?: string;
  value?: 'asDouble' | 'asInt';
}
interface RawHistogramPoint {
  attributes: KeyValue[];
  count: string;
  sum: number;
  bucketCounts: string[];
}
interface RawMetric {
  name: string;
  unit: string;
  data?: 'sum' | 'gauge' | 'histogram';
  sum?: { dataPoints: RawNumberPoint[] };
  gauge?: { dataPoints: RawNumberPoint[] };
  histogram?: { dataPoints: RawHistogramPoint[] };
}
export interface RawResourceMetrics {
  resource?: { attributes: KeyValue[] };
  scopeMetrics: Array<{ metrics: RawMetric[] }>;
}

export function toSpan(s: RawSpan, resource: Record<string, unknown>): ReceivedSpan {
  return {
    name: s.name,
    traceId: s.traceId.toString('hex'),
    spanId: s.spanId.toString('hex'),
    parentSpanId: s.parentSpanId.toString('hex'),
    kind: s.kind,
    status: s.status ?? { code: 'STATUS_CODE_UNSET', message: '' },
    attributes: flatten(s.attributes),
    service: String(resource['service.name'] ?? ''),
    resource,
  };
}

export function toMetrics(rm: RawResourceMetrics): ReceivedMetric[] {
  const resource = flatten(rm.resource?.attributes ?? []);
  const out: ReceivedMetric[] = [];
  for (const sm of rm.scopeMetrics)
    for (const m of sm.metrics) {
      const kind = m.data ?? 'sum';
      const points =
        kind === 'histogram'
          ? (m.histogram?.dataPoints ?? []).map((p) => ({
              attributes: flatten(p.attributes),
              count: Number(p.count),
              sum: p.sum,
              bucketCounts: p.bucketCounts.map(Number),
            }))
          : (m[kind]?.dataPoints ?? []).map((p) => ({
              attributes: flatten(p.attributes),
              value: p.value === 'asInt' ? Number(p.asInt) : p.asDouble,
            }));
      out.push({ name: m.name, unit: m.unit, kind, points, service: String(resource['service.name'] ?? ''), resource });
    }
  return out;
}

export function flatten(attributes: KeyValue[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of attributes) {
    if (!value) continue;
    const kind = value.value as keyof AnyValue | undefined;
    const raw = kind ? value[kind] : undefined;
    out[key] = kind === 'intValue' ? Number(raw) : raw;
  }
  return out;
}
