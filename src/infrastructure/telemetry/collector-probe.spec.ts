import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startOtlpReceiver } from '../../../test/support/telemetry-otlp-receiver';
import { probeCollector } from './collector-probe';

/** A listener that accepts connections and never answers: a collector that hangs. */
async function muteListener(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((s) => sockets.push(s.on('error', () => undefined)));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}

describe('probeCollector', () => {
  it.each(['http/protobuf', 'grpc'] as const)('gets an answer from a real OTLP receiver over %s', async (protocol) => {
    const receiver = await startOtlpReceiver(protocol);
    try {
      const url = protocol === 'grpc' ? receiver.endpoint : `${receiver.endpoint}/v1/traces`;
      expect(await probeCollector(url, protocol, 'traces', 2000)).toBeUndefined();
      expect(await probeCollector(url, protocol, 'metrics', 2000)).toBeUndefined();
      // The empty exports the receiver got carry no spans: the probe adds nothing to a backend.
      expect(receiver.requests.length).toBe(2);
      expect(receiver.spans).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it.each(['http/protobuf', 'grpc'] as const)(
    'says why a port nobody listens on did not answer, over %s',
    async (protocol) => {
      const mute = await muteListener();
      await mute.close(); // now a closed port
      const reason = await probeCollector(`http://127.0.0.1:${mute.port}/v1/traces`, protocol, 'traces', 2000);
      expect(reason).toMatch(/ECONNREFUSED/);
    },
  );

  it.each(['http/protobuf', 'grpc'] as const)(
    'gives up on a collector that accepts and never answers, over %s, at its bound',
    async (protocol) => {
      const mute = await muteListener();
      try {
        const url = protocol === 'grpc' ? `127.0.0.1:${mute.port}` : `http://127.0.0.1:${mute.port}/v1/traces`;
        expect(await probeCollector(url, protocol, 'traces', 300)).toBe('no answer within 300 ms');
      } finally {
        await mute.close();
      }
    },
  );
});

describe('probeCollector with headers node cannot send', () => {
  const saved = process.env.OTEL_EXPORTER_OTLP_HEADERS;
  afterEach(() => (process.env.OTEL_EXPORTER_OTLP_HEADERS = saved));

  it('answers with the reason instead of throwing', async () => {
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-tenant=a%0Ab'; // a line break in a header value
    expect(await probeCollector('http://127.0.0.1:9/v1/traces', 'http/protobuf', 'traces', 50)).toMatch(/header/i);
    await new Promise((r) => setTimeout(r, 150)); // no timer of that probe is left to fire (it once threw)
  });
});
