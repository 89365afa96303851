/**
 * awf's plugin SDK (`awf/plugin-sdk`): write a plugin as `serve({ name, version,
 * operations })`, or as a Nest microservice whose controller answers through
 * `PluginHandlers` on `goPluginTransport`. The SDK speaks the go-plugin handshake, AutoMTLS,
 * health and the plugin.v1 services, so the plugin loads in awf and in AWF alike.
 */
export { serve } from './plugin-server';
export { invoke, type InvokeResult } from './invoke';
export { goPluginTransport, type GoPluginGrpcOptions, type GoPluginTransport } from './go-plugin-transport';
export {
  PluginHandlers,
  PluginRpcError,
  rpcError,
  type ExecuteRequestMessage,
  type InitRequestMessage,
} from './plugin-handlers';
export {
  definePlugin,
  type InputSpec,
  type InputType,
  type OperationAnnotations,
  type OperationContext,
  type OperationOutputs,
  type OperationSpec,
  type OutputSpec,
  type PluginDefinition,
} from './plugin-definition';
