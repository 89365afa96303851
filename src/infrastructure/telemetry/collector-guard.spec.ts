import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CollectorGuard } from './collector-guard';

/** An HTTP listener that answers every request 200, as a collector does an empty export. */
const listen = (): Promise<Server> =>
  new Promise((ok) => {
    const server = createServer((_req, res) => res.end()).listen(0, '127.0.0.1', () => ok(server));
  });
const portOf = (s: Server): number => (s.address() as AddressInfo).port;
const guardAt = (port: number, warnings: string[]) =>
  new CollectorGuard(
    `http://127.0.0.1:${port}`,
    { url: `http://127.0.0.1:${port}/v1/traces`, signal: 'traces' },
    500,
    (_f: object, m: string) => warnings.push(m),
  );

describe('CollectorGuard', () => {
  it('drops exports at once after a refused probe, with one warning naming the endpoint', async () => {
    const server = await listen();
    const port = portOf(server);
    await new Promise((ok) => server.close(ok)); // a port nobody listens on
    const warnings: string[] = [];
    const guard = guardAt(port, warnings);
    const sent: number[] = [];
    const exporter = guard.wrap(
      {
        export: (items: number, done: (r: { code: number }) => void) => (sent.push(items), done({ code: 0 })),
        shutdown: async () => undefined,
      },
      'spans',
    );
    const results = await Promise.all([1, 2, 3].map((n) => new Promise((ok) => exporter.export(n, ok))));
    expect(results).toEqual([{ code: 1 }, { code: 1 }, { code: 1 }]);
    expect(sent).toEqual([]);
    expect(guard.dropped).toEqual({ spans: 3 });
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^telemetry not sent to http://127\\.0\\.0\\.1:${port} \\(connect ECONNREFUSED`),
      ),
    ]);
  });

  it('passes exports through to a collector that answers, and stops sending after one that failed', async () => {
    const server = await listen();
    const warnings: string[] = [];
    const guard = guardAt(portOf(server), warnings);
    let code = 0;
    const sent: number[] = [];
    const exporter = guard.wrap(
      {
        export: (items: number, done: (r: { code: number; error?: Error }) => void) => {
          sent.push(items);
          done(code === 0 ? { code } : { code, error: new Error('503 Service Unavailable') });
        },
        shutdown: async () => undefined,
      },
      'metrics',
    );
    const send = (n: number) => new Promise((ok) => exporter.export(n, ok));
    expect(await send(1)).toEqual({ code: 0 });
    code = 1;
    expect(await send(2)).toMatchObject({ code: 1 });
    expect(await send(3)).toEqual({ code: 1 });
    expect(sent).toEqual([1, 2]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('(503 Service Unavailable)');
    await new Promise((ok) => server.close(ok));
  });
});
