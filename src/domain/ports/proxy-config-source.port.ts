import type { ProxyConfig } from '../proxy/proxy-config';

/**
 * Reads the step's proxy config that `awf run` wrote. Every problem (missing file, bad JSON,
 * unknown key, wrong type) rejects with a `USER.MCP_PROXY.*` error naming the file, so a stale
 * or hand-edited config fails at start, before anything is served.
 */
export interface ProxyConfigSource {
  load(file: string): ProxyConfig;
}

export const PROXY_CONFIG_SOURCE = Symbol.for('awf.ProxyConfigSource');
