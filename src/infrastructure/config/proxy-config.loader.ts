import { readFileSync } from 'node:fs';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ProxyConfig } from '../../domain/proxy/proxy-config';
import { KNOWN_KEYS, proxyConfigProblems } from './proxy-config.schema';

/**
 * Reads and validates the step's proxy config. Every problem is a USER error naming the
 * file, so a hand-edited or stale config fails at start, before anything is served.
 */
export function loadProxyConfig(file: string): ProxyConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AwfError(
      ErrorCodes.MCP_PROXY_CONFIG_MISSING,
      `cannot read proxy config ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      { file },
      'Pass --config=<file> with the path of an existing proxy config (awf run writes one per agent step).',
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new AwfError(
      ErrorCodes.MCP_PROXY_CONFIG_INVALID,
      `proxy config ${file} is not valid JSON: ${(err as Error).message}`,
      { file },
    );
  }
  return parseProxyConfig(raw, file);
}

export function parseProxyConfig(raw: unknown, file = '<config>'): ProxyConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new AwfError(ErrorCodes.MCP_PROXY_CONFIG_INVALID, `proxy config ${file} must be a JSON object`, { file });
  }
  const unknown = unknownKeys(raw as Record<string, unknown>);
  if (unknown.length > 0) {
    throw new AwfError(
      ErrorCodes.MCP_PROXY_UNKNOWN_KEY,
      `proxy config ${file} has unknown key${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
      { file, keys: unknown },
      `Allowed top-level keys: ${KNOWN_KEYS.root.join(', ')}.`,
    );
  }
  const problems = proxyConfigProblems(raw as Record<string, unknown>);
  if (problems.length > 0) {
    throw new AwfError(ErrorCodes.MCP_PROXY_CONFIG_INVALID, `proxy config ${file} is invalid: ${problems.join('; ')}`, {
      file,
      problems,
    });
  }
  return raw as ProxyConfig;
}

function unknownKeys(raw: Record<string, unknown>): string[] {
  const found = extra(raw, KNOWN_KEYS.root, '');
  if (Array.isArray(raw.plugin_tools)) {
    raw.plugin_tools.forEach((spec, i) => found.push(...extra(spec, KNOWN_KEYS.plugin_tools, `plugin_tools[${i}].`)));
  }
  if (Array.isArray(raw.upstreams)) {
    raw.upstreams.forEach((spec, i) => found.push(...extra(spec, KNOWN_KEYS.upstreams, `upstreams[${i}].`)));
  }
  found.push(...extra(raw.telemetry, KNOWN_KEYS.telemetry, 'telemetry.'));
  found.push(
    ...extra((raw.telemetry as { metrics?: unknown } | undefined)?.metrics, KNOWN_KEYS.metrics, 'telemetry.metrics.'),
  );
  found.push(...extra(raw.limits, KNOWN_KEYS.limits, 'limits.'));
  return found;
}

function extra(value: unknown, allowed: readonly string[], prefix: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value)
    .filter((k) => !allowed.includes(k))
    .map((k) => prefix + k);
}

/**
 * The `project_dir` a config file names, read before `mcp-serve` builds its container (the
 * project's extensions go into it); `fallback` when there is none. Anything wrong with the
 * file is left to the full load, which reports it.
 */
export function projectDirOf(file: string | undefined, fallback: string = process.cwd()): string {
  if (!file) return fallback;
  try {
    const dir = (JSON.parse(readFileSync(file, 'utf8')) as { project_dir?: unknown }).project_dir;
    return typeof dir === 'string' && dir.startsWith('/') ? dir : fallback;
  } catch {
    return fallback;
  }
}
