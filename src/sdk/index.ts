/**
 * awf's plugin SDK (`awf/plugin-sdk`): write a plugin as `serve({ name, version,
 * operations })`. The SDK speaks the go-plugin handshake, AutoMTLS, health and the
 * plugin.v1 services, so the plugin loads in awf and in AWF alike.
 */
export { serve } from './plugin-server';
export { invoke, type InvokeResult } from './invoke';
export {
  definePlugin,
  type InputSpec,
  type InputType,
  type OperationContext,
  type OperationOutputs,
  type OperationSpec,
  type OutputSpec,
  type PluginDefinition,
} from './plugin-definition';
