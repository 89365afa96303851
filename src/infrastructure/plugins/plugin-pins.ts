import type { PinFile, PinnableTool, ToolChange } from '../../domain/policy/tool-pin';
import type { OperationSchemaMessage } from '../../sdk/wire/messages';
import { pinFileOf, ToolPinStore } from '../core/tool-pin.store';
import type { DiscoveredPlugin } from './plugin-manifest';
import { mapOperationTool } from './plugin-schema.mapper';

/** A plugin's pins (ADR 305) sit beside upstream servers' as `plugin.<name>.json`. */
export function pluginPinKey(plugin: string): string {
  return `plugin:${plugin}`;
}

/**
 * Every operation as the tool an agent sees (its own name), whatever a step exposes, so steps
 * that expose different operations share one pin. An operation no agent could call (an array
 * input, refused when exposed) is pinned as the plugin describes it.
 */
function pinnableTools(plugin: string, operations: readonly OperationSchemaMessage[]): PinnableTool[] {
  return operations.map((op) => {
    try {
      return { ...mapOperationTool(plugin, op), name: op.name };
    } catch {
      const { name, description, inputs, outputs, annotations } = op;
      return { name, description, inputSchema: { inputs, outputs }, annotations: annotations ?? undefined };
    }
  });
}

/** The operations of `plugin` that differ from the pin of its version; another version is pinned anew. */
export function checkPluginPins(
  plugin: DiscoveredPlugin,
  operations: readonly OperationSchemaMessage[],
  pinsDir?: string,
): Map<string, ToolChange> {
  return new ToolPinStore(pinsDir).check(
    pluginPinKey(plugin.name),
    pinnableTools(plugin.name, operations),
    plugin.version,
  );
}

/** What `awf plugin install|update` pins once the plugin is in place: the user installed this version. */
export function pluginPin(plugin: DiscoveredPlugin, operations: readonly OperationSchemaMessage[]): PinFile {
  return pinFileOf(pluginPinKey(plugin.name), pinnableTools(plugin.name, operations), new Date(), plugin.version);
}
