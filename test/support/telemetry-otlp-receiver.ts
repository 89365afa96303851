import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { loadSync } from '@grpc/proto-loader';

const PROTO = resolve(__dirname, '../fixtures/telemetry/otlp-trace.proto');

/** A span as a collector stores it: ids in hex, attributes flattened to plain values. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  kind: string;
  status: { code: string; message: string };
  attributes: Record<string, unknown>;
  service: string;
}

export interface OtlpReceiver {
  endpoint: string;
  spans: ReceivedSpan[];
  requests: Array<{ path: string; contentType?: string; headers: IncomingHttpHeaders }>;
  /** Resolves once `count` spans arrived, or rejects after `timeoutMs`. */
  waitForSpans(count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  value?: string;
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}

/**
 * An OTLP/HTTP collector on 127.0.0.1: accepts `POST /v1/traces` with
 * `application/x-protobuf` bodies and decodes them with the OTLP proto definitions, as a
 * real backend does. Anything else is answered 415/404, so a wrong exporter fails the test.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const definition = loadSync(PROTO, {
    includeDirs: [resolve(PROTO, '..')],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const exportMethod = (
    definition['opentelemetry.proto.collector.trace.v1.TraceService'] as Record<
      string,
      { requestDeserialize: (b: Buffer) => unknown; responseSerialize: (v: unknown) => Buffer }
    >
  ).Export;
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  let notify = (): void => undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'], headers: req.headers });
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      if (req.headers['content-type'] !== 'application/x-protobuf') return void res.writeHead(415).end();
      const body = exportMethod.requestDeserialize(Buffer.concat(chunks)) as {
        resourceSpans: Array<{ resource?: { attributes: KeyValue[] }; scopeSpans: Array<{ spans: RawSpan[] }> }>;
      };
      for (const rs of body.resourceSpans) {
        const service = String(flatten(rs.resource?.attributes ?? [])['service.name'] ?? '');
        for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push(toSpan(s, service));
      }
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(exportMethod.responseSerialize({}));
      notify();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests,
    waitForSpans(count, timeoutMs = 15_000) {
      return new Promise((ok, fail) => {
        const timer = setTimeout(
          () =>
            fail(
              new Error(`expected ${count} spans, received ${spans.length}: ${spans.map((s) => s.name).join(', ')}`),
            ),
          timeoutMs,
        );
        notify = () => {
          if (spans.length >= count) {
            clearTimeout(timer);
            ok(spans);
          }
        };
        notify();
      });
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

interface RawSpan {
  name: string;
  traceId: Buffer;
  spanId: Buffer;
  parentSpanId: Buffer;
  kind: string;
  status?: { code: string; message: string };
  attributes: KeyValue[];
}

function toSpan(s: RawSpan, service: string): ReceivedSpan {
  return {
    name: s.name,
    traceId: s.traceId.toString('hex'),
    spanId: s.spanId.toString('hex'),
    parentSpanId: s.parentSpanId.toString('hex'),
    kind: s.kind,
    status: s.status ?? { code: 'STATUS_CODE_UNSET', message: '' },
    attributes: flatten(s.attributes),
    service,
  };
}

function flatten(attributes: KeyValue[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of attributes) {
    if (!value) continue;
    const kind = value.value as keyof AnyValue | undefined;
    const raw = kind ? value[kind] : undefined;
    out[key] = kind === 'intValue' ? Number(raw) : raw;
  }
  return out;
}
