import { invoke } from './invoke';
import { operationSchema, type PluginDefinition } from './plugin-definition';
import { pluginIdentity } from './plugin-identity';
import type { ExecuteResponseMessage, GetInfoResponseMessage, OperationSchemaMessage } from './wire/messages';
import { decodeValues, encodeValues } from './wire/value-codec';

export interface InitRequestMessage {
  config?: Record<string, Uint8Array>;
}

export interface ExecuteRequestMessage {
  operation?: string;
  inputs?: Record<string, Uint8Array>;
}

/** An error a handler throws that keeps its gRPC status code (NOT_FOUND, INTERNAL...). */
export class PluginRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const GRPC_NOT_FOUND = 5;
export const GRPC_INTERNAL = 13;

/** The `{ code, message }` a gRPC server answers with: for `new RpcException(rpcError(err))` in Nest. */
export function rpcError(err: unknown): { code: number; message: string } {
  return {
    code: err instanceof PluginRpcError ? err.code : GRPC_INTERNAL,
    message: err instanceof Error ? err.message : String(err),
  };
}

/**
 * plugin.v1's PluginService and OperationService for a definition, as plain functions from
 * request message to response message: `serve()` wires them to grpc-js, a Nest plugin to its
 * `@GrpcMethod` handlers. The config `Init` receives is what every later Execute sees.
 */
export class PluginHandlers {
  private config: Record<string, unknown> = {};
  private shutdownHook?: Promise<void>;

  constructor(private readonly definition: PluginDefinition) {}

  getInfo(): GetInfoResponseMessage {
    const { name, version, description } = pluginIdentity(this.definition);
    return { name, version, description, capabilities: ['operations'] };
  }

  async init(request: InitRequestMessage): Promise<Record<string, never>> {
    this.config = decodeValues(request.config);
    await this.definition.init?.(this.config);
    return {};
  }

  /** The author's shutdown hook, run once whether the host asks first or a signal comes. */
  async shutdown(): Promise<Record<string, never>> {
    this.shutdownHook ??= Promise.resolve().then(() => this.definition.shutdown?.());
    await this.shutdownHook;
    return {};
  }

  listOperations(): { operations: OperationSchemaMessage[] } {
    return { operations: Object.entries(this.definition.operations).map(([n, s]) => operationSchema(n, s)) };
  }

  getOperation(request: { name?: string }): { operation: OperationSchemaMessage } {
    const name = String(request.name ?? '');
    const spec = Object.prototype.hasOwnProperty.call(this.definition.operations, name)
      ? this.definition.operations[name]
      : undefined;
    if (!spec) throw new PluginRpcError(GRPC_NOT_FOUND, `operation "${name}" not found`);
    return { operation: operationSchema(name, spec) };
  }

  /** Never throws: a failing operation is `success: false` with its message, as the host expects. */
  async execute(request: ExecuteRequestMessage, signal?: AbortSignal): Promise<ExecuteResponseMessage> {
    const inputs = decodeValues(request.inputs);
    const r = await invoke(this.definition, String(request.operation ?? ''), inputs, { signal, config: this.config });
    return { success: r.success, output: r.output, data: encodeValues(r.data), error: r.error };
  }
}
