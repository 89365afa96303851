/**
 * The four model APIs, each reduced to what the scripted model needs: which tools a request
 * offers, which tool results it carries back, and how to answer with tool calls or text
 * (streamed as SSE when the request asks for it, as each real API does).
 */
import type { ServerResponse } from 'node:http';

export interface OfferedTool {
  name: string;
  /** Codex groups MCP tools in a namespace tool (`mcp__awf_proxy`) and expects it back on the call. */
  namespace?: string;
}

export interface ReplyCall {
  id: string;
  name: string;
  namespace?: string;
  args: Record<string, unknown>;
}

export type Reply = { kind: 'text'; text: string } | { kind: 'calls'; calls: ReplyCall[] };

export interface WireApi {
  name: 'anthropic' | 'responses' | 'chat' | 'gemini';
  matches(path: string): boolean;
  offeredTools(body: Record<string, unknown>): OfferedTool[];
  toolResults(body: Record<string, unknown>): string[];
  send(res: ServerResponse, body: Record<string, unknown>, path: string, reply: Reply): void;
}

type Json = Record<string, unknown>;
const USAGE = { input: 11, output: 7 };

const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const text = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.map((p) => text((p as Json)?.text ?? p)).join('\n')
      : JSON.stringify(value ?? '');

function sse(res: ServerResponse, events: Array<[string | undefined, unknown]>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const [event, data] of events) {
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

function json(res: ServerResponse, data: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(data));
}

export const anthropicApi: WireApi = {
  name: 'anthropic',
  matches: (path) => path.startsWith('/v1/messages') && !path.includes('count_tokens'),
  offeredTools: (body) => list(body.tools).map((t) => ({ name: String(t.name) })),
  toolResults: (body) =>
    list(body.messages).flatMap((m) =>
      list(m.content)
        .filter((b) => b.type === 'tool_result')
        .map((b) => text(b.content)),
    ),
  send(res, body, _path, reply) {
    const blocks: Json[] =
      reply.kind === 'text'
        ? [{ type: 'text', text: reply.text }]
        : reply.calls.map((c) => ({ type: 'tool_use', id: `toolu_${c.id}`, name: c.name, input: c.args }));
    const stop = reply.kind === 'text' ? 'end_turn' : 'tool_use';
    const message = { id: 'msg_scripted', type: 'message', role: 'assistant', model: body.model, stop_sequence: null };
    const usage = { input_tokens: USAGE.input, output_tokens: USAGE.output };
    if (!body.stream) return json(res, { ...message, content: blocks, stop_reason: stop, usage });
    const events: Array<[string, unknown]> = [
      ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage } }],
    ];
    blocks.forEach((block, index) => {
      if (block.type === 'text') {
        events.push([
          'content_block_start',
          { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        ]);
        events.push([
          'content_block_delta',
          { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } },
        ]);
      } else {
        events.push([
          'content_block_start',
          { type: 'content_block_start', index, content_block: { ...block, input: {} } },
        ]);
        events.push([
          'content_block_delta',
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
          },
        ]);
      }
      events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    });
    events.push([
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: USAGE.output },
      },
    ]);
    events.push(['message_stop', { type: 'message_stop' }]);
    sse(res, events);
  },
};

export const responsesApi: WireApi = {
  name: 'responses',
  matches: (path) => path.startsWith('/v1/responses'),
  offeredTools: (body) =>
    list(body.tools).flatMap((t) =>
      t.type === 'namespace'
        ? list(t.tools ?? t.functions).map((f) => ({ name: String(f.name), namespace: String(t.name) }))
        : [{ name: String(t.name ?? t.type) }],
    ),
  toolResults: (body) =>
    list(body.input)
      .filter((i) => i.type === 'function_call_output')
      .map((i) => text(i.output)),
  send(res, body, _path, reply) {
    const output: Json[] =
      reply.kind === 'text'
        ? [
            {
              type: 'message',
              id: 'msg_scripted',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: reply.text, annotations: [] }],
            },
          ]
        : reply.calls.map((c) => ({
            type: 'function_call',
            id: `fc_${c.id}`,
            call_id: c.id,
            name: c.name,
            ...(c.namespace ? { namespace: c.namespace } : {}),
            arguments: JSON.stringify(c.args),
            status: 'completed',
          }));
    const usage = {
      input_tokens: USAGE.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: USAGE.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: USAGE.input + USAGE.output,
    };
    const response = { id: 'resp_scripted', object: 'response', model: body.model, status: 'completed', output, usage };
    if (!body.stream) return json(res, response);
    sse(res, [
      ['response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } }],
      ...output.map((item, i): [string, unknown] => [
        'response.output_item.done',
        { type: 'response.output_item.done', output_index: i, item },
      ]),
      ['response.completed', { type: 'response.completed', response }],
    ]);
  },
};

export const chatApi: WireApi = {
  name: 'chat',
  matches: (path) => path.startsWith('/v1/chat/completions') || path.startsWith('/chat/completions'),
  offeredTools: (body) =>
    list(body.tools).map((t) => ({ name: String((t.function as Json | undefined)?.name ?? t.name) })),
  toolResults: (body) =>
    list(body.messages)
      .filter((m) => m.role === 'tool')
      .map((m) => text(m.content)),
  send(res, body, _path, reply) {
    const toolCalls =
      reply.kind === 'calls'
        ? reply.calls.map((c, index) => ({
            index,
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          }))
        : undefined;
    const finish = reply.kind === 'text' ? 'stop' : 'tool_calls';
    const content = reply.kind === 'text' ? reply.text : null;
    const usage = {
      prompt_tokens: USAGE.input,
      completion_tokens: USAGE.output,
      total_tokens: USAGE.input + USAGE.output,
    };
    const base = { id: 'chatcmpl-scripted', created: Math.floor(Date.now() / 1000), model: body.model };
    if (!body.stream) {
      const message = {
        role: 'assistant',
        content,
        ...(toolCalls ? { tool_calls: toolCalls.map(({ index: _i, ...c }) => c) } : {}),
      };
      return json(res, {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      });
    }
    const chunk = (delta: Json, finish_reason: string | null, extra: Json = {}) =>
      [
        undefined,
        { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }], ...extra },
      ] as [undefined, unknown];
    sse(res, [
      chunk(
        {
          role: 'assistant',
          ...(content !== null ? { content } : {}),
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        null,
      ),
      chunk({}, finish, { usage }),
      [undefined, '[DONE]'],
    ]);
  },
};

export const geminiApi: WireApi = {
  name: 'gemini',
  matches: (path) => /\/models\/[^/]+:(streamGenerateContent|generateContent)/.test(path),
  offeredTools: (body) =>
    list(body.tools).flatMap((t) => list(t.functionDeclarations).map((f) => ({ name: String(f.name) }))),
  toolResults: (body) =>
    list(body.contents).flatMap((c) =>
      list(c.parts)
        .filter((p) => p.functionResponse)
        .map((p) => text((p.functionResponse as Json).response)),
    ),
  send(res, _body, path, reply) {
    const parts =
      reply.kind === 'text'
        ? [{ text: reply.text }]
        : reply.calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } }));
    const chunk = {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: USAGE.input,
        candidatesTokenCount: USAGE.output,
        totalTokenCount: USAGE.input + USAGE.output,
      },
      modelVersion: 'scripted',
    };
    if (path.includes(':streamGenerateContent')) return sse(res, [[undefined, chunk]]);
    json(res, chunk);
  },
};
