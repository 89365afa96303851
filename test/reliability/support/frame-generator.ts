import type { SeededRandom } from './seeded-random';

export type JsonRpcId = string | number;

/** What the server must do with one frame. */
export type Expectation =
  /** A well-formed call: exactly one answer, and `check` says whether it is the right one. */
  | { kind: 'valid'; id: JsonRpcId; check: (response: JsonRpcResponse) => string | undefined }
  /** A malformed request whose id can be read: exactly one answer, an error (of `code` when given). */
  | { kind: 'error'; id: JsonRpcId; code?: number }
  /** Answered or not, but never twice. */
  | { kind: 'may'; id: JsonRpcId }
  /** Nothing to answer (no usable id, a notification, a response of the client's own). */
  | { kind: 'none'; id?: JsonRpcId };

export interface Frame {
  /** The bytes of the frame, without its line feed. */
  line: Buffer;
  expect: Expectation;
  label: string;
  /** Made by `hostile()`: malformed or meant to hurt. */
  hostile?: true;
}

export interface JsonRpcResponse {
  jsonrpc: string;
  id?: JsonRpcId;
  result?: Record<string, unknown> & { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  error?: { code: number; message: string };
}

export const ECHO_TOOLS = ['echo', 'explode', 'reject', 'scope'];
export const JSONRPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
} as const;

/** The key under which a response id is matched: numbers and strings never collide. */
export function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

const PROTOCOL_VERSION = '2025-06-18';

/**
 * Builds the hostile frames of the protocol fuzz, all from one seeded PRNG. Every frame that
 * carries a usable id gets a fresh one, so each answer can be traced to the frame it belongs to.
 */
export class FrameGenerator {
  private counter = 0;

  constructor(
    private readonly rng: SeededRandom,
    private readonly tools: readonly string[] = ECHO_TOOLS,
  ) {}

  private nextId(prefix = 'f'): string {
    return `${prefix}-${++this.counter}`;
  }

  initialize(id: JsonRpcId = this.nextId('init')): Frame {
    return json(
      {
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      },
      'initialize',
      {
        kind: 'valid',
        id,
        check: (r) => (r.result?.protocolVersion === PROTOCOL_VERSION ? undefined : `initialize answered ${short(r)}`),
      },
    );
  }

  initialized(): Frame {
    return json({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'initialized', { kind: 'none' });
  }

  /** A well-formed call whose answer is known in advance. */
  valid(): Frame {
    const id = this.rng.chance(0.3) ? 1_000_000 + ++this.counter : this.nextId('v');
    const roll = this.rng.next();
    if (roll < 0.1)
      return json({ jsonrpc: '2.0', id, method: 'ping' }, 'valid ping', {
        kind: 'valid',
        id,
        check: (r) => (r.result && Object.keys(r.result).length === 0 ? undefined : `ping answered ${short(r)}`),
      });
    if (roll < 0.2)
      return json({ jsonrpc: '2.0', id, method: 'tools/list' }, 'valid tools/list', {
        kind: 'valid',
        id,
        check: checkToolList(this.tools),
      });
    const text = this.rng.pick([
      () => this.rng.string(this.rng.int(0, 200)),
      () => '\u00e9\u4e2d\u{1f600}\u202e\u0000',
      () => '\ud800 lone surrogate',
      () => 'x'.repeat(this.rng.int(1000, 70_000)),
    ])();
    return this.echo(id, text, 'valid echo');
  }

  echo(id: JsonRpcId, text: string, label: string): Frame {
    return json({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } }, label, {
      kind: 'valid',
      id,
      check: checkEcho(text),
    });
  }

  /** Large but within the frame cap: must be served in full. */
  bigValid(bytes: number): Frame {
    return this.echo(this.nextId('big'), 'b'.repeat(bytes), `valid echo of ${bytes} bytes`);
  }

