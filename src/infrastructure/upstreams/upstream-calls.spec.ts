import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { getEventListeners } from 'node:events';
import { UpstreamCallError, UpstreamCalls } from './upstream-calls';

/** The wire as a server sees it: what was sent, and a way to answer on it. */
function wire(): { transport: Transport; sent: Array<Record<string, any>>; calls: UpstreamCalls } {
  const sent: Array<Record<string, any>> = [];
  const transport: Transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message: JSONRPCMessage) => void sent.push(message as Record<string, any>),
  };
  return { transport, sent, calls: new UpstreamCalls(transport, 200) };
}

const answered = (id: unknown, result: unknown): JSONRPCMessage => ({ jsonrpc: '2.0', id, result }) as JSONRPCMessage;

describe('UpstreamCalls: tools/call on the Client’s transport', () => {
  it('sends tools/call with our own string id and the trace context, and resolves with the result as sent', async () => {
    const { sent, calls } = wire();
    const call = calls.call('echo', { message: 'hi' }, { signal: new AbortController().signal, traceparent: 'tp' });
    expect(sent[0]).toMatchObject({
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' }, _meta: { traceparent: 'tp' } },
    });
    expect(sent[0].id).toMatch(/^awf-call-/);
    const result = { content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 }, extra: 'kept' };
    expect(calls.take(answered(sent[0].id, result))).toBe(true);
    await expect(call).resolves.toBe(result);
  });

  it('leaves the Client its own messages: numeric ids, requests, other notifications', () => {
    const { calls } = wire();
    expect(calls.take(answered(0, { tools: [] }))).toBe(false);
    expect(calls.take({ jsonrpc: '2.0', id: 'x', method: 'ping' } as JSONRPCMessage)).toBe(false);
    expect(calls.take({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' } as JSONRPCMessage)).toBe(false);
  });

  it('passes progress on for its own token, every notification including the last one before the result', async () => {
    const { sent, calls } = wire();
    const seen: unknown[] = [];
    const call = calls.call('slow', {}, { signal: new AbortController().signal, onProgress: (p) => seen.push(p) });
    const token = sent[0].params._meta.progressToken;
    for (const progress of [1, 2]) {
      calls.take({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress, total: 2 },
      });
    }
    calls.take(answered(sent[0].id, { content: [] }));
    await call;
    expect(seen).toEqual([
      { progress: 1, total: 2, message: undefined },
      { progress: 2, total: 2, message: undefined },
    ]);
  });

  it('rejects an error answer with its code and message, and a result that is not a CallToolResult', async () => {
    const { sent, calls } = wire();
    const signal = new AbortController().signal;
    const refused = calls.call('a', {}, { signal });
    const malformed = calls.call('b', {}, { signal });
    calls.take({ jsonrpc: '2.0', id: sent[0].id, error: { code: -32602, message: 'Unknown tool' } } as JSONRPCMessage);
    calls.take(answered(sent[1].id, { content: 'text' }));
    await expect(refused).rejects.toMatchObject({ kind: 'refused', message: 'MCP error -32602: Unknown tool' });
    await expect(malformed).rejects.toMatchObject({ kind: 'malformed' });
  });

  it('times out at the deadline, tells the server with notifications/cancelled, and ignores a late answer', async () => {
    const { sent, calls } = wire();
    const started = performance.now();
    await expect(calls.call('slow', {}, { signal: new AbortController().signal })).rejects.toMatchObject({
      kind: 'timeout',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(sent[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: sent[0].id } });
    expect(calls.take(answered(sent[0].id, { content: [] }))).toBe(true);
  });

  it('times out each of several calls at its own deadline with one timer', async () => {
    const { sent, calls } = wire();
    const signal = new AbortController().signal;
    const timed = (name: string): Promise<[string, number]> => {
      const started = performance.now();
      return calls.call(name, {}, { signal }).then(
        () => ['answered', 0],
        (e: UpstreamCallError) => [e.kind, performance.now() - started],
      );
    };
    const first = timed('a');
    await new Promise((r) => setTimeout(r, 100));
    const waits = await Promise.all([first, timed('b')]);
    for (const [kind, waited] of waits) {
      expect(kind).toBe('timeout');
      expect(waited).toBeGreaterThanOrEqual(190); // not cut short by the other call's deadline
    }
    expect(sent.filter((m) => m.method === 'notifications/cancelled')).toHaveLength(2);
  });

  it('a cancelled call is rejected at once and the server is told', async () => {
    const { sent, calls } = wire();
    const controller = new AbortController();
    const call = calls.call('slow', {}, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ kind: 'cancelled' });
    expect(sent[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: sent[0].id } });
  });

  it('fails every call in flight when the connection closes', async () => {
    const { calls } = wire();
    const signal = new AbortController().signal;
    const waiting = [calls.call('a', {}, { signal }), calls.call('b', {}, { signal })];
    calls.closed();
    for (const call of waiting) await expect(call).rejects.toMatchObject({ kind: 'closed' });
  });

  it('leaves no listener on the signal once the answer is out, and a cancel after the result tells the server nothing', async () => {
    const { sent, calls } = wire();
    const controller = new AbortController();
    const call = calls.call('echo', {}, { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    calls.take(answered(sent[0].id, { content: [] }));
    await call;
    controller.abort(); // the client cancels while the answer is on its way
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(sent.filter((m) => m.method === 'notifications/cancelled')).toEqual([]);
  });
});
