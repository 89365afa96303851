import { AwfError } from '../domain/errors/awf-error';
import type { ToolDefinition } from '../domain/model/tool-definition';
import { resultText, textResult } from '../domain/model/tool-result';
import type { ToolCallInterceptor } from '../domain/ports/tool-call-interceptor.port';
import type { ToolProvider } from '../domain/ports/tool-provider.port';
import type { ToolScope } from '../domain/ports/tool-scope';
import { DEFAULT_LIMITS } from '../domain/proxy/proxy-config';
import { ToolRouterService } from './tool-router.service';

const scope: ToolScope = { rootDir: '/tmp', interceptBuiltins: false, pluginTools: [], limits: DEFAULT_LIMITS };
const tool = (name: string, source: string): ToolDefinition => ({
  name,
  description: name,
  source,
  inputSchema: { type: 'object' },
});

/** A provider whose tools change when the test says so, as an upstream server's do. */
function changing(source: string, initial: string[]) {
  let names = initial;
  let onChange: (() => void) | undefined;
  let closed = 0;
  const provider: ToolProvider = {
    listTools: () => names.map((n) => tool(n, source)),
    callTool: async (name) => textResult(`${source}:${name}`),
    watchTools: (_scope, listener) => void (onChange = listener),
    close: () => void closed++,
  };
  return {
    provider,
    change: (next: string[]) => {
      names = next;
      onChange?.();
    },
    closed: () => closed,
  };
}

/** Resolves once the router has told its listeners (the change is applied asynchronously). */
const told = (router: ToolRouterService) =>
  new Promise<void>((resolve) => {
    const stop = router.onToolsChanged(() => {
      stop();
      resolve();
    });
  });

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('ToolRouterService when a provider says its tools changed', () => {
  it('lists it again, serves the new tools, and tells its listeners after list() has them', async () => {
    const up = changing('mcp:up', ['up_a']);
    const router = await ToolRouterService.open([up.provider], scope);
    const changed = told(router);
    up.change(['up_a', 'up_b']);
    await changed;
    expect(router.list().map((t) => t.name)).toEqual(['up_a', 'up_b']);
    expect(resultText(await router.call('up_b', {}))).toBe('mcp:up:up_b');
    up.change(['up_b']);
    await told(router);
    await expect(router.call('up_a', {})).rejects.toMatchObject({ code: 'USER.MCP_PROXY.UNKNOWN_TOOL' });
  });

  it("applies the interceptors' filters to the new list (the policy hides what it denies)", async () => {
    const up = changing('mcp:up', ['up_a']);
    const hideSecrets: ToolCallInterceptor = {
      order: 0,
      intercept: (_call, next) => next(),
      filterTools: (tools) => tools.filter((t) => !t.name.includes('secret')),
    };
    const router = await ToolRouterService.open([up.provider], scope, [hideSecrets]);
    const changed = told(router);
    up.change(['up_a', 'up_secret']);
    await changed;
    expect(router.list().map((t) => t.name)).toEqual(['up_a']);
  });

  it('refuses a change that would collide, keeping the tools served before, and says why', async () => {
    const up = changing('mcp:up', ['up_a']);
    const other = changing('module:other', ['Read']);
    const refused: unknown[] = [];
    const router = await ToolRouterService.open([up.provider, other.provider], scope, [], undefined, (err) =>
      refused.push(err),
    );
    let heard = 0;
    router.onToolsChanged(() => heard++);
    up.change(['up_a', 'Read']);
    await flush();
    await flush();
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(AwfError);
    expect((refused[0] as AwfError).code).toBe('USER.MCP_PROXY.NAME_COLLISION');
    expect(heard).toBe(0);
    expect(router.list().map((t) => t.name)).toEqual(['Read', 'up_a']);
  });

  it('closes a watching provider with the router even if it serves nothing yet, and ignores later changes', async () => {
    const up = changing('mcp:up', []);
    const router = await ToolRouterService.open([up.provider], scope);
    await router.close();
    expect(up.closed()).toBe(1);
    up.change(['up_a']);
    await flush();
    expect(router.list()).toEqual([]);
  });
});
