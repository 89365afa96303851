/** The scripted model speaks each wire format well enough for the real CLIs: checked here in their shapes. */
import { startScriptedModel, type ScriptedModel } from './scripted-model.server';

describe('scripted model server', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(() => model.close());
  const post = async (path: string, body: object) => {
    const res = await fetch(`${model.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const events = (sse: string) =>
    sse
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
      .map((l) => JSON.parse(l.slice(6)));

  it('Anthropic Messages: streams a call to the proxy tool, preferring it over a native tool of the same name', async () => {
    model.reset([{ tool: 'Read', args: { file_path: 'a.txt' } }]);
    const res = await post('/v1/messages?beta=true', {
      model: 'c',
      stream: true,
      tools: [{ name: 'Read' }, { name: 'mcp__awf-proxy__Read' }],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.type).toBe('text/event-stream');
    const start = events(res.text).find((e) => e.type === 'content_block_start');
    expect(start.content_block).toMatchObject({ type: 'tool_use', name: 'mcp__awf-proxy__Read' });
    expect(events(res.text).find((e) => e.type === 'content_block_delta').delta.partial_json).toBe(
      '{"file_path":"a.txt"}',
    );
    expect(model.requests[0]).toMatchObject({
      api: 'anthropic',
      tools: ['Read', 'mcp__awf-proxy__Read'],
      toolResults: [],
    });
  });

  it('Anthropic Messages: answers text quoting the last tool result once the script is done', async () => {
    model.reset([{ tool: 'Read', args: {} }], 'DONE');
    const messages = [
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'file body' }] }],
      },
    ];
    const res = await post('/v1/messages', { tools: [{ name: 'mcp__awf-proxy__Read' }], messages });
    expect(JSON.parse(res.text)).toMatchObject({
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'DONE; last tool result: file body' }],
    });
  });

  it("OpenAI Responses: calls a function inside Codex's MCP namespace and names the namespace back", async () => {
    model.reset([{ tool: 'Read', args: { file_path: 'a' } }]);
    const res = await post('/v1/responses', {
      stream: true,
      tools: [
        { type: 'function', name: 'exec_command' },
        { type: 'namespace', name: 'mcp__awf_proxy', tools: [{ type: 'function', name: 'Read' }] },
      ],
      input: [],
    });
    const done = events(res.text).find((e) => e.type === 'response.output_item.done');
    expect(done.item).toMatchObject({
      type: 'function_call',
      namespace: 'mcp__awf_proxy',
      name: 'Read',
      arguments: '{"file_path":"a"}',
    });
    expect(events(res.text).at(-1).type).toBe('response.completed');
    expect(model.requests[0].tools).toEqual(['exec_command', 'mcp__awf_proxy.Read']);
  });

  it('Chat Completions: streams several calls of one turn, then text; a request without the tools gets plain text', async () => {
    model.reset(
      [
        [
          { tool: 'Read', args: {} },
          { tool: 'Edit', args: {} },
        ],
      ],
      'DONE',
    );
    const tools = [
      { type: 'function', function: { name: 'awf-proxy_Read' } },
      { type: 'function', function: { name: 'awf-proxy_Edit' } },
    ];
    const first = events((await post('/v1/chat/completions', { stream: true, tools, messages: [] })).text);
    expect(first[0].choices[0].delta.tool_calls.map((c: { function: { name: string } }) => c.function.name)).toEqual([
      'awf-proxy_Read',
      'awf-proxy_Edit',
    ]);
    expect(first.at(-1).choices[0].finish_reason).toBe('tool_calls');
    const title = JSON.parse(
      (await post('/v1/chat/completions', { messages: [{ role: 'user', content: 'title?' }] })).text,
    );
    expect(title.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'ok' } });
    const after = JSON.parse(
      (
        await post('/v1/chat/completions', {
          tools,
          messages: [
            { role: 'tool', content: 'one' },
            { role: 'tool', content: 'two' },
          ],
        })
      ).text,
    );
    expect(after.choices[0].message.content).toBe('DONE; last tool result: two');
  });

  it('Gemini streamGenerateContent: answers a functionCall as SSE and reads functionResponse parts back', async () => {
    model.reset([{ tool: 'Read', args: { file_path: 'a' } }], 'DONE');
    const tools = [{ functionDeclarations: [{ name: 'read_file' }, { name: 'mcp_awf-proxy_Read' }] }];
    const call = events(
      (await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { tools, contents: [] })).text,
    )[0];
    expect(call.candidates[0].content.parts[0].functionCall).toMatchObject({
      name: 'mcp_awf-proxy_Read',
      args: { file_path: 'a' },
    });
    const contents = [
      { role: 'user', parts: [{ functionResponse: { name: 'mcp_awf-proxy_Read', response: { output: 'body' } } }] },
    ];
    const done = events((await post('/v1beta/models/g:streamGenerateContent?alt=sse', { tools, contents })).text)[0];
    expect(done.candidates[0].content.parts[0].text).toContain('body');
  });

  it('answers 404 to what it does not speak (Claude Code probes HEAD / first)', async () => {
    expect((await fetch(`${model.url}/`, { method: 'HEAD' })).status).toBe(404);
  });
});
