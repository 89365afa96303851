import { checkDefinition, prepareInputs, type OperationOutputs, type PluginDefinition } from './plugin-definition';

/** The outcome of one operation, as the host receives it over Execute. */
export interface InvokeResult {
  success: boolean;
  output: string;
  data: OperationOutputs;
  error: string;
}

/**
 * Runs one operation exactly as `serve()` would for an Execute call — defaults, input
 * checks, errors turned into `success: false` — but in-process: for a plugin's own tests.
 */
export async function invoke(
  definition: PluginDefinition,
  operation: string,
  inputs: Record<string, unknown> = {},
  options: { signal?: AbortSignal; config?: Record<string, unknown> } = {},
): Promise<InvokeResult> {
  checkDefinition(definition);
  const spec = Object.prototype.hasOwnProperty.call(definition.operations, operation)
    ? definition.operations[operation]
    : undefined;
  if (!spec)
    return failure(`unknown operation ${JSON.stringify(operation)} in plugin ${definition.name ?? 'this plugin'}`);
  const prepared = prepareInputs(spec, inputs);
  if (prepared.problems.length > 0) return failure(`invalid inputs: ${prepared.problems.join('; ')}`);
  try {
    const returned = await spec.run(prepared.inputs, {
      signal: options.signal ?? new AbortController().signal,
      config: options.config ?? {},
    });
    if (typeof returned === 'string') return { success: true, output: returned, data: {}, error: '' };
    return { success: true, output: '', data: returned ?? {}, error: '' };
  } catch (err) {
    return failure(err instanceof Error ? err.message : String(err));
  }
}

function failure(error: string): InvokeResult {
  return { success: false, output: '', data: {}, error };
}
