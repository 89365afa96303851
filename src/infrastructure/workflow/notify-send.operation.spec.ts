import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotifySendOperation } from './notify-send.operation';

const signal = new AbortController().signal;

describe('notify.send (AWF built-in), against a webhook receiver on 127.0.0.1 and a real notify-send process', () => {
  let server: Server;
  let url: string;
  let received: { method?: string; type?: string; body: string }[];
  let status: number;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ method: req.method, type: req.headers['content-type'], body });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => {
    received = [];
    status = 200;
  });

  it('webhook: POSTs {title, message, priority} as JSON; outputs backend, status, response', async () => {
    const op = new NotifySendOperation();
    const res = await op.execute(
      { backend: 'webhook', webhook_url: url, message: ' deployed ', priority: 'high' },
      signal,
    );
    expect(res).toEqual({ success: true, outputs: { backend: 'webhook', status: 200, response: 'ok' } });
    expect(received).toEqual([{ method: 'POST', type: 'application/json', body: expect.any(String) }]);
    expect(JSON.parse(received[0].body)).toEqual({ title: 'AWF Workflow', message: 'deployed', priority: 'high' });
  });

  it('webhook: a status outside 2xx fails the step with the outputs; bad inputs fail before any request', async () => {
    status = 500;
    const op = new NotifySendOperation();
    const failed = await op.execute({ backend: 'webhook', webhook_url: url, message: 'm' }, signal);
    expect(failed).toMatchObject({ success: false, outputs: { status: 500, response: 'nope' } });
    expect(failed.error).toContain('webhook returned status 500');
    const bad = async (inputs: Record<string, unknown>) => (await op.execute(inputs, signal)).error;
    expect(await bad({ backend: 'webhook', message: 'm' })).toContain('requires webhook_url');
    expect(await bad({ backend: 'webhook', webhook_url: url })).toContain('message is required');
    expect(await bad({ backend: 'webhook', webhook_url: url, message: 'm', priority: 'urgent' })).toContain(
      'invalid priority "urgent"',
    );
    expect(await bad({ backend: 'slack', message: 'm' })).toContain('backend "slack" not available');
    expect(await bad({ message: 'm' })).toContain('backend is required');
    expect(received).toHaveLength(1);
  });

  it('desktop: runs notify-send with the urgency, title and message; says so when it is not installed', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'awf-notify-'));
    try {
      const log = join(bin, 'argv');
      // A notify-send of our own on PATH: a real process that records the arguments it was given.
      writeFileSync(join(bin, 'notify-send'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\n`);
      chmodSync(join(bin, 'notify-send'), 0o755);
      const present = new NotifySendOperation(undefined, 'linux', { PATH: `${bin}:/usr/bin:/bin` });
      const ok = await present.execute(
        { backend: 'desktop', title: 'CI', message: 'tests passed', priority: 'low' },
        signal,
      );
      expect(ok).toMatchObject({ success: true, outputs: { backend: 'desktop', status: 0 } });
      expect(readFileSync(log, 'utf8')).toBe('-u\nlow\nCI\ntests passed\n');
      const absent = new NotifySendOperation(undefined, 'linux', { PATH: join(bin, 'none') });
      const missing = await absent.execute({ backend: 'desktop', message: 'm' }, signal);
      expect(missing).toMatchObject({ success: false, outputs: { backend: 'desktop', status: 1 } });
      expect(missing.error).toContain('notify-send was not found on PATH');
      const other = await new NotifySendOperation(undefined, 'win32').execute(
        { backend: 'desktop', message: 'm' },
        signal,
      );
      expect(other.error).toContain('need Linux (notify-send) or macOS, not win32');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
