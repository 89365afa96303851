/** What an operation step gets back (AWF's OperationResult): outputs even on failure when there are any. */
export interface OperationResult {
  success: boolean;
  outputs: Record<string, unknown>;
  error?: string;
  /** The error code of a failure when the operation knows a better one than EXECUTION.OPERATION.FAILED. */
  code?: string;
}

/**
 * An operation awf runs itself, without a plugin (AWF's `http.request`). `name` is the
 * `operation:` value that selects it; `execute` never rejects for the operation's own failure.
 */
export interface BuiltinOperation {
  readonly name: string;
  execute(inputs: Record<string, unknown>, signal: AbortSignal): Promise<OperationResult>;
}

export const BUILTIN_OPERATIONS = Symbol.for('awf.BuiltinOperations');
