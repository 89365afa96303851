import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValueSecretMasker } from '../../application/secret-masker.service';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { TelemetryService } from './telemetry.service';

function logger(): AppLogger & { warned: string[] } {
  const warned: string[] = [];
  const self = {
    warned,
    debug() {},
    info() {},
    error() {},
    warn(_f: object, msg: string) {
      warned.push(msg);
    },
    child: () => self,
  };
  return self;
}

describe('TelemetryService', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-tel-svc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is a no-op tracer until started, and stays one with exporter none', async () => {
    const service = new TelemetryService(new ValueSecretMasker({}), logger());
    expect(service.enabled).toBe(false);
    expect(service.startSpan('x').traceparent).toBeUndefined();
    await service.start({ exporter: 'none' });
    expect(service.enabled).toBe(false);
    expect(service.proxyTelemetry('00-x')).toEqual({ exporter: 'none', traceparent: '00-x' });
  });

  it('masks secrets in attributes and failure messages before they are exported', async () => {
    const file = join(dir, 'spans.jsonl');
    const service = new TelemetryService(new ValueSecretMasker({ API_KEY: 'hunter2-secret' }), logger());
    await service.start({ exporter: 'file', file, serviceName: 'svc' });
    await service.start({ exporter: 'none' });
    expect(service.enabled).toBe(true);
    const span = service.startSpan('tool.call Bash', { attributes: { 'tool.error': 'token hunter2-secret leaked' } });
    span.fail('again hunter2-secret');
    span.end();
    span.end();
    await service.shutdown();
    const text = readFileSync(file, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).not.toContain('hunter2-secret');
    expect(JSON.parse(text)).toMatchObject({
      name: 'tool.call Bash',
      service: 'svc',
      status: 'error',
      status_message: 'again ***',
      attributes: { 'tool.error': 'token *** leaked' },
    });
    expect(service.enabled).toBe(false);
  });

  it('writes every span of a burst to the file, whole lines in end order, by the time it is shut down', async () => {
    const file = join(dir, 'burst.jsonl');
    const service = new TelemetryService(new ValueSecretMasker({}), logger());
    await service.start({ exporter: 'file', file });
    for (let i = 0; i < 300; i++)
      service
        .startSpan(`tool.call Read ${i}`, { parent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })
        .end();
    await service.shutdown();
    const records = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { name: string; trace_id: string });
    expect(records.map((r) => r.name)).toEqual(Array.from({ length: 300 }, (_, i) => `tool.call Read ${i}`));
    expect(new Set(records.map((r) => r.trace_id))).toEqual(new Set(['0af7651916cd43dd8448eb211c80319c']));
  });

  it('keeps going without spans when the exporter cannot start', async () => {
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, '');
    const log = logger();
    const service = new TelemetryService(new ValueSecretMasker({}), log);
    await service.start({ exporter: 'file', file: join(blocker, 'spans.jsonl') });
    expect(service.enabled).toBe(false);
    expect(service.settings().exporter).toBe('none');
    expect(log.warned).toEqual(['tracing could not start; continuing without spans']);
  });
});
