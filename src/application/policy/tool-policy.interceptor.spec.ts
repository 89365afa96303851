import type { ToolDefinition } from '../../domain/model/tool-definition';
import { textResult } from '../../domain/model/tool-result';
import type { ApprovalGate } from '../../domain/ports/approval-gate.port';
import { ScriptedGate } from '../../../test/support/scripted-gate';
import type { ToolProvider } from '../../domain/ports/tool-provider.port';
import type { ToolCall, ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import type { ToolScope } from '../../domain/ports/tool-scope';
import { ToolPolicy } from '../../domain/policy/tool-policy';
import { DEFAULT_LIMITS } from '../../domain/proxy/proxy-config';
import { ValueSecretMasker } from '../secret-masker.service';
import { ToolRouterService as ToolRouter } from '../tool-router.service';
import { PolicyPathGuard } from './policy-path.guard';
import { ToolPolicyInterceptor } from './tool-policy.interceptor';

const tool = (name: string, source: string): ToolDefinition => ({
  name,
  source,
  description: name,
  inputSchema: { type: 'object' },
});
const sources: ToolProvider = {
  listTools: () => [
    tool('Read', 'builtin'),
    tool('Bash', 'builtin'),
    tool('kv_get', 'plugin:kv'),
    tool('kv_drop', 'plugin:kv'),
    tool('gh_issue', 'upstream:gh'),
    tool('echo', 'module:x'),
  ],
  callTool: async (name, args) => textResult(`${name} ran ${JSON.stringify(args)}`),
};

/** Records what the policy decided, as the audit interceptor does, from outside the policy. */
const recorder = (seen: ToolCall[]): ToolCallInterceptor => ({
  order: -200,
  intercept: async (call, next) => {
    const r = await next();
    seen.push(call);
    return r;
  },
});

async function open(
  layers: ConstructorParameters<typeof ToolPolicy>[0],
  gate: ApprovalGate = new ScriptedGate([]),
  seen: ToolCall[] = [],
) {
  const scope: ToolScope = {
    rootDir: '/work/p',
    interceptBuiltins: true,
    pluginTools: [],
    limits: DEFAULT_LIMITS,
    step: 's',
    policy: new ToolPolicy(layers),
  };
  const masker = new ValueSecretMasker({ API_TOKEN: 'sekrit-value' });
  return ToolRouter.open([sources], scope, [new ToolPolicyInterceptor(gate, masker), recorder(seen)]);
}

describe('ToolPolicyInterceptor', () => {
  it('filters every tool source the same way: built-ins, plugins, upstreams, modules', async () => {
    const router = await open([{ origin: 'step s', tools: { deny: ['kv_drop', 'gh_*', 'echo'] } }]);
    expect(router.list().map((t) => t.name)).toEqual(['Bash', 'Read', 'kv_get']);
    for (const name of ['kv_drop', 'gh_issue', 'echo']) {
      expect(await router.call(name, {})).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/^\[POLICY\.TOOL_DENIED\]/) }],
      });
    }
    expect((await router.call('kv_get', {})).isError).toBeUndefined();
  });

  it('leaves the decision on the call for the outer interceptors', async () => {
    const seen: ToolCall[] = [];
    const router = await open(
      [{ origin: 'step s', tools: { deny: ['Bash'] }, budgets: { per_tool: { Read: 1 } } }],
      undefined,
      seen,
    );
    await router.call('Bash', { command: 'ls' });
    await router.call('Read', {});
    await router.call('Read', {});
    expect(seen.map((c) => c.policy)).toEqual([
      { decision: 'denied', code: 'POLICY.TOOL_DENIED', rule: 'step s: tools.deny "Bash"' },
      { decision: 'allowed' },
      { decision: 'denied', code: 'POLICY.BUDGET_EXCEEDED', rule: 'budgets.per_tool.Read 1' },
    ]);
  });

  it('asks the gate with masked arguments, and remembers "always" for the rest of the step', async () => {
    const gate = new ScriptedGate([
      { answer: 'always', by: 'person' },
      { answer: 'deny', by: 'person' },
    ]);
    const seen: ToolCall[] = [];
    const router = await open(
      [{ origin: 'step s', approve: [{ match: 'Bash:git push*' }, { match: 'kv_*', auto: true }] }],
      gate,
      seen,
    );
    expect(
      (await router.call('Bash', { command: 'git push origin main --token sekrit-value' })).isError,
    ).toBeUndefined();
    expect((await router.call('Bash', { command: 'git push origin dev' })).isError).toBeUndefined();
    expect((await router.call('Bash', { command: 'git status' })).isError).toBeUndefined();
    const refused = await router.call('kv_get', { key: 'a' });
    expect(refused.content[0].text).toMatch(
      /^\[POLICY\.APPROVAL_DENIED\] kv_get needs a person's approval and the person denied it/,
    );
    expect(gate.asked).toEqual([
      {
        tool: 'Bash',
        args: { command: 'git push origin main --token ***' },
        rules: ['step s: approve "Bash:git push*"'],
        auto: false,
        step: 's',
        runId: undefined,
      },
      {
        tool: 'kv_get',
        args: { key: 'a' },
        rules: ['step s: approve "kv_*"'],
        auto: true,
        step: 's',
        runId: undefined,
      },
    ]);
    expect(seen.map((c) => c.policy?.decision)).toEqual(['approved', 'approved', 'allowed', 'rejected']);
    expect(seen[0].policy?.rule).toBe('step s: approve "Bash:git push*" (person, always for this step)');
  });

  it('records a path the sandbox refused through the guard, and paths only hidden from a listing', async () => {
    const guard = new PolicyPathGuard();
    const listing: ToolProvider = {
      listTools: () => [tool('Glob', 'builtin'), tool('Read', 'builtin')],
      callTool: async (name, _args, ctx) => {
        if (name === 'Read')
          return { isError: true, content: [{ type: 'text', text: guard.denial('.env', 'read', ctx.scope)! }] };
        const kept = ['a.ts', 'b.pem'].filter((p) => guard.denial(p, 'list', ctx.scope) === undefined);
        return textResult(kept.join('\n'));
      },
    };
    const seen: ToolCall[] = [];
    const scope: ToolScope = {
      rootDir: '/p',
      interceptBuiltins: true,
      pluginTools: [],
      limits: DEFAULT_LIMITS,
      policy: new ToolPolicy([{ origin: 'd', paths: { deny: ['.env', '**/*.pem'] } }]),
    };
    const router = await ToolRouter.open([listing], scope, [
      new ToolPolicyInterceptor(new ScriptedGate([]), new ValueSecretMasker({})),
      recorder(seen),
    ]);
    expect(await router.call('Glob', {})).toEqual(textResult('a.ts'));
    expect((await router.call('Read', {})).content[0].text).toBe(
      '[POLICY.PATH_DENIED] reading .env is not allowed for this step.\nDecided by: d: paths.deny ".env". Other tools and calls still work.',
    );
    expect(seen.map((c) => c.policy)).toEqual([
      { decision: 'allowed', hidden: 1 },
      { decision: 'denied', code: 'POLICY.PATH_DENIED', rule: 'd: paths.deny ".env"' },
    ]);
  });

  it('hides a tool that differs from its pin and refuses it before any approval, with or without a policy', async () => {
    const changed = { ...tool('gh_issue', 'mcp:gh'), changed: 'its description changed; run `awf mcp trust gh`' };
    const listing: ToolProvider = {
      listTools: () => [tool('gh_list', 'mcp:gh'), changed],
      callTool: async (name) => textResult(`${name} ran`),
    };
    const base = { rootDir: '/p', interceptBuiltins: false, pluginTools: [], limits: DEFAULT_LIMITS };
    for (const policy of [undefined, new ToolPolicy([{ origin: 'd', approve: [{ match: 'gh_issue' }] }])]) {
      const gate = new ScriptedGate([{ answer: 'once', by: 'person' }]);
      const seen: ToolCall[] = [];
      const scope: ToolScope = { ...base, ...(policy ? { policy } : {}) };
      const router = await ToolRouter.open([listing], scope, [
        new ToolPolicyInterceptor(gate, new ValueSecretMasker({})),
        recorder(seen),
      ]);
      expect(router.list().map((t) => t.name)).toEqual(['gh_list']);
      expect((await router.call('gh_issue', {})).content[0].text).toBe(
        '[POLICY.TOOL_CHANGED] gh_issue is hidden and refused: its description changed; run `awf mcp trust gh`.\n' +
          'Decided by: pinned mcp:gh. Other tools and calls still work.',
      );
      expect(gate.asked).toEqual([]);
      expect(seen[0].policy).toEqual({ decision: 'denied', code: 'POLICY.TOOL_CHANGED', rule: 'pinned mcp:gh' });
      expect(await router.call('gh_list', {})).toEqual(textResult('gh_list ran'));
    }
  });
});
