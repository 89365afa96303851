import { resolveTelemetrySettings, settingsFromProxyConfig, tracesUrl } from './telemetry-settings';

describe('resolveTelemetrySettings', () => {
  it('defaults to no tracing, service awf', () => {
    expect(resolveTelemetrySettings({ env: {} })).toEqual({ exporter: 'none', serviceName: 'awf' });
  });

  it('lets flags win over OTEL_* variables, and variables over .awf/config.yaml', () => {
    const project = { exporter: 'file', service_name: 'from-config', endpoint: 'http://config:4318' };
    const env = {
      OTEL_TRACES_EXPORTER: 'console',
      OTEL_SERVICE_NAME: 'from-env',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318',
    };
    expect(resolveTelemetrySettings({ project, env: {} })).toMatchObject({
      exporter: 'file',
      serviceName: 'from-config',
      endpoint: 'http://config:4318',
    });
    expect(resolveTelemetrySettings({ project, env })).toMatchObject({
      exporter: 'console',
      serviceName: 'from-env',
      endpoint: 'http://env:4318',
    });
    expect(
      resolveTelemetrySettings({
        project,
        env,
        flags: { exporter: 'otlp', serviceName: 'from-flag', endpoint: 'http://flag:4318' },
      }),
    ).toEqual({ exporter: 'otlp', serviceName: 'from-flag', endpoint: 'http://flag:4318' });
  });

  it('takes an endpoint given without an exporter to mean otlp', () => {
    expect(resolveTelemetrySettings({ env: {}, flags: { endpoint: 'http://127.0.0.1:4318' } }).exporter).toBe('otlp');
    expect(resolveTelemetrySettings({ env: {}, project: { endpoint: 'http://127.0.0.1:4318' } }).exporter).toBe('otlp');
  });

  it('makes the file exporter path absolute, so a step proxy in another directory writes the same file', () => {
    expect(resolveTelemetrySettings({ env: {}, cwd: '/work/p', flags: { exporter: 'file' } }).file).toBe(
      '/work/p/.awf/traces.jsonl',
    );
    expect(
      resolveTelemetrySettings({ env: {}, cwd: '/work/p', project: { exporter: 'file', file: 'out/spans.jsonl' } })
        .file,
    ).toBe('/work/p/out/spans.jsonl');
  });

  it('rejects an unknown exporter, a bad endpoint and unknown config keys as user errors', () => {
    expect(() => resolveTelemetrySettings({ env: {}, flags: { exporter: 'zipkin' } })).toThrow(
      expect.objectContaining({
        code: 'USER.CONFIG.INVALID',
        message: expect.stringContaining('--otel-exporter "zipkin"'),
      }),
    );
    expect(() => resolveTelemetrySettings({ env: {}, flags: { endpoint: 'localhost:4318' } })).toThrow(
      /not an http\(s\) URL/,
    );
    expect(() => resolveTelemetrySettings({ env: {}, project: { exporterr: 'otlp' } })).toThrow(
      /unknown key: exporterr/,
    );
  });
});

describe('settingsFromProxyConfig', () => {
  it('uses the step config as written by run', () => {
    expect(
      settingsFromProxyConfig(
        { exporter: 'otlp', endpoint: 'http://c:4318', service_name: 'svc', traceparent: 'x' },
        {},
      ),
    ).toEqual({ exporter: 'otlp', endpoint: 'http://c:4318', serviceName: 'svc' });
  });

  it('falls back to the OTEL_* variables without a telemetry block', () => {
    expect(settingsFromProxyConfig(undefined, { OTEL_TRACES_EXPORTER: 'otlp' }).exporter).toBe('otlp');
    expect(settingsFromProxyConfig(undefined, {}).exporter).toBe('none');
  });
});

describe('tracesUrl', () => {
  it('appends /v1/traces to a base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT is read', () => {
    expect(tracesUrl('http://127.0.0.1:4318')).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesUrl('http://127.0.0.1:4318/')).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesUrl('https://otel.example/v1/traces')).toBe('https://otel.example/v1/traces');
  });
});
