import {
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION as SDK_LATEST,
  SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED,
} from '@modelcontextprotocol/sdk/types.js';
import { toJsonRpcMessage } from './json-rpc';
import { LATEST_PROTOCOL_VERSION, negotiateProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from './mcp-protocol';

// The SDK is the oracle: awf's MCP edge must accept and refuse what the SDK's Server would.
describe('the MCP edge against the SDK it replaces', () => {
  it('negotiates the versions the installed SDK supports (an SDK upgrade that changes them fails here)', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_SUPPORTED);
    expect(LATEST_PROTOCOL_VERSION).toBe(SDK_LATEST);
    for (const v of SDK_SUPPORTED) expect(negotiateProtocolVersion(v)).toBe(v);
    expect(negotiateProtocolVersion('1999-01-01')).toBe(SDK_LATEST);
  });

  const frames: unknown[] = [
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x', arguments: {} } },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 3 } } },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 1.5 } } },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: 'x' } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } },
    { jsonrpc: '2.0', id: 2, result: {} },
    { jsonrpc: '2.0', id: 2, result: 5 },
    { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'x' } },
    { jsonrpc: '2.0', id: 2, error: { code: 1.5, message: 'x' } },
    { jsonrpc: '2.0', id: 2, error: { code: -1 } },
    { jsonrpc: '2.0', id: 2 },
    { jsonrpc: '1.0', id: 1, method: 'ping' },
    { jsonrpc: 2, id: 1, method: 'ping' },
    { id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 1, method: 123 },
    { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
    { jsonrpc: '2.0', method: 'x', extra: true },
    { jsonrpc: '2.0', id: 1.5, method: 'ping' },
    { jsonrpc: '2.0', id: null, method: 'ping' },
    { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: 'str' },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [1] },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: null },
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
    null,
    42,
    'str',
    {},
  ];

  it.each(frames.map((f) => [JSON.stringify(f), f]))(
    'accepts exactly what the SDK schema accepts: %s',
    (_label, frame) => {
      expect(toJsonRpcMessage(frame) !== undefined).toBe(JSONRPCMessageSchema.safeParse(frame).success);
    },
  );
});
