import type { PolicyLayer, PolicySpec } from './policy.model';

/** Where a step's policy layer came from, as errors and audit lines name it. */
export const PROJECT_POLICY_ORIGIN = '.awf/config.yaml';

/**
 * A step's effective policy, as layers: `.awf/config.yaml`'s first, then the step's own. Each
 * layer must allow a call, so a step only narrows the project's policy. An empty one is none.
 */
export function stepPolicyLayers(
  project: PolicySpec | undefined,
  step: PolicySpec | undefined,
  name: string,
): PolicyLayer[] {
  const layers: PolicyLayer[] = [];
  if (project && Object.keys(project).length) layers.push({ origin: PROJECT_POLICY_ORIGIN, ...project });
  if (step && Object.keys(step).length) layers.push({ origin: `step ${name}`, ...step });
  return layers;
}
