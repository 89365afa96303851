import { proxyTelemetryOf, settingsFromProxyConfig } from './proxy-telemetry';
import { resolveTelemetrySettings } from './telemetry-settings';

describe('resolveTelemetrySettings', () => {
  it('defaults to no tracing and no metrics, service awf', () => {
    expect(resolveTelemetrySettings({ env: {} })).toEqual({ exporter: 'none', serviceName: 'awf' });
  });

  it('takes OTEL_EXPORTER_OTLP_ENDPOINT alone to mean OTLP traces and metrics to it, over http/protobuf', () => {
    expect(resolveTelemetrySettings({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' } })).toEqual({
      exporter: 'otlp',
      endpoint: 'http://c:4318/v1/traces',
      protocol: 'http/protobuf',
      timeoutMs: 1000,
      serviceName: 'awf',
      metrics: {
        exporter: 'otlp',
        endpoint: 'http://c:4318/v1/metrics',
        protocol: 'http/protobuf',
        timeoutMs: 1000,
        intervalMs: 60_000,
      },
    });
  });

  it("reads each signal's own variables before the shared ones, and uses a signal's URL as it is", () => {
    const s = resolveTelemetrySettings({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://shared:4318/',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom',
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'metrics:4317',
        OTEL_EXPORTER_OTLP_TIMEOUT: '700',
        OTEL_EXPORTER_OTLP_METRICS_TIMEOUT: '300',
        OTEL_METRIC_EXPORT_INTERVAL: '5000',
      },
    });
    expect(s).toMatchObject({ endpoint: 'http://traces:9999/custom', protocol: 'http/protobuf', timeoutMs: 700 });
    expect(s.metrics).toEqual({
      exporter: 'otlp',
      endpoint: 'http://metrics:4317',
      protocol: 'grpc',
      timeoutMs: 300,
      intervalMs: 5000,
    });
  });

  it('lets flags win over .awf/config.yaml, and the config over the OTEL_* variables', () => {
    const project = { exporter: 'file', service_name: 'from-config', endpoint: 'http://config:4318', metrics: 'none' };
    const env = {
      OTEL_TRACES_EXPORTER: 'console',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_SERVICE_NAME: 'from-env',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    };
    const fromConfig = resolveTelemetrySettings({ project, env, cwd: '/p' });
    expect(fromConfig).toMatchObject({ exporter: 'file', serviceName: 'from-config' });
    expect(fromConfig.metrics).toBeUndefined();
    expect(resolveTelemetrySettings({ env })).toMatchObject({ exporter: 'console', serviceName: 'from-env' });
    expect(
      resolveTelemetrySettings({
        project,
        env,
        flags: { exporter: 'otlp', serviceName: 'from-flag', endpoint: 'http://flag:4318', protocol: 'http/protobuf' },
      }),
    ).toMatchObject({
      exporter: 'otlp',
      serviceName: 'from-flag',
      endpoint: 'http://flag:4318/v1/traces',
      protocol: 'http/protobuf',
    });
  });

  it('takes service.name and the other resource attributes from OTEL_RESOURCE_ATTRIBUTES', () => {
    const env = { OTEL_RESOURCE_ATTRIBUTES: 'service.name=checkout,deployment.environment=ci%20eu,team=a=b' };
    expect(resolveTelemetrySettings({ env })).toMatchObject({
      serviceName: 'checkout',
      resource: { 'deployment.environment': 'ci eu', team: 'a=b' },
    });
    expect(resolveTelemetrySettings({ env: { ...env, OTEL_SERVICE_NAME: 'wins' } }).serviceName).toBe('wins');
    expect(() => resolveTelemetrySettings({ env: { OTEL_RESOURCE_ATTRIBUTES: 'novalue' } })).toThrow(
      /OTEL_RESOURCE_ATTRIBUTES: "novalue" is not key=value/,
    );
  });

  it('switches everything off with OTEL_SDK_DISABLED=true, unless a flag asks for an exporter', () => {
    const env = { OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(resolveTelemetrySettings({ env, project: { exporter: 'file' } })).toEqual({
      exporter: 'none',
      serviceName: 'awf',
    });
    expect(resolveTelemetrySettings({ env, flags: { exporter: 'otlp' } }).exporter).toBe('otlp');
    expect(resolveTelemetrySettings({ env: { ...env, OTEL_SDK_DISABLED: 'false' } }).exporter).toBe('otlp');
  });

  it('reads the sampler and its ratio', () => {
    expect(
      resolveTelemetrySettings({
        env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' },
      }).sampler,
    ).toEqual({ name: 'parentbased_traceidratio', ratio: 0.25 });
    expect(resolveTelemetrySettings({ env: { OTEL_TRACES_SAMPLER: 'always_off' } }).sampler).toEqual({
      name: 'always_off',
    });
    expect(() => resolveTelemetrySettings({ env: { OTEL_TRACES_SAMPLER: 'jaeger_remote' } })).toThrow(
      /OTEL_TRACES_SAMPLER "jaeger_remote" is not a sampler awf knows/,
    );
    expect(() =>
      resolveTelemetrySettings({ env: { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' } }),
    ).toThrow(/not a ratio/);
  });

  it('takes host:port for grpc, as AWF does, and defaults to the spec ports', () => {
    expect(
      resolveTelemetrySettings({ env: {}, flags: { endpoint: '127.0.0.1:4317', protocol: 'grpc' } }),
    ).toMatchObject({ endpoint: 'http://127.0.0.1:4317', protocol: 'grpc' });
    expect(resolveTelemetrySettings({ env: {}, flags: { exporter: 'otlp' } }).endpoint).toBe(
      'http://localhost:4318/v1/traces',
    );
    expect(
      resolveTelemetrySettings({ env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_TRACES_EXPORTER: 'otlp' } }).endpoint,
    ).toBe('http://localhost:4317');
  });

  it('makes the file exporter path absolute, so a step proxy in another directory writes the same file', () => {
    expect(resolveTelemetrySettings({ env: {}, cwd: '/work/p', flags: { exporter: 'file' } }).file).toBe(
      '/work/p/.awf/traces.jsonl',
    );
  });

  it('rejects what it cannot honour as user errors that name the setting', () => {
    expect(() => resolveTelemetrySettings({ env: {}, flags: { exporter: 'zipkin' } })).toThrow(
      expect.objectContaining({
        code: 'USER.CONFIG.INVALID',
        message: expect.stringContaining('--otel-exporter "zipkin"'),
      }),
    );
    expect(() => resolveTelemetrySettings({ env: {}, flags: { endpoint: 'localhost:4318' } })).toThrow(
      /--otel-endpoint "localhost:4318" is not an http\(s\) URL/,
    );
    expect(() =>
      resolveTelemetrySettings({ env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_EXPORTER: 'otlp' } }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL "http\/json" is not an OTLP protocol awf exports with/);
    expect(() => resolveTelemetrySettings({ env: { OTEL_METRICS_EXPORTER: 'prometheus' } })).toThrow(
      /OTEL_METRICS_EXPORTER "prometheus"/,
    );
    expect(() =>
      resolveTelemetrySettings({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_TIMEOUT: '1s' } }),
    ).toThrow(/OTEL_EXPORTER_OTLP_TIMEOUT "1s" is not a number of milliseconds/);
    expect(() => resolveTelemetrySettings({ env: {}, project: { exporterr: 'otlp' } })).toThrow(
      /unknown key: exporterr/,
    );
  });
});

describe('the step proxy config round trip', () => {
  it('gives mcp-serve exactly what run resolved', () => {
    const settings = resolveTelemetrySettings({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'c:4317',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_RESOURCE_ATTRIBUTES: 'team=a',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.5',
      },
    });
    const block = proxyTelemetryOf(settings, '00-x');
    expect(block).toMatchObject({ traceparent: '00-x', sampler: 'traceidratio', sampler_ratio: 0.5 });
    expect(settingsFromProxyConfig(block, {})).toEqual(settings);
  });

  it('falls back to the OTEL_* variables without a telemetry block', () => {
    expect(settingsFromProxyConfig(undefined, { OTEL_TRACES_EXPORTER: 'otlp' }).exporter).toBe('otlp');
    expect(settingsFromProxyConfig(undefined, {}).exporter).toBe('none');
  });
});
