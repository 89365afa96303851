import { isPlainObject } from '../../domain/model/plain-object';
import { JsonRpcError, JsonRpcErrorCode } from './json-rpc';

/**
 * The protocol versions the SDK (1.32) negotiates, newest first. `mcp-protocol.spec.ts` fails
 * when an SDK upgrade changes them, so this list follows the SDK rather than drifting from it.
 */
export const LATEST_PROTOCOL_VERSION = '2025-11-25';
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  LATEST_PROTOCOL_VERSION,
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

/** As the SDK's Server does: the client's version when we know it, else our newest. */
export function negotiateProtocolVersion(requested: string): string {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** The fields of `initialize` that the SDK requires; the rest is the client's business. */
export function initializeParams(params: unknown): { protocolVersion: string } {
  if (!isPlainObject(params) || typeof params.protocolVersion !== 'string')
    throw invalid('initialize', 'protocolVersion must be a string');
  if (!isPlainObject(params.capabilities)) throw invalid('initialize', 'capabilities must be an object');
  const info = params.clientInfo;
  if (!isPlainObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
    throw invalid('initialize', 'clientInfo must have a string name and version');
  }
  return { protocolVersion: params.protocolVersion };
}

/** `tools/call` params as the SDK's CallToolRequestSchema takes them: a string name, object arguments. */
export function callToolParams(params: unknown): {
  name: string;
  arguments: Record<string, unknown>;
  progressToken?: string | number;
} {
  if (!isPlainObject(params) || typeof params.name !== 'string') throw invalid('tools/call', 'name must be a string');
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) throw invalid('tools/call', 'arguments must be an object');
  // The envelope check (json-rpc.ts) has already held _meta.progressToken to a string or an integer.
  const token = isPlainObject(params._meta) ? params._meta.progressToken : undefined;
  return {
    name: params.name,
    arguments: args ?? {},
    ...(token !== undefined ? { progressToken: token as string | number } : {}),
  };
}

/** `tools/list` takes an optional string cursor; awf lists every tool in one page. */
export function listToolsParams(params: unknown): void {
  if (isPlainObject(params) && params.cursor !== undefined && typeof params.cursor !== 'string')
    throw invalid('tools/list', 'cursor must be a string');
}

function invalid(method: string, why: string): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Invalid ${method} request: ${why}`);
}
