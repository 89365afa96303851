import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { SessionEventStore } from './mcp-event-store';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

describe('SessionEventStore (Last-Event-ID resumption)', () => {
  it("replays what came after an event on that event's stream only", async () => {
    const store = new SessionEventStore();
    const a1 = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(2));
    await store.storeEvent('a', note(3));
    const sent: unknown[] = [];
    const stream = await store.replayEventsAfter(a1, { send: async (_id, m) => void sent.push(m) });
    expect([stream, sent]).toEqual(['a', [note(3)]]);
  });

  it('keeps only the newest events of a session', async () => {
    const store = new SessionEventStore(2);
    const first = await store.storeEvent('s', note(1));
    for (const n of [2, 3, 4]) await store.storeEvent('s', note(n));
    const sent: unknown[] = [];
    await store.replayEventsAfter(first, { send: async (_id, m) => void sent.push(m) });
    expect(sent).toEqual([note(3), note(4)]);
  });
});
