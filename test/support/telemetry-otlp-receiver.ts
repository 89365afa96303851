import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { flatten, toMetrics, toSpan, type KeyValue, type RawResourceMetrics, type RawSpan } from './otlp-decoded';

export type { ReceivedMetric, ReceivedPoint, ReceivedSpan } from './otlp-decoded';
import type { ReceivedMetric, ReceivedSpan } from './otlp-decoded';

const FIXTURES = resolve(__dirname, '../fixtures/telemetry');

export type ReceiverProtocol = 'http/protobuf' | 'grpc';

export interface OtlpReceiver {
  protocol: ReceiverProtocol;
  /** http/protobuf: the base URL (`/v1/traces` and `/v1/metrics` are served); grpc: `http://127.0.0.1:<port>`. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Every metric of every export, in arrival order (a cumulative counter appears once per export). */
  metrics: ReceivedMetric[];
  /** HTTP: path, content type and headers; gRPC: the method path and its metadata as headers. */
  requests: Array<{ path: string; contentType?: string; headers: IncomingHttpHeaders }>;
  /** Resolves once `count` spans arrived, or rejects after `timeoutMs`. */
  waitForSpans(count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

type Method = { requestDeserialize: (b: Buffer) => unknown; responseSerialize: (v: unknown) => Buffer };

function services(): { traces: Method; metrics: Method; definition: grpc.GrpcObject } {
  const packages = loadSync([resolve(FIXTURES, 'otlp-trace.proto'), resolve(FIXTURES, 'otlp-metrics.proto')], {
    includeDirs: [FIXTURES],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const service = (name: string) => packages[name] as unknown as Record<string, Method>;
  return {
    traces: service('opentelemetry.proto.collector.trace.v1.TraceService').Export,
    metrics: service('opentelemetry.proto.collector.metrics.v1.MetricsService').Export,
    definition: grpc.loadPackageDefinition(packages),
  };
}

/**
 * An OTLP collector on 127.0.0.1, port 0, decoding what it gets with the OTLP proto definitions,
 * as a real backend does. http/protobuf: `POST /v1/traces` and `/v1/metrics` with
 * `application/x-protobuf` bodies (anything else is answered 415/404, so a wrong exporter fails
 * the test). grpc: the collector's TraceService and MetricsService over @grpc/grpc-js.
 */
export async function startOtlpReceiver(protocol: ReceiverProtocol = 'http/protobuf'): Promise<OtlpReceiver> {
  const { traces, metrics: metricsMethod, definition } = services();
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetric[] = [];
  const requests: OtlpReceiver['requests'] = [];
  let notify = (): void => undefined;
  const takeSpans = (body: unknown): void => {
    const { resourceSpans } = body as {
      resourceSpans: Array<{ resource?: { attributes: KeyValue[] }; scopeSpans: Array<{ spans: RawSpan[] }> }>;
    };
    for (const rs of resourceSpans) {
      const resource = flatten(rs.resource?.attributes ?? []);
      for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push(toSpan(s, resource));
    }
    notify();
  };
  const takeMetrics = (body: unknown): void => {
    for (const rm of (body as { resourceMetrics: RawResourceMetrics[] }).resourceMetrics)
      metrics.push(...toMetrics(rm));
    notify();
  };

  let endpoint: string;
  let close: () => Promise<void>;
  if (protocol === 'grpc') {
    const server = new grpc.Server();
    const handler =
      (path: string, take: (body: unknown) => void) =>
      (call: grpc.ServerUnaryCall<unknown, unknown>, done: grpc.sendUnaryData<unknown>): void => {
        requests.push({
          path,
          contentType: 'application/grpc',
          headers: call.metadata.getMap() as IncomingHttpHeaders,
        });
        take(call.request);
        done(null, {});
      };
    const pkg = (name: string) =>
      name.split('.').reduce<grpc.GrpcObject>((o, k) => o[k] as grpc.GrpcObject, definition) as unknown as {
        service: grpc.ServiceDefinition;
      };
    server.addService(pkg('opentelemetry.proto.collector.trace.v1.TraceService').service, {
      Export: handler('/opentelemetry.proto.collector.trace.v1.TraceService/Export', takeSpans),
    });
    server.addService(pkg('opentelemetry.proto.collector.metrics.v1.MetricsService').service, {
      Export: handler('/opentelemetry.proto.collector.metrics.v1.MetricsService/Export', takeMetrics),
    });
    const port = await new Promise<number>((ok, fail) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? fail(err) : ok(p))),
    );
    endpoint = `http://127.0.0.1:${port}`;
    close = () => new Promise<void>((ok) => server.tryShutdown(() => ok()));
  } else {
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({ path: req.url ?? '', contentType: req.headers['content-type'], headers: req.headers });
        const method = req.url === '/v1/traces' ? traces : req.url === '/v1/metrics' ? metricsMethod : undefined;
        if (req.method !== 'POST' || !method) return void res.writeHead(404).end();
        if (req.headers['content-type'] !== 'application/x-protobuf') return void res.writeHead(415).end();
        const body = method.requestDeserialize(Buffer.concat(chunks));
        if (method === traces) takeSpans(body);
        else takeMetrics(body);
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(method.responseSerialize({}));
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise<void>((ok) => server.close(() => ok()));
  }
  return {
    protocol,
    endpoint,
    spans,
    metrics,
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
    close,
  };
}
