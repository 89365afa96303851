import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { errorResult, textResult } from '../../domain/model/tool-result';
import type { AgentRunRequest } from '../../domain/ports/agent-provider.port';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import type { ToolScope } from '../../domain/ports/tool-scope';
import type { ToolRouterFactory } from '../../domain/ports/tool-router-factory.port';
import { startScriptedModel, type ScriptedModel } from '../../../test/agents/scripted-model.server';
import { dispatch, OpenAiCompatibleAgentProvider } from './openai-compatible.provider';

/** In-memory tools: what the ToolRouterService hands in-process agents. */
function tools(calls: string[]): ToolRouter {
  const schema = { type: 'object' as const, properties: { text: { type: 'string' } } };
  return {
    list: () => [
      { name: 'Read', description: 'Reads', inputSchema: schema, source: 'builtin' },
      { name: 'shout', description: 'Upper-cases', inputSchema: schema, source: 'module:x' },
    ],
    call: async (name, args) => {
      calls.push(`${name}:${JSON.stringify(args)}`);
      if (name === 'shout') return textResult(String((args as { text: string }).text).toUpperCase());
      if (name === 'Read') return errorResult('no such file');
      throw new Error(`Unknown tool: ${name}`);
    },
    close: async () => undefined,
  };
}

const noFactory: ToolRouterFactory = { open: () => Promise.reject(new Error('not used')) };

