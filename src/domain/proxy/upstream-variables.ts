import { AwfError } from '../errors/awf-error';
import { ErrorCodes } from '../errors/error-codes';
import { OAUTH_VARIABLE_KEYS } from './upstream-oauth';
import { expandVariables, type UpstreamServerSpec } from './upstream-server';

/**
 * The spec with every `${NAME}` replaced from `env`: mcp-serve does it with its own
 * environment, in the process that connects, so the step's proxy config never holds the values. An unset name
 * is an error naming it, not an empty token sent to a server.
 */
export function expandedServer(
  spec: UpstreamServerSpec,
  env: Readonly<Record<string, string | undefined>>,
): UpstreamServerSpec {
  const missing = new Set<string>();
  const x = (value: string): string => expandVariables(value, env, missing);
  const map = (m?: Record<string, string>) =>
    m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, x(v)])) : undefined;
  const out: UpstreamServerSpec = {
    ...spec,
    ...(spec.command ? { command: x(spec.command) } : {}),
    ...(spec.args ? { args: spec.args.map(x) } : {}),
    ...(spec.cwd ? { cwd: x(spec.cwd) } : {}),
    ...(spec.url ? { url: x(spec.url) } : {}),
    ...(spec.env ? { env: map(spec.env) } : {}),
    ...(spec.headers ? { headers: map(spec.headers) } : {}),
    ...(spec.oauth ? { oauth: { ...spec.oauth, ...map(pick(spec.oauth, OAUTH_VARIABLE_KEYS)) } } : {}),
  };
  if (missing.size) {
    const names = [...missing];
    throw new AwfError(
      ErrorCodes.MCP_PROXY_UNSET_VARIABLE,
      `MCP server "${spec.name}" names unset environment variable${names.length > 1 ? 's' : ''}: ${names.join(', ')}`,
      { server: spec.name, variables: names },
      `Export ${names.join(', ')} in the environment awf runs in (the agent passes it on to awf mcp-serve).`,
    );
  }
  return out;
}

function pick(o: object, keys: readonly string[]): Record<string, string> {
  const values = o as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => typeof values[k] === 'string').map((k) => [k, values[k] as string]));
}
