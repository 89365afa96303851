import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolPolicyInterceptor } from '../../application/policy/tool-policy.interceptor';
import { ValueSecretMasker } from '../../application/secret-masker.service';
import { ToolRouterService as ToolRouter } from '../../application/tool-router.service';
import { textResult } from '../../domain/model/tool-result';
import type { ApprovalGate } from '../../domain/ports/approval-gate.port';
import { ScriptedGate } from '../../../test/support/scripted-gate';
import type { ToolCall, ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import type { ToolScope } from '../../domain/ports/tool-scope';
import type { PolicyLayer } from '../../domain/policy/policy.model';
import { ToolPolicy } from '../../domain/policy/tool-policy';
import { DEFAULT_LIMITS } from '../../domain/proxy/proxy-config';
import { ExactApprovalStore, exactApprovalsFile, policyDigest } from './exact-approval.store';

const APPROVE_BASH: PolicyLayer[] = [{ origin: 'step s', approve: [{ match: 'Bash' }] }];

describe('exact approvals (ADR 265)', () => {
  let dataDir: string;
  let file: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'awf-exact-'));
    file = exactApprovalsFile(join(dataDir, 'mcp-pins'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  async function proxy(gate: ApprovalGate, layers: PolicyLayer[] = APPROVE_BASH, seen: ToolCall[] = []) {
    const scope: ToolScope = {
      rootDir: dataDir,
      interceptBuiltins: true,
      pluginTools: [],
      limits: DEFAULT_LIMITS,
      step: 's',
      policy: new ToolPolicy(layers),
      pinsDir: join(dataDir, 'mcp-pins'),
    };
    const bash = { name: 'Bash', source: 'builtin', description: 'Bash', inputSchema: { type: 'object' as const } };
    const sources = { listTools: () => [bash], callTool: async () => textResult('ran') };
    const recorder: ToolCallInterceptor = {
      order: -200,
      intercept: async (call, next) => {
        const r = await next();
        seen.push(call);
        return r;
      },
    };
    const interceptor = new ToolPolicyInterceptor(gate, new ValueSecretMasker({}), new ExactApprovalStore());
    return { router: await ToolRouter.open([sources], scope, [interceptor, recorder]), scope };
  }

  it('same arguments: no question; other arguments: asks again; the record says exact', async () => {
    const gate = new ScriptedGate([
      { answer: 'exact', by: 'person' },
      { answer: 'deny', by: 'person' },
    ]);
    const seen: ToolCall[] = [];
    const { router } = await proxy(gate, APPROVE_BASH, seen);
    expect((await router.call('Bash', { command: 'make test' })).isError).toBeUndefined();
    expect((await router.call('Bash', { command: 'make test' })).isError).toBeUndefined();
    expect(gate.asked).toHaveLength(1);
    expect(seen[1].policy).toMatchObject({
      decision: 'approved',
      rule: expect.stringMatching(/^step s: approve "Bash" \(exact approval [0-9a-f]{8}\)$/),
      approval: { scope: 'exact', by: 'person', who: 'local', expires: expect.any(String) },
    });
    // The arguments' key order does not matter; their values do.
    expect((await router.call('Bash', { command: 'make test', timeout: 1000 })).isError).toBe(true);
    expect(gate.asked).toHaveLength(2);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'approvals')).mode & 0o777).toBe(0o700);
  });

  it('a changed policy asks again, and so does a new proxy under the same policy does not', async () => {
    const first = new ScriptedGate([{ answer: 'exact', by: 'person' }]);
    await (await proxy(first)).router.call('Bash', { command: 'ls' });
    const same = new ScriptedGate([]);
    expect((await (await proxy(same)).router.call('Bash', { command: 'ls' })).isError).toBeUndefined();
    expect(same.asked).toHaveLength(0);
    const changed = new ScriptedGate([]);
    const tighter: PolicyLayer[] = [{ ...APPROVE_BASH[0], budgets: { calls: 50 } }];
    expect((await (await proxy(changed, tighter)).router.call('Bash', { command: 'ls' })).isError).toBe(true);
    expect(changed.asked).toHaveLength(1);
  });

  it('an expired or revoked approval asks again; a grant from outside is seen by a running proxy', async () => {
    const gate = new ScriptedGate([]);
    const { router, scope } = await proxy(gate);
    const store = new ExactApprovalStore();
    const grant = { by: 'person' as const, who: 'cli', shown: {} };
    const digest = policyDigest(scope.policy);
    const brief = store.add(file, 'Bash', { command: 'ls' }, digest, { ...grant, expiresInMs: 1 });
    await new Promise((r) => setTimeout(r, 10));
    expect((await router.call('Bash', { command: 'ls' })).isError).toBe(true);
    expect(gate.asked).toHaveLength(1);
    expect(store.live(file).map((a) => a.id)).not.toContain(brief.id);

    const kept = store.add(file, 'Bash', { command: 'ls' }, digest, { ...grant, expiresInMs: 60_000 });
    expect((await router.call('Bash', { command: 'ls' })).isError).toBeUndefined();
    expect(gate.asked).toHaveLength(1);
    store.revoke(file, kept.id);
    expect((await router.call('Bash', { command: 'ls' })).isError).toBe(true);
    expect(gate.asked).toHaveLength(2);
    expect(() => store.revoke(file, kept.id)).toThrow(/no exact approval/);
  });

  it('an unreadable store approves nothing and the person is asked', async () => {
    const gate = new ScriptedGate([{ answer: 'once', by: 'person' }]);
    const { router } = await proxy(gate);
    mkdirSync(join(dataDir, 'approvals'), { recursive: true });
    writeFileSync(file, 'not json');
    expect((await router.call('Bash', { command: 'ls' })).isError).toBeUndefined();
    expect(gate.asked).toHaveLength(1);
  });
});
