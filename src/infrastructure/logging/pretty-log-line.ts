const LABEL: Record<number, string> = {
  10: 'trace: ',
  20: 'debug: ',
  30: '',
  40: 'warning: ',
  50: 'error: ',
  60: 'fatal: ',
};
/** pino's own keys, and those every awf line has: not worth a human's attention. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'component']);
const MAX_VALUE_CHARS = 200;

/**
 * pino's JSON lines as a person reads them next to `awf run`'s progress, in the progress's own
 * style (`warning: …`): the message, then the fields the message does not already show, as
 * `key=value`. A warning or error already printed by this process is not printed again (the
 * same condition met twice, by a retry or a second container, is one thing to a reader).
 * On a terminal each line first clears the line, so a progress spinner never runs into it.
 */
export class PrettyLogLines {
  private readonly seen = new Set<string>();

  constructor(private readonly clearLine = false) {}

  /** The human line for one JSON line (with its newline), or '' when there is nothing to print. */
  format(json: string): string {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(json) as Record<string, unknown>;
    } catch {
      return json; // not pino's: leave it as it is
    }
    const level = typeof record.level === 'number' ? record.level : 30;
    const msg = typeof record.msg === 'string' ? record.msg : '';
    const fields = Object.entries(record)
      .filter(([k, v]) => !HIDDEN.has(k) && v !== undefined && !shownIn(msg, v))
      .map(([k, v]) => `${k}=${text(v)}`);
    const component = typeof record.component === 'string' ? `[${record.component}] ` : '';
    const line = `${LABEL[level] ?? ''}${component}${msg}${fields.length ? `  ${fields.join(' ')}` : ''}`;
    if (level >= 40) {
      if (this.seen.has(line)) return '';
      this.seen.add(line);
    }
    return `${this.clearLine ? '\r\x1b[2K' : ''}${line}\n`;
  }
}

/** A field whose value the message already says (an endpoint, an error text) is left out. */
function shownIn(msg: string, value: unknown): boolean {
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  return raw.length >= 3 && msg.includes(raw);
}

function text(value: unknown): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  const one = s.includes(' ') && typeof value === 'string' ? JSON.stringify(s) : s;
  return one.length > MAX_VALUE_CHARS ? `${one.slice(0, MAX_VALUE_CHARS)}…` : one;
}
