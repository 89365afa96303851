import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ToolDefinition, ToolInputSchema } from '../../domain/model/tool-definition';
import type { ToolResult } from '../../domain/model/tool-result';
import type { ExecuteResponseMessage, InputSchemaMessage, OperationSchemaMessage } from '../../sdk/wire/messages';
import { decodeValues } from '../../sdk/wire/value-codec';

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);
const FORMATS: Record<string, string> = { url: 'uri', email: 'email' };

/** `<plugin>_<operation>`; the router checks it against the MCP name rule. */
export function pluginToolName(plugin: string, operation: string): string {
  return `${plugin}_${operation}`;
}

/**
 * An operation as an MCP tool: its description plus what it returns, and a JSON Schema
 * of its inputs. Agents fill in scalars only, so array and object inputs are refused here,
 * naming the input, rather than producing a tool no agent can call correctly.
 */
export function mapOperationTool(plugin: string, op: OperationSchemaMessage): ToolDefinition {
  const outputs = op.outputs ?? [];
  const description =
    (op.description?.trim() || `Operation '${op.name}' from plugin '${plugin}'.`) +
    (outputs.length ? ` Returns a JSON object with fields: ${outputs.map((o) => describeOutput(o)).join('; ')}.` : '');
  const { title, ...hints } = op.annotations ?? {};
  const annotations = Object.fromEntries(Object.entries(hints).filter(([, v]) => typeof v === 'boolean'));
  return {
    name: pluginToolName(plugin, op.name),
    ...(title ? { title } : {}),
    description,
    inputSchema: mapInputSchema(plugin, op),
    source: `plugin:${plugin}`,
    ...(Object.keys(annotations).length ? { annotations } : {}),
  };
}

export function mapInputSchema(plugin: string, op: OperationSchemaMessage): ToolInputSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const input of op.inputs ?? []) {
    const type = input.type || 'string';
    if (!SCALAR_TYPES.has(type)) {
      throw new AwfError(
        ErrorCodes.MCP_PROXY_UNSUPPORTED_SCHEMA,
        `plugin ${plugin} operation ${op.name}: input ${input.name} has unsupported schema type ${JSON.stringify(type)}`,
        { plugin, operation: op.name, input: input.name, type },
        'Tool inputs may be string, integer, number or boolean; pass structured data as a JSON string.',
      );
    }
    const property: Record<string, unknown> = { type };
    if (input.description) property.description = input.description;
    const value = defaultValue(type, input);
    if (value !== undefined) property.default = value;
    if (FORMATS[input.validation]) property.format = FORMATS[input.validation];
    properties[input.name] = property;
  }
  const required = (op.inputs ?? [])
    .filter((i) => i.required)
    .map((i) => i.name)
    .sort();
  return { type: 'object', properties, required };
}

/** Defaults travel as strings; give the schema the value in the input's own type. */
function defaultValue(type: string, input: InputSchemaMessage): unknown {
  const raw = input.default;
  if (raw === '' || raw === undefined) return undefined;
  if (type === 'integer' || type === 'number') {
    const n = Number(raw);
    return Number.isFinite(n) ? n : raw;
  }
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

function describeOutput(o: { name: string; type: string; description: string }): string {
  return `${o.name}${o.type ? ` (${o.type})` : ''}${o.description ? `: ${o.description}` : ''}`;
}

/**
 * Execute's answer as a tool result: `output` and the decoded `data` values form one
 * object, sent as JSON text and as structuredContent; `success=false` or an `error`
 * makes it an isError result whose last text is the plugin's error.
 */
export function mapExecuteResult(plugin: string, operation: string, res: ExecuteResponseMessage): ToolResult {
  const outputs: Record<string, unknown> = {};
  if (res.output) outputs.output = res.output;
  Object.assign(outputs, decodeValues(res.data));
  const sorted = Object.fromEntries(
    Object.keys(outputs)
      .sort()
      .map((k) => [k, outputs[k]]),
  );
  const isError = !res.success || Boolean(res.error);
  const content: ToolResult['content'] = [];
  if (Object.keys(sorted).length) content.push({ type: 'text', text: JSON.stringify(sorted) });
  if (isError) content.push({ type: 'text', text: res.error || `plugin ${plugin}: operation ${operation} failed` });
  if (isError) return { content, isError: true };
  return Object.keys(sorted).length
    ? { content, structuredContent: sorted }
    : { content: [{ type: 'text', text: '{}' }], structuredContent: {} };
}
