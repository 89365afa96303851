import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as GrpcJs from '@grpc/grpc-js';
import { generateEphemeralCert } from './wire/auto-mtls';
import { APP_PROTOCOL_VERSION, formatHandshake, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from './wire/handshake';
import { loadPluginProtocol } from './wire/proto';

type Unary = (
  call: GrpcJs.ServerUnaryCall<Record<string, unknown>, unknown>,
  done: GrpcJs.sendUnaryData<unknown>,
) => void;
type Stream = GrpcJs.ServerWritableStream<unknown, unknown> | GrpcJs.ServerDuplexStream<unknown, unknown>;

/** What a gRPC server needs to be a go-plugin plugin, whoever builds the server (grpc-js, Nest). */
export interface GoPluginServer {
  /** Where the server must listen: a private unix socket, `unix:<path>`. */
  url: string;
  /** TLS with a throwaway certificate when the host sent its own (AutoMTLS), else plaintext. */
  credentials: GrpcJs.ServerCredentials;
  /** Adds health, go-plugin's controller (Shutdown), stdio and broker to the server. */
  addHostServices(server: Pick<GrpcJs.Server, 'addService'>): void;
  /** Prints the handshake line (the server must be listening) and takes over the process's end. */
  announce(close: () => Promise<void>): void;
}

/**
 * go-plugin's side of the handshake, as awf and AWF expect it: check the cookie and the
 * protocol version (exit 1 otherwise, as go-plugin does), make the socket directory and the
 * credentials, and move stdout to stderr — stdout carries only the handshake line, so the
 * author's `console.log` and a framework's logger cannot break it. After `announce`, the
 * plugin stops on the controller's Shutdown, SIGTERM or its parent's end, and ignores SIGINT
 * (Ctrl-C reaches the whole process group; the host decides when plugins stop).
 */
export function goPluginServer(name: string, check?: () => void): GoPluginServer {
  if (process.env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    fail(`${name}: this program is an awf plugin; awf starts it when a workflow step exposes its operations.`);
  }
  const offered = (process.env.PLUGIN_PROTOCOL_VERSIONS ?? String(APP_PROTOCOL_VERSION))
    .split(',')
    .map((v) => v.trim());
  if (!offered.includes(String(APP_PROTOCOL_VERSION))) {
    fail(`${name}: host offers plugin protocol ${offered.join(',')}, this plugin speaks ${APP_PROTOCOL_VERSION}`);
  }
  try {
    check?.();
  } catch (err) {
    fail(`${name}: invalid plugin definition: ${(err as Error).message}`);
  }
  const handshakeOut = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  console.log = console.error;
  console.info = console.error;

  const { grpc, Health, GRPCController, GRPCStdio, GRPCBroker } = loadPluginProtocol();
  const socketDir = mkdtempSync(join(process.env.PLUGIN_UNIX_SOCKET_DIR || tmpdir(), 'awf-plugin-'));
  const socket = join(socketDir, 'plugin.sock');
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
  const openStreams = new Set<Stream>();
  let close: () => Promise<void> = async () => undefined;
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    openStreams.forEach((s) => s.end());
    try {
      // A framework's close may wait for calls in flight; the host kills us 2 s after asking anyway.
      await Promise.race([close(), new Promise((r) => setTimeout(r, 1_500).unref())]);
    } catch (err) {
      process.stderr.write(`${name}: shutdown failed: ${String(err)}\n`);
    }
    rmSync(socketDir, { recursive: true, force: true });
    process.exit(0);
  };

  return {
    url: `unix:${socket}`,
    credentials,
    addHostServices(server) {
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
          setImmediate(() => void stop());
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
    },
    announce(closePlugin) {
      close = closePlugin;
      handshakeOut(formatHandshake({ network: 'unix', address: socket, certDer: own?.certDer }) + '\n');
      process.on('SIGINT', () => undefined);
      process.once('SIGTERM', () => void stop());
      const parent = process.ppid;
      setInterval(() => {
        if (process.ppid !== parent) void stop();
      }, 1000).unref();
    },
  };
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
