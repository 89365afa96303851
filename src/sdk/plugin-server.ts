import type * as GrpcJs from '@grpc/grpc-js';
import { goPluginServer } from './go-plugin-server';
import { checkDefinition, type PluginDefinition } from './plugin-definition';
import { PluginHandlers, rpcError } from './plugin-handlers';
import { pluginIdentity } from './plugin-identity';
import { loadPluginProtocol } from './wire/proto';

type Unary = (
  call: GrpcJs.ServerUnaryCall<Record<string, unknown>, unknown>,
  done: GrpcJs.sendUnaryData<unknown>,
) => void;

/**
 * Serves a plugin the way go-plugin does, so awf and AWF can both load it: the handshake
 * (goPluginServer), then plugin.v1's PluginService and OperationService on a grpc-js server.
 * Returns once the handshake line is out.
 */
export async function serve(definition: PluginDefinition): Promise<void> {
  const plugin = goPluginServer(pluginIdentity(definition).name || 'plugin', () => checkDefinition(definition));
  const handlers = new PluginHandlers(definition);
  const { grpc, PluginService, OperationService } = loadPluginProtocol();
  const server = new grpc.Server();
  const running = new AbortController();
  /** A handler's result or its error, as grpc-js's callback wants them. */
  const unary =
    (work: (request: Record<string, unknown>) => unknown): Unary =>
    (call, done) =>
      void Promise.resolve()
        .then(() => work(call.request))
        .then(
          (value) => done(null, value),
          (err: unknown) => {
            const { code, message } = rpcError(err);
            done({ code, details: message }, null);
          },
        );

  server.addService(PluginService.service, {
    getInfo: unary(() => handlers.getInfo()),
    init: unary((request) => handlers.init(request)),
    shutdown: unary(() => handlers.shutdown()),
  });
  server.addService(OperationService.service, {
    listOperations: unary(() => handlers.listOperations()),
    getOperation: unary((request) => handlers.getOperation(request)),
    execute: ((call, done) => {
      const cancelled = new AbortController();
      call.on('cancelled', () => cancelled.abort());
      void unary((request) => handlers.execute(request, AbortSignal.any([cancelled.signal, running.signal])))(
        call,
        done,
      );
    }) as Unary,
  });
  plugin.addHostServices(server);
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(plugin.url, plugin.credentials, (err) => (err ? reject(err) : resolve())),
  );
  plugin.announce(async () => {
    running.abort();
    await handlers.shutdown();
    server.forceShutdown();
  });
}
