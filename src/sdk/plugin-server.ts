import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as GrpcJs from '@grpc/grpc-js';
import { invoke } from './invoke';
import { checkDefinition, operationSchema, type PluginDefinition } from './plugin-definition';
import { generateEphemeralCert } from './wire/auto-mtls';
import { formatHandshake, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, APP_PROTOCOL_VERSION } from './wire/handshake';
import { loadPluginProtocol } from './wire/proto';
import { decodeValues, encodeValues } from './wire/value-codec';

type Unary = (
  call: GrpcJs.ServerUnaryCall<Record<string, unknown>, unknown>,
  done: GrpcJs.sendUnaryData<unknown>,
) => void;

/**
 * Serves a plugin the way go-plugin does, so awf and AWF can both load it: check the
 * cookie, listen on a private unix socket (TLS when the host sent its certificate), then
 * print the handshake line. Health, the go-plugin controller and plugin.v1's PluginService
 * and OperationService are served. Returns once the handshake line is out.
 */
export async function serve(definition: PluginDefinition): Promise<void> {
  if (process.env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    process.stderr.write(
      `${definition.name}: this program is an awf plugin; awf starts it when a workflow step exposes its operations.\n`,
    );
    process.exit(1);
  }
  const offered = (process.env.PLUGIN_PROTOCOL_VERSIONS ?? String(APP_PROTOCOL_VERSION))
    .split(',')
    .map((v) => v.trim());
  if (!offered.includes(String(APP_PROTOCOL_VERSION))) {
    process.stderr.write(
      `${definition.name}: host offers plugin protocol ${offered.join(',')}, this plugin speaks ${APP_PROTOCOL_VERSION}\n`,
    );
    process.exit(1);
  }
  try {
    checkDefinition(definition);
  } catch (err) {
    process.stderr.write(`${definition.name}: invalid plugin definition: ${(err as Error).message}\n`);
    process.exit(1);
  }
  // stdout carried the handshake; anything an author prints goes to stderr, which the host logs.
  console.log = console.error;
  console.info = console.error;

  const { grpc, PluginService, OperationService, Health, GRPCController, GRPCStdio, GRPCBroker } = loadPluginProtocol();
  const server = new grpc.Server();
  const running = new AbortController();
  const openStreams = new Set<
    GrpcJs.ServerWritableStream<unknown, unknown> | GrpcJs.ServerDuplexStream<unknown, unknown>
  >();
  let config: Record<string, unknown> = {};
  const socketDir = mkdtempSync(join(process.env.PLUGIN_UNIX_SOCKET_DIR || tmpdir(), 'awf-plugin-'));

  // The author's shutdown hook runs once, whether the host asks first or a signal comes.
  let shutdownHook: Promise<void> | undefined;
  const runShutdownHook = (): Promise<void> => (shutdownHook ??= Promise.resolve().then(() => definition.shutdown?.()));
  let stopping = false;
  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    running.abort();
    openStreams.forEach((s) => s.end());
    try {
      await runShutdownHook();
    } catch (err) {
      process.stderr.write(`${definition.name}: shutdown failed: ${String(err)}\n`);
    }
    server.forceShutdown();
    rmSync(socketDir, { recursive: true, force: true });
    process.exit(code);
  };

  const pluginService: Record<string, Unary> = {
    getInfo: (_call, done) =>
      done(null, {
        name: definition.name,
        version: definition.version,
        description: definition.description ?? '',
        capabilities: ['operations'],
      }),
    init: (call, done) => {
      config = decodeValues(call.request.config as Record<string, Uint8Array>);
      Promise.resolve(definition.init?.(config)).then(
        () => done(null, {}),
        (err: unknown) => done(grpcError(grpc, err), null),
      );
    },
    shutdown: (_call, done) => {
      runShutdownHook().then(
        () => done(null, {}),
        (err: unknown) => done(grpcError(grpc, err), null),
      );
    },
  };
  const operationService: Record<string, Unary> = {
    listOperations: (_call, done) =>
      done(null, { operations: Object.entries(definition.operations).map(([n, s]) => operationSchema(n, s)) }),
    getOperation: (call, done) => {
      const name = String(call.request.name ?? '');
      const spec = Object.prototype.hasOwnProperty.call(definition.operations, name)
        ? definition.operations[name]
        : undefined;
      if (!spec) return done({ code: grpc.status.NOT_FOUND, details: `operation "${name}" not found` }, null);
      done(null, { operation: operationSchema(name, spec) });
    },
    execute: (call, done) => {
      const cancelled = new AbortController();
      call.on('cancelled', () => cancelled.abort());
      const signal = AbortSignal.any([cancelled.signal, running.signal]);
      const inputs = decodeValues(call.request.inputs as Record<string, Uint8Array>);
      invoke(definition, String(call.request.operation ?? ''), inputs, { signal, config }).then((r) =>
        done(null, { success: r.success, output: r.output, data: encodeValues(r.data), error: r.error }),
      );
    },
  };
  server.addService(PluginService.service, pluginService);
  server.addService(OperationService.service, operationService);
  server.addService(Health.service, {
    check: ((call, done) => {
      const service = String(call.request.service ?? '');
      if (service === '' || service === 'plugin') return done(null, { status: 'SERVING' });
      done({ code: grpc.status.NOT_FOUND, details: `unknown service ${service}` }, null);
    }) as Unary,
  });
  server.addService(GRPCController.service, {
    shutdown: ((_call, done) => {
      done(null, {});
      setImmediate(() => void stop(0));
    }) as Unary,
  });
  // Output goes to stderr directly, so the stdio stream stays open and quiet; the broker is idle.
  server.addService(GRPCStdio.service, {
    streamStdio: (call: GrpcJs.ServerWritableStream<unknown, unknown>) => {
      openStreams.add(call);
      call.on('cancelled', () => openStreams.delete(call));
    },
  });
  server.addService(GRPCBroker.service, {
    startStream: (call: GrpcJs.ServerDuplexStream<unknown, unknown>) => {
      openStreams.add(call);
      call.on('data', () => undefined);
      call.on('end', () => openStreams.delete(call));
    },
  });

  const clientCert = process.env.PLUGIN_CLIENT_CERT;
  const own = clientCert ? generateEphemeralCert() : undefined;
  const credentials =
    own && clientCert
      ? grpc.ServerCredentials.createSsl(
          Buffer.from(clientCert),
          [{ private_key: Buffer.from(own.keyPem), cert_chain: Buffer.from(own.certPem) }],
          true,
        )
      : grpc.ServerCredentials.createInsecure();
  const socket = join(socketDir, 'plugin.sock');
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix:${socket}`, credentials, (err) => (err ? reject(err) : resolve())),
  );
  process.stdout.write(formatHandshake({ network: 'unix', address: socket, certDer: own?.certDer }) + '\n');

  // Like go-plugin: Ctrl-C reaches the whole process group, and the host decides when we stop.
  process.on('SIGINT', () => undefined);
  process.once('SIGTERM', () => void stop(0));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop(0);
  }, 1000).unref();
}

function grpcError(grpc: { status: typeof GrpcJs.status }, err: unknown): Partial<GrpcJs.StatusObject> {
  return { code: grpc.status.INTERNAL, details: err instanceof Error ? err.message : String(err) };
}
