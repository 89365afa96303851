import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { PROXY_CONFIG_VERSION } from '../../domain/proxy/proxy-config';
import { selfCommand } from '../core/self-command';
import { reviewSnapshotEntries } from './legacy-snapshot-entries';
import { clientConfigFile, type McpClient, mergeEntry, renderEntry, type ServerTarget } from './mcp-client-entry';

export interface McpConfigRequest {
  client: McpClient;
  /** The sandbox root the tools are held to; default the working directory. */
  root?: string;
  /** The server's name in the client's config. */
  name: string;
  /** Merge the entry into the client's own config file instead of only printing it. */
  write: boolean;
  /** A running `awf serve` (its address or its `/mcp`): the entry connects by URL instead of starting a proxy. */
  url?: string;
  /** The environment variable the client reads the serve token from (default AWF_API_TOKEN). */
  tokenVar?: string;
  env?: NodeJS.ProcessEnv;
  note?: (line: string) => void;
}

export interface McpConfigResult {
  /** The entry, in the client's format. */
  entry: string;
  /** The proxy config the entry's command reads (absent for an entry by URL). */
  proxyConfig?: string;
  /** The client config file the entry was merged into, with --write. */
  written?: string;
}

/**
 * `awf mcp-config`: registering `awf mcp-serve` in an MCP client by hand. Writes the proxy
 * config the command needs (awf's own file, one per root and name, under awf's config dir), makes
 * the command `awf run` would hand an agent (this node, this dist/main.js), and renders or merges
 * the client's entry. Every file is written whole, by rename, so an interrupted run leaves the old
 * one. Entries an earlier awf wrote with a startup snapshot are named in a note (see
 * legacy-snapshot-entries.ts).
 */
@Injectable()
export class McpConfigService {
  make(request: McpConfigRequest): McpConfigResult {
    const env = request.env ?? process.env;
    const root = rootDir(request.root ?? process.cwd());
    if (request.url !== undefined) {
      const target = { url: mcpUrl(request.url), tokenVar: request.tokenVar ?? 'AWF_API_TOKEN' };
      return { entry: renderEntry(request.client, request.name, target), ...this.merge(request, root, env, target) };
    }
    const proxyConfig = join(
      awfConfigHome(env),
      'mcp',
      `${request.name}-${basename(root).replace(/[^A-Za-z0-9_-]/g, '_')}-${createHash('sha256').update(root).digest('hex').slice(0, 8)}.json`,
    );
    writeWhole(
      proxyConfig,
      `${JSON.stringify(
        { version: PROXY_CONFIG_VERSION, intercept_builtins: true, plugin_tools: [], root_dir: root },
        null,
        2,
      )}\n`,
    );
    // Written into the agent's config: this command line's own flags (-q, --log-file) are not kept.
    const launch = selfCommand(['mcp-serve', `--config=${proxyConfig}`], undefined, false);
    const entry = renderEntry(request.client, request.name, launch);
    const merged = this.merge(request, root, env, launch);
    for (const line of reviewSnapshotEntries(root, env)) request.note?.(line);
    return { entry, proxyConfig, ...merged };
  }

  private merge(request: McpConfigRequest, root: string, env: NodeJS.ProcessEnv, target: ServerTarget) {
    if (!request.write) return {};
    const written = clientConfigFile(request.client, root, env);
    const existing = existsSync(written) ? readFileSync(written, 'utf8') : undefined;
    writeWhole(written, mergeEntry(request.client, existing, request.name, target, written));
    return { written };
  }
}

/** The `/mcp` of the server at `url` (its address, or already its `/mcp`); http(s) only. */
function mcpUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const credentials = !!parsed && (parsed.username !== '' || parsed.password !== '' || parsed.search !== '');
  if (!parsed || !/^https?:$/.test(parsed.protocol) || credentials) {
    // A URL with credentials in it is not repeated: the message may end up in a log.
    const shown = parsed && credentials ? `${parsed.protocol}//${parsed.host}${parsed.pathname}` : url;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `--url ${shown} is not the plain http(s) address of an awf serve${credentials ? ' (it carries credentials or a query)' : ''}`,
      { url: shown },
      'Give the address `awf serve` printed, e.g. --url http://127.0.0.1:2511; the token goes in an environment variable.',
    );
  }
  if (!parsed.pathname.replace(/\/+$/, '').endsWith('/mcp'))
    parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/mcp`;
  return parsed.toString();
}

function rootDir(dir: string): string {
  try {
    const real = realpathSync(dir);
    if (statSync(real).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    `--root ${dir} is not a directory`,
    { root: dir },
    'Give --root the project directory the tools may work in.',
  );
}

function awfConfigHome(env: NodeJS.ProcessEnv): string {
  return env.AWF_CONFIG_HOME ?? join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'awf');
}

/** Temp file next to the target, then rename; an existing file keeps its mode. */
function writeWhole(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, text, { mode });
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}
