import { execFileSync } from 'node:child_process';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/** The parts of a registry's package document (`GET <registry>/<name>`) that upgrade reads. */
export interface Packument {
  name: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, { version: string; bin?: Record<string, string>; exports?: Record<string, unknown> }>;
}

const TIMEOUT_MS = 30_000;

/**
 * The npm registry awf is configured with: `npm_config_registry` (how npm passes its config to
 * what it runs), else what `npm config get registry` says (the user's .npmrc included).
 */
export function configuredRegistry(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.npm_config_registry || env.NPM_CONFIG_REGISTRY;
  if (fromEnv) return fromEnv.replace(/\/*$/, '/');
  try {
    const out = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', timeout: TIMEOUT_MS, env });
    return out.trim().replace(/\/*$/, '/');
  } catch (err) {
    throw registryFailed(`cannot ask npm which registry is configured: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** The package's document, or undefined when the registry has no such package (404). */
export async function fetchPackument(registry: string, name: string): Promise<Packument | undefined> {
  const url = `${registry}${name.replace('/', '%2f')}`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    const { cause } = err as { cause?: { code?: string; message?: string } };
    throw registryFailed(`cannot reach ${registry}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (res.status === 404) return undefined;
  if (!res.ok) throw registryFailed(`${url} answered HTTP ${res.status}`);
  try {
    return (await res.json()) as Packument;
  } catch {
    throw registryFailed(`${url} did not answer JSON`);
  }
}

function registryFailed(message: string): AwfError {
  return new AwfError(
    ErrorCodes.UPGRADE_REGISTRY_FAILED,
    message,
    {},
    'Check the network and `npm config get registry`; npm_config_registry names a registry directly.',
  );
}
