import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proxyInjection, runFake } from '../../../test/agents/fake-agent';
import { recordingLogger } from '../../../test/agents/agent-cli.harness';
import type { NativeToolUse } from '../../domain/ports/agent-provider.port';
import { CodexAgentProvider } from './codex.provider';
import { CodexSessionRecordWatch, findSessionRecord } from './codex-session-record.watch';

const THREAD = '01a233a5-1157-71e3-a41c-b98a788653c4';
const at = (ms: number) => new Date(ms).toISOString();
const item = (ms: number, payload: object) => JSON.stringify({ timestamp: at(ms), type: 'response_item', payload });
/** What Codex 0.171 wrote for a command its read-only sandbox refused: the call and its output, no exec events. */
const denied = (ms: number, id = 'call_0_0') => [
  item(ms, {
    type: 'function_call',
    name: 'exec_command',
    arguments: '{"cmd":"echo native > native.txt"}',
    call_id: id,
  }),
  item(ms + 1, {
    type: 'function_call_output',
    call_id: id,
    output:
      'Chunk ID: eb9d9c\nProcess exited with code 1\nOutput:\n/bin/bash: line 1: native.txt: Read-only file system\n',
  }),
];

describe('CodexSessionRecordWatch', () => {
  let home: string;
  let day: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'awf-codex-home-'));
    day = join(home, 'sessions', '2026', '12', '01');
    mkdirSync(day, { recursive: true });
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));
  const record = (lines: string[]) =>
    writeFileSync(join(day, `rollout-2026-12-01T22-06-25-${THREAD}.jsonl`), lines.join('\n') + '\n');

  it("reads every call of this run from Codex's record, the refused ones and other servers' tools included", () => {
    const since = Date.now();
    const uses: NativeToolUse[] = [];
    const watch = new CodexSessionRecordWatch({
      codexHome: home,
      serverName: 'awf-proxy',
      since,
      report: (u) => void uses.push(u),
    });
    watch.line({ type: 'thread.started', thread_id: THREAD });
    record([
      // A resumed thread's earlier turn: not this run's.
      ...denied(since - 60_000, 'old'),
      JSON.stringify({ timestamp: at(since), type: 'event_msg', payload: { type: 'task_started' } }),
      ...denied(since + 1),
      item(since + 5, {
        type: 'function_call',
        namespace: 'mcp__awf_proxy',
        name: 'Read',
        arguments: '{}',
        call_id: 'p',
      }),
      item(since + 6, {
        type: 'function_call',
        namespace: 'mcp__github',
        name: 'create_issue',
        arguments: '{"title":"x"}',
        call_id: 'g',
      }),
      item(since + 7, { type: 'function_call', name: 'update_plan', arguments: '{"plan":[]}', call_id: 'u' }),
      item(since + 8, { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'a' }),
    ]);
    // The stream's own items are not counted again once the record is the source.
    watch.line({
      type: 'item.completed',
      item: { id: 'item_1', type: 'file_change', changes: [], status: 'completed' },
    });
    watch.finish();
    expect(uses.map(({ endedAt: _e, ...u }) => u)).toEqual([
      { tool: 'exec_command', id: 'call_0_0', argsShape: { cmd: 24 }, status: 'running' },
      { tool: 'exec_command', id: 'call_0_0', argsShape: { cmd: 24 }, status: 'error' },
      { tool: 'mcp:github/create_issue', id: 'g', argsShape: { title: 1 }, status: 'running' },
      { tool: 'apply_patch', id: 'a', argsShape: { input: 15 }, status: 'running' },
    ]);
  });

  it('keeps to the stream when Codex wrote no record (history off, --ephemeral)', () => {
    const uses: NativeToolUse[] = [];
    const watch = new CodexSessionRecordWatch({
      codexHome: home,
      serverName: 'awf-proxy',
      since: 0,
      report: (u) => void uses.push(u),
    });
    watch.line({ type: 'thread.started', thread_id: THREAD });
    watch.line({
      type: 'item.started',
      item: { id: 'item_1', type: 'command_execution', command: 'ls', status: 'in_progress' },
    });
    record(denied(Date.now()));
    watch.finish();
    expect(uses).toEqual([{ tool: 'command_execution', id: 'item_1', argsShape: { command: 2 }, status: 'running' }]);
  });

  it('finds a new thread among the two newest days, a resumed one on any day', () => {
    const old = join(home, 'sessions', '2026', '11', '03');
    mkdirSync(old, { recursive: true });
    mkdirSync(join(home, 'sessions', '2026', '11', '30'));
    writeFileSync(join(old, `rollout-2026-11-03T10-00-00-${THREAD}.jsonl`), '');
    expect(findSessionRecord(home, THREAD)).toBeUndefined();
    expect(findSessionRecord(home, THREAD, Infinity)).toBe(join(old, `rollout-2026-11-03T10-00-00-${THREAD}.jsonl`));
    expect(findSessionRecord(join(home, 'nowhere'), THREAD)).toBeUndefined();
  });

  it('is what the codex provider reads while codex runs, under $CODEX_HOME', async () => {
    const uses: NativeToolUse[] = [];
    record([]);
    const stream = `{"type":"thread.started","thread_id":"${THREAD}"}`;
    const run = runFake(new CodexAgentProvider(recordingLogger()), stream, {
      proxy: proxyInjection(false),
      onNativeToolUse: (u) => void uses.push(u),
      env: { CODEX_HOME: home },
    });
    appendFileSync(
      join(day, `rollout-2026-12-01T22-06-25-${THREAD}.jsonl`),
      denied(Date.now() + 1000).join('\n') + '\n',
    );
    await run;
    expect(uses.map((u) => [u.tool, u.status])).toEqual([
      ['exec_command', 'running'],
      ['exec_command', 'error'],
    ]);
  });
});
