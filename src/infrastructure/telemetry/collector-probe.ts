import type { OtlpProtocol } from '../../domain/proxy/proxy-config';
import { otlpHeaders, type OtlpSignal } from './otel-environment';

/** An OTLP/gRPC endpoint may be given as `host:port`: it is read as plain http. */
export function withScheme(endpoint: string): string {
  return /^[a-z]+:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`;
}

/** The gRPC method an OTLP/gRPC collector serves for each signal. */
const GRPC_PATHS: Record<OtlpSignal, string> = {
  traces: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  metrics: '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
};

/**
 * Asks the collector at `endpoint` to export nothing: an empty ExportServiceRequest (zero bytes
 * of protobuf; over gRPC one empty frame), which an OTLP collector answers at once. Any answer
 * counts, 4xx and 5xx included: the collector is there, and the exporter reports its refusals
 * itself. It carries the OTLP headers the exporters send (a gateway that checks them sees the
 * probe as it sees an export). A TCP connect alone is not enough: a collector that accepts and
 * never answers would pass it and then hold every process's exit for a whole export timeout.
 * Resolves to why it did not answer within `timeoutMs`, or undefined when it did.
 */
export async function probeCollector(
  endpoint: string,
  protocol: OtlpProtocol | undefined,
  signal: OtlpSignal,
  timeoutMs: number,
): Promise<string | undefined> {
  const headers = otlpHeaders(process.env, signal);
  try {
    return await (protocol === 'grpc'
      ? probeGrpc(endpoint, signal, headers, timeoutMs)
      : probeHttp(endpoint, headers, timeoutMs));
  } catch (err) {
    // A header or URL node refuses to send: the collector cannot be asked, as if it were down.
    return (err as Error).message;
  }
}

function probeHttp(endpoint: string, extra: Record<string, string>, timeoutMs: number): Promise<string | undefined> {
  const url = new URL(endpoint);
  const client = (
    url.protocol === 'https:' ? require('node:https') : require('node:http')
  ) as typeof import('node:http');
  return firstAnswer(timeoutMs, (finish) => {
    const headers = { ...extra, 'content-type': 'application/x-protobuf', 'content-length': '0' };
    const request = client.request(url, { method: 'POST', headers, agent: false }, (response) => {
      response.resume();
      finish();
    });
    request.once('error', (err) => finish(err.message));
    request.end();
    return request;
  });
}

function probeGrpc(
  endpoint: string,
  signal: OtlpSignal,
  extra: Record<string, string>,
  timeoutMs: number,
): Promise<string | undefined> {
  const { connect } = require('node:http2') as typeof import('node:http2');
  return firstAnswer(timeoutMs, (finish) => {
    const session = connect(withScheme(endpoint));
    session.once('error', (err) => finish(err.message));
    const metadata = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k.toLowerCase(), v]));
    const stream = session.request({
      ...metadata,
      ':method': 'POST',
      ':path': GRPC_PATHS[signal],
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    stream.once('response', () => finish());
    stream.once('error', (err) => finish(err.message));
    // One uncompressed gRPC frame holding an empty message: flag 0, length 0.
    stream.end(Buffer.alloc(5));
    return session;
  });
}

/**
 * Runs `ask`, which calls `finish()` on an answer or `finish(reason)` on an error (events come
 * after it returns); settles with the first of those or the timeout, and destroys what it opened.
 */
function firstAnswer(
  timeoutMs: number,
  ask: (finish: (reason?: string) => void) => { destroy(): void },
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const finish = (reason?: string): void => {
      clearTimeout(timer);
      opened.destroy();
      resolve(reason);
    };
    // Asked first: when `ask` throws (a header node refuses), no timer is left to fire.
    const opened = ask(finish);
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
}
