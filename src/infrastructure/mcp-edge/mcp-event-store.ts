import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** How many messages one session keeps for replay; older ones are dropped (a resume past them gets nothing). */
export const MAX_EVENTS_PER_SESSION = 1000;

interface StoredEvent {
  id: string;
  stream: string;
  message: JSONRPCMessage;
}

/**
 * One session's SSE messages, kept so a client that lost a stream resumes it with `Last-Event-ID`
 * (the SDK transport's `eventStore`): the last MAX_EVENTS_PER_SESSION of them, in memory, gone
 * with the session. Ids are `<stream>_<sequence>`, so an id names the stream it resumes.
 */
export class SessionEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private seq = 0;

  constructor(private readonly max = MAX_EVENTS_PER_SESSION) {}

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}_${++this.seq}`;
    this.events.push({ id, stream, message });
    if (this.events.length > this.max) this.events.shift();
    return id;
  }

  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    const cut = id.lastIndexOf('_');
    return cut > 0 ? id.slice(0, cut) : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (id: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const stream = (await this.getStreamIdForEventId(lastEventId)) ?? '';
    const after = Number(lastEventId.slice(stream.length + 1));
    for (const e of this.events)
      if (e.stream === stream && Number(e.id.slice(stream.length + 1)) > after) await send(e.id, e.message);
    return stream;
  }
}
