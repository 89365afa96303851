import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type * as GrpcJs from '@grpc/grpc-js';

/**
 * Loads gRPC and the plugin protocol on first use only: requiring @grpc/grpc-js and
 * parsing the .proto files costs startup time that `awf mcp-serve` without plugins must
 * not pay (see the ADR on lazy gRPC). The .proto files ship in the package's `proto/`,
 * at the same relative depth from `src/sdk/wire` and `dist/sdk/wire`.
 */
export type Grpc = typeof GrpcJs;
export type ServiceClientCtor = GrpcJs.ServiceClientConstructor;

export interface PluginProtocol {
  grpc: Grpc;
  PluginService: ServiceClientCtor;
  OperationService: ServiceClientCtor;
  Health: ServiceClientCtor;
  GRPCController: ServiceClientCtor;
  GRPCStdio: ServiceClientCtor;
  GRPCBroker: ServiceClientCtor;
}

const PROTO_FILES = ['plugin/v1/plugin.proto', 'grpc/health/v1/health.proto', 'goplugin/control.proto'];

let loaded: PluginProtocol | undefined;

export function protoRoot(): string {
  // dist/sdk/wire or src/sdk/wire, or dist/ itself when awf runs from its bundle (dist/awf.cjs).
  const candidates = [resolve(__dirname, '../../../proto'), resolve(__dirname, '../proto')];
  const root = candidates.find((c) => existsSync(join(c, PROTO_FILES[0]))) ?? candidates[0];
  if (!existsSync(join(root, PROTO_FILES[0]))) {
    throw new Error(`awf plugin protocol files not found under ${root}; the package is incomplete`);
  }
  return root;
}

export function loadPluginProtocol(): PluginProtocol {
  if (loaded) return loaded;
  const grpc = require('@grpc/grpc-js') as Grpc;
  const loader = require('@grpc/proto-loader') as typeof import('@grpc/proto-loader');
  const definition = loader.loadSync(PROTO_FILES, {
    includeDirs: [protoRoot()],
    keepCase: false,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    plugin: { v1: Record<string, ServiceClientCtor> } & Record<string, ServiceClientCtor>;
    grpc: { health: { v1: { Health: ServiceClientCtor } } };
  };
  loaded = {
    grpc,
    PluginService: pkg.plugin.v1.PluginService,
    OperationService: pkg.plugin.v1.OperationService,
    Health: pkg.grpc.health.v1.Health,
    GRPCController: pkg.plugin.GRPCController,
    GRPCStdio: pkg.plugin.GRPCStdio,
    GRPCBroker: pkg.plugin.GRPCBroker,
  };
  return loaded;
}
