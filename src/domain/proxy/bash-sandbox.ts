import type { PolicyLayer } from '../policy/policy.model';
import type { ProxyLimits } from './proxy-config';

/** Bash under bubblewrap for this step: whether the command may use the network, and who asked. */
export interface BashSandbox {
  network: boolean;
  /** What turned it on, for messages: `limits.bash_sandbox`, `step review: bash_sandbox`. */
  origins: string[];
}

/**
 * Whether a step's Bash runs sandboxed, from the limits and the policy layers. Like every policy
 * rule, it only narrows: one source turning the sandbox on is enough, and the network is allowed
 * only when every source that turned it on allows it (a step cannot reopen what the defaults closed).
 */
export function bashSandboxOf(
  limits: Pick<ProxyLimits, 'bash_sandbox' | 'bash_sandbox_network'>,
  layers: readonly PolicyLayer[] = [],
): BashSandbox | undefined {
  const sources: Array<{ origin: string; network: boolean }> = [];
  if (limits.bash_sandbox) sources.push({ origin: 'limits.bash_sandbox', network: limits.bash_sandbox_network });
  for (const layer of layers) {
    const rule = layer.bash_sandbox;
    if (rule === true) sources.push({ origin: `${layer.origin}: bash_sandbox`, network: false });
    else if (rule && typeof rule === 'object')
      sources.push({ origin: `${layer.origin}: bash_sandbox`, network: rule.network });
  }
  if (sources.length === 0) return undefined;
  return { network: sources.every((s) => s.network), origins: sources.map((s) => s.origin) };
}
