import { homedir } from 'node:os';
import { join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/** The MCP clients `awf mcp-config` writes an entry for; `json` is the plain `mcpServers` shape. */
export const MCP_CLIENTS = ['json', 'claude', 'codex', 'gemini', 'opencode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export interface ServerLaunch {
  command: string;
  args: string[];
}

/**
 * A running `awf serve`'s `/mcp`, for a client that connects by URL: the serve token stays in
 * the environment variable `tokenVar`, which the entry names in the client's own syntax.
 */
export interface ServerUrl {
  url: string;
  tokenVar: string;
}

/** How the client reaches the proxy: it starts `awf mcp-serve` (stdio), or connects to `/mcp`. */
export type ServerTarget = ServerLaunch | ServerUrl;

const byUrl = (target: ServerTarget): target is ServerUrl => 'url' in target;

/**
 * Each client's own shape for one MCP server, started over stdio or reached by URL (docs/agents.md),
 * and the file a user's registration goes to: Claude Code's user scope (`~/.claude.json`), Codex's `config.toml`
 * (`$CODEX_HOME`), Gemini CLI's user settings, OpenCode's global config, and for `json` the
 * project's `.mcp.json`. Merging keeps every other key and server of the file as it was.
 */
export function clientConfigFile(client: McpClient, root: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  switch (client) {
    case 'json':
      return join(root, '.mcp.json');
    case 'claude':
      return join(home, '.claude.json');
    case 'codex':
      return join(env.CODEX_HOME || join(home, '.codex'), 'config.toml');
    case 'gemini':
      return join(home, '.gemini', 'settings.json');
    case 'opencode':
      return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'opencode', 'opencode.json');
  }
}

/** The entry as the client's config would hold it, printed alone (a file a user can merge or pass). */
export function renderEntry(client: McpClient, name: string, launch: ServerTarget): string {
  if (client === 'codex') return tomlTable(name, launch);
  return `${JSON.stringify(jsonWith(client, {}, name, launch), null, 2)}\n`;
}

/** `existing` (the client's file, or undefined when there is none) with the entry added or replaced. */
export function mergeEntry(
  client: McpClient,
  existing: string | undefined,
  name: string,
  launch: ServerTarget,
  file: string,
): string {
  if (client === 'codex') return mergeToml(existing ?? '', name, launch, file);
  let data: unknown = {};
  if (existing !== undefined && existing.trim() !== '') {
    try {
      data = JSON.parse(existing);
    } catch (err) {
      throw unreadable(
        file,
        `is not plain JSON (${(err as Error).message}); comments are not kept, so awf leaves it alone`,
      );
    }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw unreadable(file, 'is not a JSON object');
  return `${JSON.stringify(jsonWith(client, data as Record<string, unknown>, name, launch), null, 2)}\n`;
}

function jsonWith(
  client: McpClient,
  data: Record<string, unknown>,
  name: string,
  launch: ServerTarget,
): Record<string, unknown> {
  const key = client === 'opencode' ? 'mcp' : 'mcpServers';
  const servers = data[key];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    throw unreadable(key, `must be an object of servers in the existing config`);
  }
  const entry = byUrl(launch)
    ? urlEntry(client, launch)
    : client === 'opencode'
      ? { type: 'local', command: [launch.command, ...launch.args], enabled: true }
      : client === 'claude'
        ? { type: 'stdio', command: launch.command, args: launch.args, env: {} }
        : { command: launch.command, args: launch.args };
  return { ...data, [key]: { ...(servers as Record<string, unknown> | undefined), [name]: entry } };
}

/**
 * Each client's entry for a server reached by URL, the bearer token an environment reference in
 * the client's own syntax (Claude Code and `.mcp.json`: `${VAR}`; Gemini CLI: `$VAR`, and
 * `httpUrl`, as its `url` means SSE; OpenCode: `{env:VAR}`), never its value.
 */
function urlEntry(client: McpClient, target: ServerUrl): Record<string, unknown> {
  const v = target.tokenVar;
  switch (client) {
    case 'gemini':
      return { httpUrl: target.url, headers: { Authorization: `Bearer $${v}` } };
    case 'opencode':
      return { type: 'remote', url: target.url, headers: { Authorization: `Bearer {env:${v}}` }, enabled: true };
    default:
      return { type: 'http', url: target.url, headers: { Authorization: `Bearer \${${v}}` } };
  }
}

/** A TOML string: JSON's escapes are TOML basic-string escapes, for every string JSON.stringify makes. */
const tomlString = (s: string): string => JSON.stringify(s);

function tomlTable(name: string, launch: ServerTarget): string {
  // Codex reads the token from the variable `bearer_token_env_var` names (an inline token it refuses).
  if (byUrl(launch))
    return `[mcp_servers.${name}]\nurl = ${tomlString(launch.url)}\nbearer_token_env_var = ${tomlString(launch.tokenVar)}\n`;
  const args = launch.args.map(tomlString).join(', ');
  return `[mcp_servers.${name}]\ncommand = ${tomlString(launch.command)}\nargs = [${args}]\n`;
}

/**
 * Replaces the `[mcp_servers.<name>]` table (and its sub-tables) of a config.toml, or appends it:
 * TOML tables run to the next table header, so every other line stays byte for byte.
 */
function mergeToml(text: string, name: string, launch: ServerTarget, file: string): string {
  const header = /^\s*\[\s*mcp_servers\s*\.\s*(?:"([^"]*)"|([A-Za-z0-9_-]+))\s*(\.[^\]]*)?\]\s*(#.*)?$/;
  const anyHeader = /^\s*\[/;
  const kept: string[] = [];
  let skipping = false;
  for (const line of text.split('\n')) {
    const m = header.exec(line);
    if (m) skipping = (m[1] ?? m[2]) === name;
    else if (anyHeader.test(line)) skipping = false;
    if (!skipping) kept.push(line);
  }
  const rest = kept.join('\n');
  if (
    new RegExp(`^\\s*mcp_servers\\s*\\.\\s*"?${name}"?\\s*[.=]`, 'm').test(rest) ||
    /^\s*mcp_servers\s*=/m.test(rest)
  ) {
    throw unreadable(
      file,
      `defines mcp_servers.${name} with dotted keys or an inline table; ` +
        `awf only replaces a [mcp_servers.${name}] table`,
    );
  }
  const body = rest.replace(/\s*$/, '');
  return `${body}${body ? '\n\n' : ''}${tomlTable(name, launch)}`;
}

function unreadable(file: string, why: string): AwfError {
  return new AwfError(
    ErrorCodes.CONFIG_INVALID,
    `${file} ${why}`,
    { file },
    'Fix the file, or run without --write and add the printed entry by hand.',
  );
}
