// Measurements as a stdio MCP client sees them: the official SDK Client spawning a server.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const median = (xs) => {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** Spawns `server`, answers `initialize`; resolves with the connected client and the time it took. */
export async function connect(server) {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    cwd: server.cwd,
    env: { ...process.env, ...server.env },
    stderr: 'pipe',
  });
  let stderr = '';
  // Drained as an agent CLI drains it: logging costs the server a real pipe write.
  transport.stderr?.on('data', (c) => {
    if (stderr.length < 64 * 1024) stderr += c.toString();
  });
  const client = new Client({ name: 'awf-bench', version: '1.0.0' });
  const t0 = performance.now();
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`${server.label}: ${err.message}\n${stderr.slice(-2000)}`, { cause: err });
  }
  const initializeMs = performance.now() - t0;
  return { client, transport, initializeMs, stderr: () => stderr, close: () => client.close() };
}

/** Whole-process time of a command that exits by itself (the floor row). */
export function processMs(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let out = '';
    child.stdout.on('data', (c) => (out += c.toString()));
    child.stderr.resume();
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: performance.now() - t0, code, out }));
  });
}

/** Peak resident set (VmHWM) of a live process, in MB; Linux only. */
export function peakRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export async function assertOk(result, label) {
  if (result.isError)
    throw new Error(`${label}: the tool answered isError: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
}

/**
 * tools/list latency, sequential and concurrent tools/call, peak RSS, for several servers at
 * once: all are connected, then take turns in blocks of `block` calls, so a burst of load from
 * another process on this shared machine lands on every server alike, not on one of them.
 */
export async function interleavedLoad(servers, { calls, block = 50, listRepeats = 20, warmup = 100 }) {
  const sessions = [];
  try {
    for (const server of servers)
      sessions.push({ server, session: await connect(server), lat: [], seqMs: 0, blockMs: [], listMs: [], parMs: [] });
    const call = (s) => s.session.client.callTool({ name: s.server.tool.name, arguments: s.server.tool.args });
    for (const s of sessions) {
      await assertOk(await call(s), s.server.label);
      for (let i = 0; i < warmup; i++) await call(s);
    }
    for (let i = 0; i < listRepeats; i++) {
      for (const s of sessions) {
        const t = performance.now();
        await s.session.client.listTools();
        s.listMs.push(performance.now() - t);
      }
    }
    for (let done = 0, turn = 0; done < calls; done += block, turn++) {
      for (const s of turnOrder(sessions, turn)) {
        const t0 = performance.now();
        for (let i = 0; i < Math.min(block, calls - done); i++) {
          const t = performance.now();
          await call(s);
          s.lat.push(performance.now() - t);
        }
        s.seqMs += performance.now() - t0;
        s.blockMs.push(performance.now() - t0);
      }
    }
    for (let rep = 0; rep < 3; rep++) {
      for (const s of sessions) {
        const t = performance.now();
        const results = await Promise.all(Array.from({ length: calls }, () => call(s)));
        s.parMs.push(performance.now() - t);
        const failed = results.filter((r) => r.isError).length;
        if (failed) throw new Error(`${s.server.label}: ${failed} of ${calls} concurrent calls failed`);
      }
    }
    return Object.fromEntries(
      sessions.map((s) => [
        s.server.id,
        {
          listMs: median(s.listMs),
          p50: percentile(s.lat, 50),
          p99: percentile(s.lat, 99),
          callsPerSec: (s.lat.length / s.seqMs) * 1000,
          // Each block's time, in the order run: every server ran block i in the same turn, so two
          // servers compare block by block (pairedRatio), which a burst of load elsewhere skews less.
          blockMs: s.blockMs,
          concurrentCallsPerSec: (calls / median(s.parMs)) * 1000,
          rssMb: peakRssMb(s.session.transport.pid),
        },
      ]),
    );
  } finally {
    for (const s of sessions) await s.session.close();
  }
}

/**
 * The servers of one turn in an order of that turn's own (a fixed shuffle per turn): what a
 * server leaves to run after its block (batched log lines and span ends, an export, a GC) lands
 * in the next one's block, so no server may always follow the same one. A rotation is not
 * enough: it keeps every server's predecessor.
 */
export function turnOrder(items, turn) {
  const order = [...items];
  let seed = (turn + 1) * 0x9e3779b1;
  for (let i = order.length - 1; i > 0; i--) {
    seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) >>> 0;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * calls/s of `a` over that of `b` as the median of block-by-block ratios: blocks of one turn ran
 * within a few tens of ms of each other, so a burst of load from another process hits both.
 */
export function pairedRatio(a, b) {
  const n = Math.min(a?.length ?? 0, b?.length ?? 0);
  return n === 0 ? undefined : median(Array.from({ length: n }, (_, i) => b[i] / a[i]));
}
