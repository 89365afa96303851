import { pluginIdentity } from './plugin-identity';
import type { InputSchemaMessage, OperationAnnotationsMessage, OperationSchemaMessage } from './wire/messages';

/** What a plugin author writes: its operations (its name and version are in plugin.yaml). */
export type InputType = 'string' | 'integer' | 'number' | 'boolean';

export interface InputSpec {
  type: InputType;
  description?: string;
  required?: boolean;
  default?: string | number | boolean;
  /** Checked before `run` is called; hosts show it as a JSON Schema `format`. */
  validation?: 'url' | 'email';
}

export interface OutputSpec {
  type: InputType | 'object' | 'array';
  description?: string;
}

export interface OperationContext {
  /** Aborted when the host cancels the call or the plugin is shutting down. */
  signal: AbortSignal;
  /** The plugin's config, as received by `Init`. */
  config: Readonly<Record<string, unknown>>;
}

/** Outputs of an operation: returned as JSON values (`data`); a string becomes `output`. */
export type OperationOutputs = Record<string, unknown>;

/**
 * What an MCP client may assume about an operation (MCP's tool annotations): clients use them
 * to decide what to run without asking. Leave a hint out when it is not known.
 */
export type OperationAnnotations = OperationAnnotationsMessage;

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

export interface OperationSpec {
  description: string;
  /** `title` (a human name) and the hints `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`. */
  annotations?: OperationAnnotations;
  inputs?: Record<string, InputSpec>;
  outputs?: Record<string, OutputSpec | OutputSpec['type']>;
  /** Throw to fail: the message reaches the agent as the tool's error text. */
  run(
    inputs: Record<string, unknown>,
    ctx: OperationContext,
  ): Promise<OperationOutputs | string | void> | OperationOutputs | string | void;
}

export interface PluginDefinition {
  /** Absent: the `name` of the plugin's plugin.yaml, its one metadata file (as are version and description). */
  name?: string;
  version?: string;
  description?: string;
  operations: Record<string, OperationSpec>;
  init?(config: Readonly<Record<string, unknown>>): Promise<void> | void;
  shutdown?(): Promise<void> | void;
}

/** Identity helper that gives an author type checking and completion. */
export function definePlugin<T extends PluginDefinition>(definition: T): T {
  return definition;
}

const OPERATION_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Catches authoring mistakes at start, before the plugin answers the handshake. */
export function checkDefinition(definition: PluginDefinition): void {
  const { name, version, problem } = pluginIdentity(definition);
  if (problem) throw new Error(problem);
  if (!name) throw new Error('plugin name is required: in plugin.yaml next to the plugin, or in its definition');
  if (!OPERATION_NAME.test(name))
    throw new Error(
      `plugin name ${JSON.stringify(name)} must start with a letter and use only letters, digits, "_" and "-"`,
    );
  if (!version) throw new Error('plugin version is required: in plugin.yaml next to the plugin, or in its definition');
  for (const [op, spec] of Object.entries(definition.operations ?? {})) {
    if (!OPERATION_NAME.test(op))
      throw new Error(
        `operation name ${JSON.stringify(op)} must start with a letter and use only letters, digits, "_" and "-"`,
      );
    if (typeof spec.run !== 'function') throw new Error(`operation ${op} has no run function`);
    const a = spec.annotations ?? {};
    if (a.title !== undefined && typeof a.title !== 'string')
      throw new Error(`operation ${op}: title must be a string`);
    for (const hint of HINTS) {
      if (a[hint] !== undefined && typeof a[hint] !== 'boolean')
        throw new Error(`operation ${op}: ${hint} must be true or false`);
    }
    for (const [input, inputSpec] of Object.entries(spec.inputs ?? {})) {
      if (!['string', 'integer', 'number', 'boolean'].includes(inputSpec.type)) {
        throw new Error(
          `input ${op}.${input} has type ${JSON.stringify(inputSpec.type)}; tools accept string, integer, number and boolean`,
        );
      }
    }
  }
}

export function operationSchema(name: string, spec: OperationSpec): OperationSchemaMessage {
  return {
    name,
    description: spec.description ?? '',
    inputs: Object.entries(spec.inputs ?? {}).map(([input, s]): InputSchemaMessage => ({
      name: input,
      type: s.type,
      required: s.required === true,
      default: s.default === undefined ? '' : String(s.default),
      description: s.description ?? '',
      validation: s.validation ?? '',
    })),
    outputs: Object.entries(spec.outputs ?? {}).map(([output, s]) =>
      typeof s === 'string'
        ? { name: output, type: s, description: '' }
        : { name: output, type: s.type, description: s.description ?? '' },
    ),
    ...(spec.annotations ? { annotations: { ...spec.annotations } } : {}),
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Applies defaults and checks types, required inputs and validations; returns the problems found. */
export function prepareInputs(
  spec: OperationSpec,
  raw: Record<string, unknown>,
): { inputs: Record<string, unknown>; problems: string[] } {
  const inputs: Record<string, unknown> = { ...raw };
  const problems: string[] = [];
  for (const [name, s] of Object.entries(spec.inputs ?? {})) {
    if (inputs[name] === undefined || inputs[name] === null) {
      if (s.default !== undefined) inputs[name] = s.default;
      else if (s.required) problems.push(`${name} is required`);
      continue;
    }
    const value = inputs[name];
    const typeOk =
      s.type === 'string'
        ? typeof value === 'string'
        : s.type === 'boolean'
          ? typeof value === 'boolean'
          : s.type === 'integer'
            ? Number.isInteger(value)
            : typeof value === 'number' && Number.isFinite(value);
    if (!typeOk) {
      problems.push(
        `${name} must be ${s.type === 'integer' ? 'an integer' : `a ${s.type}`}, got ${JSON.stringify(value)}`,
      );
      continue;
    }
    if (s.validation === 'email' && !EMAIL.test(String(value))) problems.push(`${name} must be an email address`);
    if (s.validation === 'url' && !isUrl(String(value))) problems.push(`${name} must be a URL`);
  }
  return { inputs, problems };
}

function isUrl(value: string): boolean {
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
}
