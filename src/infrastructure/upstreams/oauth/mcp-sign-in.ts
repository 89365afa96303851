import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { AppLogger } from '../../../domain/ports/app-logger.port';
import { expandedServer } from '../../../domain/proxy/upstream-variables';
import type { UpstreamServerSpec } from '../../../domain/proxy/upstream-server';
import { mcpAuthDir, OAuthCredentialsStore } from './oauth-credentials.store';

export interface SignInOutcome {
  /** `signed-in`: a person signed in now; `kept`: the tokens awf had still work; `open`: no OAuth asked. */
  how: 'signed-in' | 'kept' | 'open';
  tools: number;
  file: string;
}

/**
 * `awf mcp login`: connects to a remote server of `.awf/config.yaml` the way a step does, with a
 * person at hand, so a server that asks for OAuth sends them to sign in ($BROWSER, else the URL
 * on stderr) and the tokens are kept for later runs.
 */
export async function signIn(
  servers: Readonly<Record<string, UpstreamServerSpec>>,
  name: string,
  logger: AppLogger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SignInOutcome> {
  const spec = remoteServer(servers, name);
  const store = new OAuthCredentialsStore(mcpAuthDir(), name, new URL(expandedServer(spec, env).url!).href);
  const before = store.read().tokens?.access_token;
  // Required here: the SDK client loads only for the commands that connect.
  const { UpstreamConnection } = require('../upstream-connection') as typeof import('../upstream-connection');
  const connection = await UpstreamConnection.open(spec, logger, env, { dir: mcpAuthDir(), signIn: 'always' });
  const tools = connection.tools.length;
  await connection.close();
  const after = store.read().tokens?.access_token;
  return { how: !after ? 'open' : after === before ? 'kept' : 'signed-in', tools, file: store.file };
}

/** `awf mcp logout`: forgets the server's tokens and registered client; whether there were any. */
export function signOut(servers: Readonly<Record<string, UpstreamServerSpec>>, name: string): boolean {
  const spec = remoteServer(servers, name);
  const store = new OAuthCredentialsStore(mcpAuthDir(), name, spec.url!);
  const had = store.exists();
  store.forget('all');
  return had;
}

function remoteServer(servers: Readonly<Record<string, UpstreamServerSpec>>, name: string): UpstreamServerSpec {
  const spec = servers[name];
  if (!spec) {
    throw new AwfError(
      ErrorCodes.MCP_PROXY_UNKNOWN_SERVER,
      `unknown MCP server "${name}" (in .awf/config.yaml mcp_servers: ${Object.keys(servers).join(', ') || 'none'})`,
      { server: name },
      'Name a server of mcp_servers in .awf/config.yaml (run awf in the project that has it).',
    );
  }
  if (!spec.url) {
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `MCP server "${name}" is a command (stdio): it has no sign-in`,
      { server: name },
      'Sign-in is for remote servers (url); a stdio server takes its credentials from env.',
    );
  }
  return spec;
}
