// Issue 31: what the pinning check and the exact-approval check add to one tool call, measured
// in-process on the router a step's proxy runs (no transport, so the difference is the checks
// alone), side by side with the same call without them. Target: each adds ≤ 0.1 ms at p50.
// Plugin pins are checked when the tools are listed only; an extension module's provider is
// wrapped to pin its tools (ADR 305), a call through that wrapper is measured too.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from './mcp-measure.mjs';

export const CHECKS_TARGET_MS = 0.1;

export async function checksBench({ main, calls = 20_000, block = 200 }) {
  const dist = join(main, '..');
  const need = createRequire(import.meta.url);
  const { ToolRouterService } = need(join(dist, 'application/tool-router.service.js'));
  const { ToolPolicyInterceptor } = need(join(dist, 'application/policy/tool-policy.interceptor.js'));
  const { ValueSecretMasker } = need(join(dist, 'application/secret-masker.service.js'));
  const { ToolPolicy } = need(join(dist, 'domain/policy/tool-policy.js'));
  const { ExactApprovalStore, exactApprovalsFile, policyDigest } = need(
    join(dist, 'infrastructure/policy/exact-approval.store.js'),
  );
  const { ToolPinStore } = need(join(dist, 'infrastructure/core/tool-pin.store.js'));
  const { PinnedExtensionTools } = need(join(dist, 'infrastructure/core/extension-pins.js'));
  const data = mkdtempSync(join(tmpdir(), 'awf-bench-checks-'));
  try {
    const pinsDir = join(data, 'mcp-pins');
    const tools = Array.from({ length: 20 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool ${i}: does one thing with its input and says what it did.`,
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, n: { type: 'integer' } } },
    }));
    const pins = new ToolPinStore(pinsDir);
    pins.check('bench', tools); // first sight pins them
    const listing = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      pins.check('bench', tools);
      listing.push(performance.now() - t0);
    }
    pins.check('plugin:bench', tools, '1.0.0');
    const versioned = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      pins.check('plugin:bench', tools, '1.0.0');
      versioned.push(performance.now() - t0);
    }
    const echo = { name: 'bench_tool_0', source: 'upstream:bench', description: 'x', inputSchema: { type: 'object' } };
    const provider = { listTools: () => [echo], callTool: async () => ({ content: [{ type: 'text', text: 'ok' }] }) };
    const moduleTool = { ...echo, source: 'module:bench' };
    const extension = new PinnedExtensionTools(
      { listTools: () => [moduleTool], callTool: provider.callTool },
      { key: 'module:BenchModule', version: '1.0.0' },
    );
    const args = { path: 'src/index.ts', n: 3, flags: { deep: true, tags: ['a', 'b'] } };
    const base = { rootDir: data, interceptBuiltins: false, pluginTools: [], limits: {}, step: 'bench', pinsDir };
    const policy = new ToolPolicy([{ origin: 'step bench', approve: [{ match: 'bench_*' }] }]);
    const store = new ExactApprovalStore();
    store.add(exactApprovalsFile(pinsDir), echo.name, args, policyDigest(policy), {
      by: 'person',
      who: 'bench',
      expiresInMs: 3_600_000,
      shown: args,
    });
    const gate = { ask: async () => ({ answer: 'deny', by: 'no channel' }) };
    const interceptor = () => new ToolPolicyInterceptor(gate, new ValueSecretMasker({}), store);
    const routers = {
      plain: await ToolRouterService.open([provider], base, []),
      pinned: await ToolRouterService.open([provider], base, [interceptor()]),
      approved: await ToolRouterService.open([provider], { ...base, policy }, [interceptor()]),
      extension: await ToolRouterService.open([extension], base, [interceptor()]),
    };
    const times = { plain: [], pinned: [], approved: [], extension: [] };
    for (let done = 0; done < calls; done += block)
      for (const id of Object.keys(routers))
        for (let i = 0; i < block; i++) {
          const t0 = performance.now();
          const r = await routers[id].call(echo.name, args);
          times[id].push(performance.now() - t0);
          if (r.isError) throw new Error(`checks bench: ${id} call refused: ${JSON.stringify(r.content)}`);
        }
    for (const r of Object.values(routers)) await r.close?.();
    const p50 = Object.fromEntries(Object.entries(times).map(([id, t]) => [id, median(t)]));
    return {
      calls,
      p50,
      pinAddedMs: p50.pinned - p50.plain,
      approvalAddedMs: p50.approved - p50.plain,
      extensionAddedMs: p50.extension - p50.plain,
      listingP50Ms: median(listing),
      versionedListingP50Ms: median(versioned),
    };
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

export function checksTable(c) {
  const f = (v) => v.toFixed(4);
  return [
    `| per-call checks, in-process router, ${c.calls} calls each, interleaved (target: added ≤ ${CHECKS_TARGET_MS} ms) | p50 ms | added p50 ms |`,
    '| --- | --- | --- |',
    `| a call without them (no policy interceptor) | ${f(c.p50.plain)} | — |`,
    `| pinned upstream tool, pin unchanged (the per-call pin check) | ${f(c.p50.pinned)} | ${f(c.pinAddedMs)} |`,
    `| approve rule matched, exact approval kept for the arguments | ${f(c.p50.approved)} | ${f(c.approvalAddedMs)} |`,
    `| extension module's tool, pinned by its package version (its pin wrapper + the pin check) | ${f(c.p50.extension)} | ${f(c.extensionAddedMs)} |`,
    '| plugin tool, pinned by its version: checked per listing only, nothing per call | — | — |',
    `| (per listing, not per call: pin check of 20 tools) | ${f(c.listingP50Ms)} | — |`,
    `| (per listing: pin check of 20 tools of a plugin or module at its version) | ${f(c.versionedListingP50Ms)} | — |`,
  ];
}

export function checksTargets(c, target) {
  const t = CHECKS_TARGET_MS;
  return [
    target(`pin check: added p50 per call ≤ ${t} ms (as a ratio of it)`, c && c.pinAddedMs / t, (x) => x <= 1),
    target(
      `extension pin (wrapper + check): added p50 per call ≤ ${t} ms (as a ratio of it)`,
      c && c.extensionAddedMs / t,
      (x) => x <= 1,
    ),
    target(
      `exact-approval check: added p50 per call ≤ ${t} ms (as a ratio of it)`,
      c && c.approvalAddedMs / t,
      (x) => x <= 1,
    ),
  ];
}
