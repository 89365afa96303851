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
