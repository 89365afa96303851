import { isPlainObject } from '../../domain/model/plain-object';

/**
 * JSON-RPC 2.0 as MCP frames it, checked by hand: the same envelope rules as the SDK's
 * `JSONRPCMessageSchema` (strict objects, `"2.0"`, string or safe-integer ids, object params),
 * without loading zod into every `mcp-serve` start. See docs/adr/093-perf-own-mcp-server-edge.md.
 */
export type RequestId = string | number;
type Params = Record<string, unknown>;

export type JsonRpcMessage =
  | { kind: 'request'; id: RequestId; method: string; params?: Params }
  | { kind: 'notification'; method: string; params?: Params }
  | { kind: 'response'; id: RequestId };

export type JsonRpcFrame =
  | { jsonrpc: '2.0'; id: RequestId; result: unknown }
  | { jsonrpc: '2.0'; id: RequestId | null; error: { code: number; message: string; data?: unknown } }
  | { jsonrpc: '2.0'; method: string; params?: Record<string, unknown> };

export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** An error a handler throws to answer with this code instead of -32603. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION_KEYS = new Set(['jsonrpc', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);
const ERROR_KEYS = new Set(['jsonrpc', 'id', 'error']);

/** The message a parsed frame is, or undefined when the SDK's schema would refuse it. */
export function toJsonRpcMessage(value: unknown): JsonRpcMessage | undefined {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return undefined;
  if ('method' in value) {
    if (typeof value.method !== 'string' || !validParams(value.params)) return undefined;
    const params = value.params as Params | undefined;
    if ('id' in value) {
      return isRequestId(value.id) && onlyKeys(value, REQUEST_KEYS)
        ? { kind: 'request', id: value.id, method: value.method, params }
        : undefined;
    }
    return onlyKeys(value, NOTIFICATION_KEYS) ? { kind: 'notification', method: value.method, params } : undefined;
  }
  if (!isRequestId(value.id)) return undefined;
  if ('result' in value)
    return isPlainObject(value.result) && onlyKeys(value, RESULT_KEYS) ? { kind: 'response', id: value.id } : undefined;
  if ('error' in value)
    return validError(value.error) && onlyKeys(value, ERROR_KEYS) ? { kind: 'response', id: value.id } : undefined;
  return undefined;
}

export function isRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** Params are an object whose optional `_meta` is an object with a string or integer progressToken. */
function validParams(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isPlainObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  return isPlainObject(meta) && (meta.progressToken === undefined || isRequestId(meta.progressToken));
}

function validError(error: unknown): boolean {
  return isPlainObject(error) && Number.isSafeInteger(error.code) && typeof error.message === 'string';
}
