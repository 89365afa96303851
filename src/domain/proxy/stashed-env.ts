/**
 * Where `awf run` parks the caller's NODE_EXTRA_CA_CERTS when it starts a step's `mcp-serve`
 * without it (infrastructure/workflow/proxy-launch.ts): Node parses that file as every process
 * starts, and the proxy needs it only for TLS in its own process.
 */
export const STASHED_EXTRA_CA_CERTS = 'AWF_STASHED_NODE_EXTRA_CA_CERTS';

/**
 * Puts a parked NODE_EXTRA_CA_CERTS back into `env`, so that what the proxy starts (plugins,
 * Bash commands and what they run) gets the caller's environment unchanged. Call it before
 * anything is spawned.
 */
export function restoreStashedEnv(env: Record<string, string | undefined>): void {
  const parked = env[STASHED_EXTRA_CA_CERTS];
  if (parked === undefined) return;
  delete env[STASHED_EXTRA_CA_CERTS];
  if (env.NODE_EXTRA_CA_CERTS === undefined) env.NODE_EXTRA_CA_CERTS = parked;
}
