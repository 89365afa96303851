import { join } from 'node:path';
import { pluginIdentity } from './plugin-identity';
import { goPluginServer } from './go-plugin-server';
import { protoRoot } from './wire/proto';

/** What `NestFactory.createMicroservice(Module, { transport: Transport.GRPC, options })` takes. */
export interface GoPluginGrpcOptions {
  package: string;
  protoPath: string;
  url: string;
  credentials: unknown;
  loader: Record<string, unknown>;
  onLoadPackageDefinition: (definition: unknown, server: { addService(...args: never[]): void }) => void;
}

export interface GoPluginTransport {
  /** Options for @nestjs/microservices' gRPC transport: plugin.v1 on the plugin's socket. */
  grpcOptions: GoPluginGrpcOptions;
  /** Prints the handshake line once the app listens; the host's Shutdown (or SIGTERM) closes `app`. */
  announce(app: { close(): Promise<void> }): void;
}

/**
 * A plugin written as a Nest microservice on @nestjs/microservices' gRPC transport: the
 * author's controller answers plugin.v1 through `@GrpcMethod('PluginService' |
 * 'OperationService', …)`, and this side does the go-plugin part (cookie, socket, AutoMTLS,
 * health, controller, handshake line). Nest itself is the author's dependency, not the SDK's.
 */
export function goPluginTransport(name?: string): GoPluginTransport {
  // The name only prefixes its messages; absent, it is plugin.yaml's.
  const plugin = goPluginServer(name ?? (pluginIdentity({}).name || 'plugin'));
  const root = protoRoot();
  return {
    grpcOptions: {
      package: 'plugin.v1',
      protoPath: join(root, 'plugin/v1/plugin.proto'),
      url: plugin.url,
      credentials: plugin.credentials,
      loader: { includeDirs: [root], keepCase: false, longs: String, enums: String, defaults: true, oneofs: true },
      // Nest calls this with its grpc-js server, after it is bound and before it serves.
      onLoadPackageDefinition: (_definition, server) =>
        plugin.addHostServices(server as unknown as Parameters<typeof plugin.addHostServices>[0]),
    },
    announce: (app) => plugin.announce(() => app.close()),
  };
}
