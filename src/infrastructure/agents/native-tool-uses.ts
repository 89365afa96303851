import type { NativeToolUse } from '../../domain/ports/agent-provider.port';
import { asNumber, asRecord, type JsonEvent } from './ndjson';

/**
 * Reading an agent CLI's own tool uses out of its JSON event stream (bypass detection,
 * docs/policy.md, ADR 171). Each reader is fed one event at a time and says whether it
 * reports a tool that is not the proxy's. Unknown kinds of items count as tools: a CLI
 * release that adds a tool must not make it invisible.
 */

/** Codex `exec --json` items that are the model talking, not a tool acting. */
const CODEX_NOT_TOOLS = new Set(['agent_message', 'assistant_message', 'reasoning', 'todo_list', 'error']);

/** Codex: `item.started` / `item.updated` / `item.completed` whose item is a tool other than the proxy's. */
export function codexNativeToolUse(event: JsonEvent, serverName: string): NativeToolUse | undefined {
  if (typeof event.type !== 'string' || !event.type.startsWith('item.')) return undefined;
  const item = asRecord(event.item);
  const type = typeof item.type === 'string' ? item.type : 'unknown';
  if (CODEX_NOT_TOOLS.has(type) || typeof item.id !== 'string') return undefined;
  let tool = type;
  let args: JsonEvent = {};
  if (type === 'mcp_tool_call') {
    // Codex writes the server's name as configured, or with `-` made `_` in tool names.
    const server = String(item.server ?? '');
    if (server === serverName || server === serverName.replace(/-/g, '_')) return undefined;
    tool = `mcp:${server}/${String(item.tool ?? '')}`;
    args = asRecord(item.arguments);
  } else if (type === 'command_execution') args = { command: item.command };
  else if (type === 'file_change') args = { changes: item.changes };
  else if (type === 'web_search') args = { query: item.query };
  const failed = item.status === 'failed' || item.status === 'declined' || (asNumber(item.exit_code) ?? 0) !== 0;
  const running = event.type !== 'item.completed' && !failed;
  return { tool, id: item.id, argsShape: shapeOf(args), status: running ? 'running' : failed ? 'error' : 'ok' };
}

/** OpenCode `run --format json`: a `tool_use` event whose tool is not one of the proxy's (`<server>_<tool>`). */
export function opencodeNativeToolUse(event: JsonEvent, serverName: string): NativeToolUse | undefined {
  if (event.type !== 'tool_use') return undefined;
  const part = asRecord(event.part);
  const tool = typeof part.tool === 'string' ? part.tool : 'unknown';
  if (tool.startsWith(`${serverName}_`)) return undefined;
  const state = asRecord(part.state);
  const time = asRecord(state.time);
  const id = part.callID ?? part.id;
  return {
    tool,
    id: typeof id === 'string' ? id : `${tool}@${String(event.timestamp)}`,
    argsShape: shapeOf(asRecord(state.input)),
    status: state.status === 'error' ? 'error' : state.status === 'completed' ? 'ok' : 'running',
    ...(asNumber(time.start) !== undefined ? { startedAt: asNumber(time.start) } : {}),
    ...(asNumber(time.end) !== undefined ? { endedAt: asNumber(time.end) } : {}),
  };
}

/**
 * Copilot `--output-format=json`: `tool.execution_start` of a tool not served by the proxy
 * (`data.mcpServerName`), then its `tool.execution_complete`, which names only the call: the
 * returned reader remembers the calls it reported.
 */
export function copilotNativeToolUses(serverName: string): (event: JsonEvent) => NativeToolUse | undefined {
  const started = new Map<string, Omit<NativeToolUse, 'status'>>();
  return (event) => {
    const data = asRecord(event.data);
    const id = data.toolCallId;
    if (typeof id !== 'string') return undefined;
    if (event.type === 'tool.execution_start') {
      if (data.mcpServerName === serverName) return undefined;
      const name = typeof data.toolName === 'string' ? data.toolName : 'unknown';
      const tool = typeof data.mcpServerName === 'string' ? `mcp:${data.mcpServerName}/${name}` : name;
      const use = { tool, id, argsShape: shapeOf(asRecord(data.arguments)) };
      started.set(id, use);
      return { ...use, status: 'running' };
    }
    const use = event.type === 'tool.execution_complete' ? started.get(id) : undefined;
    return use && { ...use, status: data.success === false ? 'error' : 'ok' };
  };
}

/** Names and sizes only, as the audit trail keeps every call's arguments. */
function shapeOf(args: JsonEvent): Record<string, number | string> {
  const shape: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(args).slice(0, 32)) {
    if (value === undefined) continue;
    shape[key] =
      typeof value === 'string' || Array.isArray(value) ? value.length : value === null ? 'null' : typeof value;
  }
  return shape;
}

/** Codex tools the model calls that act on nothing: its plan. */
const CODEX_RECORD_NOT_TOOLS = new Set(['update_plan']);

/**
 * Codex's session record (`$CODEX_HOME/sessions/…/rollout-…-<thread>.jsonl`, one entry a line):
 * a tool call the model made (`response_item` of a `*_call` type), from `since` (epoch ms) on.
 * Unlike `exec --json`, it holds every call codex ran, the commands its sandbox refused included
 * (ADR 172). The proxy's own tools (namespace `mcp__<server>`) are not native.
 */
export function codexRecordToolCall(entry: JsonEvent, serverName: string, since: number): NativeToolUse | undefined {
  if (entry.type !== 'response_item' || !(Date.parse(String(entry.timestamp)) >= since)) return undefined;
  const call = asRecord(entry.payload);
  const kind = typeof call.type === 'string' ? call.type : '';
  if (!kind.endsWith('_call') || (typeof call.call_id !== 'string' && typeof call.id !== 'string')) return undefined;
  const name = typeof call.name === 'string' ? call.name : kind.replace(/_call$/, '');
  if (CODEX_RECORD_NOT_TOOLS.has(name)) return undefined;
  const id = String(call.call_id ?? call.id);
  const namespace = typeof call.namespace === 'string' ? call.namespace : '';
  const mcp = /^mcp__(.+)$/.exec(namespace);
  if (mcp) {
    if (mcp[1] === serverName || mcp[1] === serverName.replace(/-/g, '_')) return undefined;
    return { tool: `mcp:${mcp[1]}/${name}`, id, argsShape: shapeOf(jsonArgs(call.arguments)), status: 'running' };
  }
  const args = kind === 'function_call' ? jsonArgs(call.arguments) : asRecord(call.action ?? { input: call.input });
  return { tool: name, id, argsShape: shapeOf(args), status: 'running' };
}

/** The outcome the record gives a call (`*_call_output`): its id, and whether it failed. */
export function codexRecordToolOutput(entry: JsonEvent): { id: string; status: 'ok' | 'error' } | undefined {
  if (entry.type !== 'response_item') return undefined;
  const out = asRecord(entry.payload);
  if (typeof out.type !== 'string' || !out.type.endsWith('_call_output') || typeof out.call_id !== 'string') {
    return undefined;
  }
  const body = asRecord(out.output);
  const text = typeof out.output === 'string' ? out.output : typeof body.content === 'string' ? body.content : '';
  const exit = /Process exited with code (-?\d+)/.exec(text);
  const failed = body.success === false || (exit !== null && exit[1] !== '0');
  return { id: out.call_id, status: failed ? 'error' : 'ok' };
}

function jsonArgs(value: unknown): JsonEvent {
  if (typeof value !== 'string') return asRecord(value);
  try {
    return asRecord(JSON.parse(value));
  } catch {
    return { arguments: value };
  }
}
