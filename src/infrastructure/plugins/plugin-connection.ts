import type * as GrpcJs from '@grpc/grpc-js';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { derToPem, type EphemeralCert } from '../../sdk/wire/auto-mtls';
import type { HandshakeEndpoint } from '../../sdk/wire/handshake';
import type { ExecuteResponseMessage, GetInfoResponseMessage, OperationSchemaMessage } from '../../sdk/wire/messages';
import { loadPluginProtocol } from '../../sdk/wire/proto';
import { encodeValues } from '../../sdk/wire/value-codec';

export const CONTROL_DEADLINE_MS = 5_000;

type Callback = (err: GrpcJs.ServiceError | null, value?: unknown) => void;
type UnaryMethod = (
  request: unknown,
  metadata: GrpcJs.Metadata,
  options: GrpcJs.CallOptions,
  callback: Callback,
) => GrpcJs.ClientUnaryCall;

/**
 * gRPC clients for one plugin over one channel: mTLS when the plugin sent a certificate
 * (we trust exactly that certificate and present ours), plaintext otherwise. Loads
 * @grpc/grpc-js on first use, so nothing pays for gRPC until a plugin starts.
 */
export class PluginConnection {
  private readonly channel: GrpcJs.Channel;
  private readonly clients: Record<'plugin' | 'operation' | 'health' | 'controller' | 'stdio', GrpcJs.Client>;
  private stdio?: GrpcJs.ClientReadableStream<unknown>;

  constructor(
    endpoint: HandshakeEndpoint,
    hostCert: EphemeralCert | undefined,
    private readonly logger: AppLogger,
  ) {
    const protocol = loadPluginProtocol();
    const { grpc } = protocol;
    const target = endpoint.network === 'unix' ? `unix:${endpoint.address}` : endpoint.address;
    const credentials =
      endpoint.certDer && hostCert
        ? grpc.credentials.createSsl(
            Buffer.from(derToPem(endpoint.certDer)),
            Buffer.from(hostCert.keyPem),
            Buffer.from(hostCert.certPem),
          )
        : grpc.credentials.createInsecure();
    this.channel = new grpc.Channel(target, credentials, {
      'grpc.ssl_target_name_override': 'localhost',
      'grpc.default_authority': 'localhost',
    });
    const make = (ctor: GrpcJs.ServiceClientConstructor) =>
      new ctor(target, credentials, { channelOverride: this.channel });
    this.clients = {
      plugin: make(protocol.PluginService),
      operation: make(protocol.OperationService),
      health: make(protocol.Health),
      controller: make(protocol.GRPCController),
      stdio: make(protocol.GRPCStdio),
    };
  }

  async health(): Promise<void> {
    const res = (await this.unary('health', 'check', { service: 'plugin' }, CONTROL_DEADLINE_MS)) as { status: string };
    if (res.status !== 'SERVING') throw new Error(`health check says ${res.status}`);
  }

  /** go-plugin writes the plugin's stdout/stderr here; Go plugins block if nobody reads it. */
  drainStdio(): void {
    const call = (
      this.clients.stdio as unknown as {
        streamStdio(req: unknown): GrpcJs.ClientReadableStream<{ channel: string; data: Buffer }>;
      }
    ).streamStdio({});
    call.on('data', (chunk: { channel: string; data: Buffer }) =>
      this.logger.info({ stream: String(chunk.channel).toLowerCase() }, chunk.data.toString('utf8').trimEnd()),
    );
    call.on('error', () => undefined);
    this.stdio = call;
  }

  getInfo(): Promise<GetInfoResponseMessage> {
    return this.unary('plugin', 'getInfo', {}, CONTROL_DEADLINE_MS) as Promise<GetInfoResponseMessage>;
  }

  async init(config: Record<string, unknown>): Promise<void> {
    await this.unary('plugin', 'init', { config: encodeValues(config) }, CONTROL_DEADLINE_MS);
  }

  async listOperations(): Promise<OperationSchemaMessage[]> {
    const res = (await this.unary('operation', 'listOperations', {}, CONTROL_DEADLINE_MS)) as {
      operations: OperationSchemaMessage[];
    };
    return res.operations;
  }

  execute(operation: string, inputs: Record<string, unknown>, signal?: AbortSignal): Promise<ExecuteResponseMessage> {
    return this.unary(
      'operation',
      'execute',
      { operation, inputs: encodeValues(inputs) },
      undefined,
      signal,
    ) as Promise<ExecuteResponseMessage>;
  }

  /** Best effort, like go-plugin's Kill: the plugin's Shutdown, then the controller's. */
  async shutdown(deadlineMs = 1_000): Promise<void> {
    await this.unary('plugin', 'shutdown', {}, deadlineMs).catch(() => undefined);
    // A Go server stops before its reply gets out: UNAVAILABLE here means it worked.
    await this.unary('controller', 'shutdown', {}, deadlineMs).catch(() => undefined);
  }

  close(): void {
    this.stdio?.cancel();
    Object.values(this.clients).forEach((c) => c.close());
    this.channel.close();
  }

  private unary(
    client: keyof PluginConnection['clients'],
    method: string,
    request: unknown,
    deadlineMs?: number,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const { grpc } = loadPluginProtocol();
    const fn = (this.clients[client] as unknown as Record<string, UnaryMethod>)[method].bind(this.clients[client]);
    return new Promise((resolve, reject) => {
      const options: GrpcJs.CallOptions = deadlineMs ? { deadline: Date.now() + deadlineMs } : {};
      const call = fn(request, new grpc.Metadata(), options, (err, value) => {
        signal?.removeEventListener('abort', cancel);
        if (err) reject(err);
        else resolve(value);
      });
      const cancel = () => call.cancel();
      if (signal?.aborted) cancel();
      else signal?.addEventListener('abort', cancel, { once: true });
    });
  }
}
