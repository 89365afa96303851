/** The plugin.v1 messages as proto-loader hands them over (camelCase fields, defaults filled in). */
export interface InputSchemaMessage {
  name: string;
  type: string;
  required: boolean;
  default: string;
  description: string;
  validation: string;
}

export interface OutputSchemaMessage {
  name: string;
  type: string;
  description: string;
}

/** MCP's tool annotations (awf's field 100 of OperationSchema); an unset hint is absent. */
export interface OperationAnnotationsMessage {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface OperationSchemaMessage {
  name: string;
  description: string;
  inputs: InputSchemaMessage[];
  outputs: OutputSchemaMessage[];
  /** Absent (or null) from a plugin that does not declare any, AWF's Go plugins included. */
  annotations?: OperationAnnotationsMessage | null;
}

export interface ExecuteResponseMessage {
  success: boolean;
  output: string;
  data: Record<string, Uint8Array>;
  error: string;
}

export interface GetInfoResponseMessage {
  name: string;
  version: string;
  description: string;
  capabilities: string[];
}