describe('OpenAiCompatibleAgentProvider', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(() => model.close());
  const provider = new OpenAiCompatibleAgentProvider(noFactory);
  const request = (extra: Partial<AgentRunRequest> = {}, dispatcher?: ToolRouter): AgentRunRequest => ({
    workflow: 'wf',
    step: 's',
    runId: 'r',
    prompt: 'Do it.',
    cwd: '/',
    signal: new AbortController().signal,
    env: {},
    options: { base_url: `${model.url}/v1/`, model: 'm1', api_key: 'k', system_prompt: 'Be brief.', temperature: 0.2 },
    proxy: dispatcher && {
      serverName: 'awf-proxy',
      command: '',
      args: [],
      env: {},
      configPath: '',
      interceptBuiltins: true,
      dispatcher,
    },
    ...extra,
  });

  it('offers the tools, runs several calls of one turn in order, and returns the final text with summed usage', async () => {
    const calls: string[] = [];
    model.reset(
      [
        [
          { tool: 'shout', args: { text: 'a' } },
          { tool: 'Read', args: { file_path: 'x' } },
        ],
        { tool: 'shout', args: { text: 'b' } },
      ],
      'FINAL',
    );
    const result = await provider.run(request({}, tools(calls)));
    expect(calls).toEqual(['shout:{"text":"a"}', 'Read:{"file_path":"x"}', 'shout:{"text":"b"}']);
    expect(result).toMatchObject({ output: 'FINAL; last tool result: B', tokens: { input: 33, output: 21 } });
    const [first, , last] = model.requests;
    expect(first.tools).toEqual(['Read', 'shout']);
    expect(first.body).toMatchObject({
      model: 'm1',
      temperature: 0.2,
      tool_choice: 'auto',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Do it.' },
      ],
    });
    expect(last.toolResults).toEqual(['A', 'error: no such file', 'B']);
  });

  it("opens the step's tools in-process from its proxy config when none are handed in, and closes them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'awf-openai-spec-'));
    const configPath = join(dir, 'proxy.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        version: 1,
        intercept_builtins: true,
        plugin_tools: [],
        root_dir: dir,
        step: 'edit',
        run_id: 'r9',
      }),
    );
    const scopes: ToolScope[] = [];
    let closed = 0;
    const factory: ToolRouterFactory = {
      open: async (scope) => {
        scopes.push(scope);
        return {
          ...tools([]),
          close: async () => {
            closed++;
          },
        };
      },
    };
    model.reset([{ tool: 'shout', args: { text: 'x' } }], 'DONE');
    try {
      const proxy = { serverName: 'awf-proxy', command: '', args: [], env: {}, configPath, interceptBuiltins: true };
      expect((await new OpenAiCompatibleAgentProvider(factory).run(request({ proxy }))).output).toBe(
        'DONE; last tool result: X',
      );
      expect(scopes).toEqual([expect.objectContaining({ interceptBuiltins: true, step: 'edit', runId: 'r9' })]);
      expect(closed).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends no tools without a proxy', async () => {
    model.reset([{ tool: 'shout', args: { text: 'a' } }], 'PLAIN');
    expect((await provider.run(request())).output).toBe('ok');
    expect(model.requests[0].body.tools).toBeUndefined();
  });

  it('stops a model that never answers with USER.MCP_PROXY.INFINITE_LOOP_GUARD after max_tool_iterations', async () => {
    model.reset(Array.from({ length: 10 }, () => ({ tool: 'shout', args: { text: 'again' } })));
    const options = { ...request().options, max_tool_iterations: 3 };
    await expect(provider.run(request({ options }, tools([])))).rejects.toMatchObject({
      code: 'USER.MCP_PROXY.INFINITE_LOOP_GUARD',
      message: expect.stringContaining('3'),
    });
    expect(model.requests).toHaveLength(3);
  });

  it('hands the model an error it can act on for bad arguments and unknown tools', async () => {
    const d = tools([]);
    const signal = new AbortController().signal;
    expect(
      await dispatch(d, { id: '1', type: 'function', function: { name: 'shout', arguments: '{not json' } }, signal),
    ).toBe('error: invalid tool arguments for shout');
    expect(await dispatch(d, { id: '2', type: 'function', function: { name: 'nope', arguments: '{}' } }, signal)).toBe(
      'error calling tool nope: Unknown tool: nope',
    );
  });

  it('maps HTTP failures and missing settings to codes that say which', async () => {
    const server = createServer((_req, res) => res.writeHead(401).end('{"error":"bad key"}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await expect(provider.run(request({ options: { base_url: url, model: 'm' } }))).rejects.toMatchObject({
        code: 'EXECUTION.AGENT.API_FAILED',
        message: expect.stringContaining('authentication failed (HTTP 401)'),
      });
    } finally {
      server.close();
    }
    await expect(provider.run(request({ options: { model: 'm' } }))).rejects.toMatchObject({
      code: 'USER.AGENT.INVALID_OPTIONS',
      message: expect.stringContaining('base_url'),
    });
    const env = { OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_MODEL: 'from-env' };
    model.reset([]);
    expect((await provider.run(request({ options: {}, env }))).output).toBe('ok');
    expect(model.requests[0].body.model).toBe('from-env');
  });

  it('takes base_url, api_key and model from the step, else .awf/config.yaml, else OPENAI_* in the environment', async () => {
    const seen: { url: string; auth: string }[] = [];
    const endpoint = (name: string) => {
      const server = createServer((req, res) => {
        seen.push({ url: name, auth: String(req.headers.authorization) });
        req
          .resume()
          .on('end', () =>
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(
                JSON.stringify({ choices: [{ message: { role: 'assistant', content: name }, finish_reason: 'stop' }] }),
              ),
          );
      });
      return new Promise<{ url: string; close: () => void }>((r) =>
        server.listen(0, '127.0.0.1', () =>
          r({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => server.close() }),
        ),
      );
    };
    const [fromProject, fromEnv, fromStep] = await Promise.all([
      endpoint('project'),
      endpoint('env'),
      endpoint('step'),
    ]);
    try {
      const project = { agents: { openai_compatible: { base_url: fromProject.url, api_key: 'pk', model: 'pm' } } };
      const withProject = new OpenAiCompatibleAgentProvider(noFactory, project);
      const env = { OPENAI_BASE_URL: fromEnv.url, OPENAI_API_KEY: 'ek', OPENAI_MODEL: 'em' };
      expect((await withProject.run(request({ options: {}, env }))).output).toBe('project');
      const step = { base_url: fromStep.url, api_key: 'sk' };
      expect((await withProject.run(request({ options: step, env }))).output).toBe('step');
      expect(
        (await new OpenAiCompatibleAgentProvider(noFactory, { agents: {} }).run(request({ options: {}, env }))).output,
      ).toBe('env');
      expect(seen).toEqual([
        { url: 'project', auth: 'Bearer pk' },
        { url: 'step', auth: 'Bearer sk' },
        { url: 'env', auth: 'Bearer ek' },
      ]);
    } finally {
      [fromProject, fromEnv, fromStep].forEach((s) => s.close());
    }
  });
});