  /** Params of `bytes` bytes, over the frame cap: refused with an error, the id read from the head or the tail. */
  oversized(bytes: number): Frame {
    const id = this.nextId('huge');
    const params = JSON.stringify({ name: 'echo', arguments: { text: 'h'.repeat(bytes) } });
    const line = this.rng.chance(0.5)
      ? `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":${params}}`
      : `{"method":"tools/call","params":${params},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
    return {
      line: Buffer.from(line),
      label: `oversized params of ${bytes} bytes`,
      expect: { kind: 'error', id, code: JSONRPC.invalidRequest },
    };
  }

  /** One malformed or hostile frame, of a kind chosen by the PRNG. */
  hostile(): Frame {
    return { ...this.rng.pick(this.kinds)(), hostile: true };
  }

  private readonly kinds: Array<() => Frame> = [
    // Not JSON at all.
    () =>
      raw(this.rng.string(this.rng.int(1, 300), 'abc{}[]":,\\ 0123456789truefalsenul'), 'printable garbage', {
        kind: 'none',
      }),
    () =>
      raw(Buffer.from(this.rng.bytes(this.rng.int(1, 2000)).map((b) => (b === 0x0a ? 0x20 : b))), 'binary garbage', {
        kind: 'none',
      }),
    () => {
      const id = this.nextId('cut');
      const whole = JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: this.rng.string(50) } },
      });
      return raw(whole.slice(0, this.rng.int(1, whole.length - 1)), 'truncated request', { kind: 'may', id });
    },
    () => {
      const id = this.nextId('tail');
      return raw(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })} trailing`, 'request followed by garbage', {
        kind: 'may',
        id,
      });
    },
    () =>
      raw(
        this.rng.pick([
          '{',
          '}',
          '[',
          '{"jsonrpc":"2.0",}',
          "{'jsonrpc':'2.0'}",
          '{"a":NaN}',
          '{"a":Infinity}',
          '/* c */ {}',
          '\ufeff{"jsonrpc":"2.0","method":"ping"}',
          'null',
          'true',
          '42',
          '"str"',
          '[]',
          '{}',
          '   ',
          '\r',
          '',
        ]),
        'bad JSON',
        { kind: 'none' },
      ),
    () =>
      raw('[' + JSON.stringify({ jsonrpc: '2.0', id: this.nextId('batch'), method: 'ping' }) + ']', 'batch array', {
        kind: 'none',
      }),
    // Well-formed JSON, wrong envelope; the id is readable, so the client must not be left waiting.
    () => {
      const id = this.nextId('env');
      const variants: Array<Record<string, unknown>> = [
        { jsonrpc: '1.0', id, method: 'ping' },
        { jsonrpc: 2, id, method: 'ping' },
        { id, method: 'ping' },
        { jsonrpc: '2.0', id, method: this.rng.pick([123, null, [], {}, true]) },
        { jsonrpc: '2.0', id },
        { jsonrpc: '2.0', id, method: 'tools/list', params: this.rng.pick(['str', 5, [], true]) },
        { jsonrpc: '2.0', id, method: 'tools/call', params: this.rng.pick(['str', 5, [1, 2], false]) },
      ];
      return json(this.rng.pick(variants), 'wrong envelope', { kind: 'error', id });
    },
    // Ids that cannot be answered: JSON-RPC ids are strings or integers.
    () =>
      json({ jsonrpc: '2.0', id: this.rng.pick([1.5, true, {}, [], null, -0.25]), method: 'ping' }, 'unusable id', {
        kind: 'none',
      }),
    // Huge and strange ids, on a valid ping.
    () => {
      const n = ++this.counter;
      const id = this.rng.pick<() => JsonRpcId>([
        () => Number.MAX_SAFE_INTEGER - n,
        () => -(Number.MAX_SAFE_INTEGER - n),
        () => `L-${n}-${'x'.repeat(this.rng.int(1000, 65_536))}`,
        () => `u-${n}-\u{1f4a5}\u0000\u202e"\\\n`,
      ])();
      return json({ jsonrpc: '2.0', id, method: 'ping' }, 'huge or strange id', {
        kind: 'valid',
        id,
        check: (r) => (r.result ? undefined : `ping answered ${short(r)}`),
      });
    },
    // Integers beyond 2^53 are refused with -32600 and a null id (they cannot be echoed exactly):
    // test/reliability/hostile-client.e2e.spec.ts checks that answer; this fuzz matches answers by id.
    // Unknown methods, including ones that look like object internals.
    () => {
      const id = this.nextId('m');
      const method = this.rng.pick([
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'resources/list',
        'prompts/get',
        'tools/delete',
        '',
        'x'.repeat(5000),
        this.rng.string(20),
      ]);
      return json({ jsonrpc: '2.0', id, method, params: {} }, `unknown method`, {
        kind: 'error',
        id,
        code: JSONRPC.methodNotFound,
      });
    },
    () =>
      json(
        { jsonrpc: '2.0', method: `notifications/${this.rng.string(10)}`, params: { a: 1 } },
        'unknown notification',
        { kind: 'none' },
      ),
    // Arguments that are not objects.
    () => {
      const id = this.nextId('arg');
      const args = this.rng.pick<unknown>(['text', 42, [1, 2, 3], null, true, [{ text: 'x' }]]);
      return json(
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: args } },
        'non-object arguments',
        { kind: 'error', id, code: JSONRPC.invalidParams },
      );
    },
    () => {
      const id = this.nextId('name');
      const name = this.rng.pick<unknown>([123, null, { a: 1 }, ['echo']]);
      return json(
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } },
        'non-string tool name',
        { kind: 'error', id, code: JSONRPC.invalidParams },
      );
    },
    () => {
      const id = this.nextId('unknown-tool');
      return json(
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: this.rng.pick(['nope', '../echo', 'echo ', 'ECHO', '']), arguments: {} },
        },
        'unknown tool',
        { kind: 'error', id, code: JSONRPC.invalidParams },
      );
    },
    // Hostile argument values: prototype keys, deep nesting, wrong field types.
    // Any answer will do, as long as there is one.
    () => {
      const id = this.nextId('proto');
      return raw(
        `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"text":"polluted"},"constructor":{"prototype":{"x":1}}}}}`,
        'prototype keys',
        { kind: 'may', id },
      );
    },
    () => {
      const id = this.nextId('deep');
      const depth = this.rng.int(1000, 50_000);
      return raw(
        `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"echo","arguments":{"text":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
        `nesting ${depth} deep`,
        { kind: 'may', id },
      );
    },
    () => {
      const id = this.nextId('tool-err');
      return json(
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: this.rng.pick(['explode', 'reject']), arguments: {} },
        },
        'failing tool',
        {
          kind: 'valid',
          id,
          check: (r) => (r.result?.isError === true ? undefined : `failing tool answered ${short(r)}`),
        },
      );
    },
    // Things a client must never be answered for.
    () => json({ jsonrpc: '2.0', id: this.nextId('resp'), result: {} }, 'unsolicited result', { kind: 'none' }),
    () =>
      json({ jsonrpc: '2.0', id: this.nextId('resp'), error: { code: -1, message: 'x' } }, 'unsolicited error', {
        kind: 'none',
      }),
    () =>
      json(
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: this.rng.pick<unknown>([{ requestId: 'never-sent' }, { requestId: null }, 'x', {}]),
        },
        'stray cancel',
        { kind: 'none' },
      ),
    () => {
      const id = this.nextId('reinit');
      return json(
        {
          jsonrpc: '2.0',
          id,
          method: 'initialize',
          params: this.rng.pick<unknown>([
            {},
            { protocolVersion: 7 },
            { protocolVersion: PROTOCOL_VERSION, capabilities: 'x', clientInfo: {} },
          ]),
        },
        'bad initialize',
        { kind: 'error', id },
      );
    },
    // Odd but valid framing.
    () => {
      const id = this.nextId('crlf');
      const frame = json({ jsonrpc: '2.0', id, method: 'ping' }, 'CRLF ping', {
        kind: 'valid',
        id,
        check: (r) => (r.result ? undefined : short(r)),
      });
      return { ...frame, line: Buffer.concat([frame.line, Buffer.from('\r')]) };
    },
    () => {
      const id = this.nextId('dup');
      return raw(`{"jsonrpc":"2.0","id":"ignored-${id}","method":"ping","id":"${id}"}`, 'duplicate id key', {
        kind: 'valid',
        id,
        check: (r) => (r.result ? undefined : short(r)),
      });
    },
  ];
}

function json(value: unknown, label: string, expect: Expectation): Frame {
  return { line: Buffer.from(JSON.stringify(value)), label, expect };
}

function raw(text: string | Buffer, label: string, expect: Expectation): Frame {
  return { line: typeof text === 'string' ? Buffer.from(text) : text, label, expect };
}

function checkEcho(text: string) {
  return (r: JsonRpcResponse): string | undefined => {
    const content = r.result?.content;
    if (
      r.result?.isError ||
      !content ||
      content.length !== 1 ||
      content[0].type !== 'text' ||
      content[0].text !== text
    ) {
      return `echo of ${text.length} chars answered ${short(r)}`;
    }
    return undefined;
  };
}

function checkToolList(tools: readonly string[]) {
  return (r: JsonRpcResponse): string | undefined => {
    const names = ((r.result?.tools ?? []) as Array<{ name: string }>).map((t) => t.name);
    return JSON.stringify(names) === JSON.stringify(tools) ? undefined : `tools/list answered ${short(r)}`;
  };
}

export function short(r: unknown): string {
  const s = JSON.stringify(r);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}
