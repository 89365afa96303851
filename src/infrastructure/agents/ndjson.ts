/** A JSON object per line; anything else on stdout (banners, warnings) is skipped. */
export type JsonEvent = Record<string, unknown>;

export function parseNdjson(text: string): JsonEvent[] {
  const events: JsonEvent[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(trimmed);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) events.push(value as JsonEvent);
    } catch {
      // A partial line cut by a crash: the exit code tells that story, not the parser.
    }
  }
  return events;
}

export function asRecord(value: unknown): JsonEvent {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonEvent) : {};
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The first string `key` of an event (of `type`, if given): where each CLI reports its session. */
export function sessionOf(events: JsonEvent[], type: string | undefined, key: string): string | undefined {
  for (const e of events) {
    if (type !== undefined && e.type !== type) continue;
    const direct = e[key] ?? asRecord(e.part)[key];
    if (typeof direct === 'string' && direct) return direct;
  }
  return undefined;
}
