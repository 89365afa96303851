import { AwfError } from '../domain/errors/awf-error';
import type { ToolDefinition } from '../domain/model/tool-definition';
import { resultText, textResult, type ToolResult } from '../domain/model/tool-result';
import type { ToolCallInterceptor } from '../domain/ports/tool-call-interceptor.port';
import type { ToolProvider } from '../domain/ports/tool-provider.port';
import type { ToolScope } from '../domain/ports/tool-scope';
import { DEFAULT_LIMITS } from '../domain/proxy/proxy-config';
import { ToolRouterService } from './tool-router.service';

const scope: ToolScope = {
  rootDir: '/tmp',
  interceptBuiltins: true,
  pluginTools: [],
  limits: DEFAULT_LIMITS,
  step: 's1',
};

function tool(name: string, source = 'module:test'): ToolDefinition {
  return { name, description: `${name} tool`, source, inputSchema: { type: 'object', properties: {} } };
}

function provider(
  tools: ToolDefinition[],
  call: ToolProvider['callTool'] = async (name) => textResult(name),
): ToolProvider & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    listTools: () => tools,
    callTool: (name, args, ctx) => (calls.push({ name, args, ctx }), call(name, args, ctx)),
  };
}

describe('ToolRouterService', () => {
  it('merges the tools of all providers, sorted by name', async () => {
    const router = await ToolRouterService.open(
      [provider([tool('Write'), tool('Bash')]), provider([tool('Grep')])],
      scope,
    );
    expect(router.list().map((t) => t.name)).toEqual(['Bash', 'Grep', 'Write']);
  });

  it('refuses a name served twice, naming the tool and both sources', async () => {
    const open = ToolRouterService.open(
      [provider([tool('Read', 'builtin')]), provider([tool('Read', 'plugin:files')])],
      scope,
    );
    await expect(open).rejects.toMatchObject({
      code: 'USER.MCP_PROXY.NAME_COLLISION',
      message: 'tool "Read" is served by both builtin and plugin:files',
    });
  });

  it('refuses a name served twice by one provider', async () => {
    await expect(
      ToolRouterService.open([provider([tool('dup'), tool('unique'), tool('dup')])], scope),
    ).rejects.toMatchObject({ code: 'USER.MCP_PROXY.NAME_COLLISION' });
  });

  it.each(['has space', 'a.b', 'x'.repeat(65), '', 'ünï'])('refuses the invalid tool name %p', async (name) => {
    await expect(ToolRouterService.open([provider([tool(name)])], scope)).rejects.toMatchObject({
      code: 'USER.MCP_PROXY.INVALID_TOOL_NAME',
    });
  });

  it('routes a call to the provider that listed the tool, with the scope and an object for any args', async () => {
    const a = provider([tool('alpha')]);
    const b = provider([tool('beta')]);
    const router = await ToolRouterService.open([a, b], scope);
    await router.call('beta', 'not-an-object');
    expect(a.calls).toHaveLength(0);
    expect(b.calls[0]).toMatchObject({ name: 'beta', args: {}, ctx: { scope } });
  });

  it('rejects an unknown tool with a coded error and calls no provider', async () => {
    const p = provider([tool('alpha')]);
    const router = await ToolRouterService.open([p], scope);
    await expect(router.call('omega', {})).rejects.toMatchObject({ code: 'USER.MCP_PROXY.UNKNOWN_TOOL' });
    expect(p.calls).toHaveLength(0);
  });

  it('turns a thrown error, a rejection and a missing result into isError results', async () => {
    const router = await ToolRouterService.open(
      [
        provider([tool('throws')], () => {
          throw new AwfError('USER.TOOL.BAD_ARG', 'file_path must be a string', {}, 'Pass an absolute path.');
        }),
        provider([tool('rejects')], () => Promise.reject(new Error('network down'))),
        provider([tool('empty')], async () => undefined as unknown as ToolResult),
      ],
      scope,
    );
    expect(await router.call('throws', {})).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'throws failed: file_path must be a string\nPass an absolute path.' }],
    });
    expect(await router.call('rejects', {})).toMatchObject({
      isError: true,
      content: [{ text: 'rejects failed: network down' }],
    });
    expect(await router.call('empty', {})).toMatchObject({
      isError: true,
      content: [{ text: 'tool "empty" returned no result' }],
    });
  });

  it('runs interceptors outermost-first by order, around the provider', async () => {
    const seen: string[] = [];
    const interceptor = (name: string, order: number): ToolCallInterceptor => ({
      order,
      async intercept(call, next) {
        seen.push(`${name}>${call.tool.name}`);
        const result = await next();
        seen.push(`<${name}`);
        return result;
      },
    });
    const router = await ToolRouterService.open([provider([tool('alpha')])], scope, [
      interceptor('inner', 20),
      interceptor('outer', 10),
    ]);
    await router.call('alpha', {});
    expect(seen).toEqual(['outer>alpha', 'inner>alpha', '<inner', '<outer']);
  });

  it('lets an interceptor answer instead of the tool, and survives one that throws', async () => {
    const p = provider([tool('alpha')]);
    const deny: ToolCallInterceptor = {
      order: 1,
      intercept: async () => ({ isError: true, content: [{ type: 'text', text: 'denied by policy' }] }),
    };
    const router = await ToolRouterService.open([p], scope, [deny]);
    expect(await router.call('alpha', {})).toMatchObject({ isError: true, content: [{ text: 'denied by policy' }] });
    expect(p.calls).toHaveLength(0);
    const broken: ToolCallInterceptor = {
      order: 1,
      intercept: async () => {
        throw new Error('interceptor bug');
      },
    };
    const router2 = await ToolRouterService.open([p], scope, [broken]);
    expect(await router2.call('alpha', {})).toMatchObject({
      isError: true,
      content: [{ text: 'alpha failed: interceptor bug' }],
    });
  });

  it('turns a synchronous throw of a non-async interceptor into an error result its outer interceptors see', async () => {
    const seen: string[] = [];
    const outer: ToolCallInterceptor = {
      order: 1,
      intercept: (_call, next) => next().then((r) => (seen.push(resultText(r)), r)),
    };
    const broken: ToolCallInterceptor = {
      order: 2,
      intercept: () => {
        throw new Error('sync bug');
      },
    };
    const router = await ToolRouterService.open([provider([tool('alpha')])], scope, [outer, broken]);
    expect(await router.call('alpha', {})).toMatchObject({
      isError: true,
      content: [{ text: 'alpha failed: sync bug' }],
    });
    expect(seen).toEqual(['alpha failed: sync bug']);
  });

  it('closes once', async () => {
    const onClose = jest.fn(async () => undefined);
    const router = await ToolRouterService.open([], scope, [], onClose);
    await router.close();
    await router.close();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
