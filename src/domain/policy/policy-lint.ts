import { compileGlob, isLiteralGlob } from './policy-glob';
import { type PolicyLayer, strictRule } from './policy.model';
import { POLICY_PROBLEM, type PolicyProblem } from './policy.parser';
import { ToolPolicy } from './tool-policy';

export interface LintedProblem extends PolicyProblem {
  severity: 'error' | 'warning';
}

/**
 * What `awf validate` finds in a step's effective policy beyond its syntax: an allow list
 * naming no served tool, and rules that can never match because another rule (in the same
 * layer or the defaults) always wins. `served` are the step's tool names; `complete` is false
 * when some tool source (an extension module) is only known at run time, and then unknown
 * names are warnings. `pathOf(origin)` is where a layer is written, for the problem's path.
 */
export function lintPolicy(
  layers: readonly PolicyLayer[],
  served: readonly string[],
  complete: boolean,
  pathOf: (origin: string) => string,
): LintedProblem[] {
  const policy = new ToolPolicy(layers);
  const offered = served.filter((t) => !policy.checkTool(t));
  const out: LintedProblem[] = [];
  const push = (code: string, path: string, message: string, severity: 'error' | 'warning' = 'error'): void =>
    void out.push({ code, path, message, severity });
  for (const layer of layers) {
    const at = pathOf(layer.origin);
    const names = (pattern: string): string[] => served.filter((t) => compileGlob(pattern, 'name').test(t));
    layer.tools?.allow?.forEach((p, i) => {
      const matched = names(p);
      if (matched.length === 0)
        push(
          POLICY_PROBLEM.noSuchTool,
          `${at}.tools.allow[${i}]`,
          `"${p}" names no tool this step serves (${served.join(', ') || 'none'})`,
          complete ? 'error' : 'warning',
        );
      else if (!matched.some((t) => offered.includes(t)))
        push(
          POLICY_PROBLEM.neverMatches,
          `${at}.tools.allow[${i}]`,
          `"${p}" can never match: ${matched.join(', ')} ${matched.length > 1 ? 'are' : 'is'} denied by another rule`,
        );
    });
    layer.tools?.deny?.forEach((p, i) => {
      if (names(p).length === 0)
        push(POLICY_PROBLEM.noSuchTool, `${at}.tools.deny[${i}]`, `"${p}" names no tool this step serves`, 'warning');
    });
    layer.approve?.forEach((a, i) => {
      const tool = a.match.split(':')[0];
      if (!offered.some((t) => compileGlob(tool, 'name').test(t)))
        push(
          POLICY_PROBLEM.neverMatches,
          `${at}.approve[${i}]`,
          `"${a.match}" can never match: no tool it names is offered to this step`,
          complete ? 'error' : 'warning',
        );
    });
    Object.keys(layer.budgets?.per_tool ?? {}).forEach((tool) => {
      if (!offered.includes(tool))
        push(
          POLICY_PROBLEM.neverMatches,
          `${at}.budgets.per_tool.${tool}`,
          `${tool} is not offered to this step`,
          'warning',
        );
    });
    layer.bash?.allow?.forEach((p, i) => {
      const deny = layer.bash?.deny?.find((d) => d === p);
      const literal = isLiteralGlob(p) ? policy.checkCommand(p) : undefined;
      if (deny || literal)
        push(
          POLICY_PROBLEM.neverMatches,
          `${at}.bash.allow[${i}]`,
          `"${p}" can never match: ${literal?.rule ?? `bash.deny "${deny}"`} always refuses it`,
        );
    });
    if ((layer.bash?.allow || layer.bash?.deny) && !offered.includes('Bash'))
      push(
        POLICY_PROBLEM.neverMatches,
        `${at}.bash`,
        'bash rules can never match: Bash is not offered to this step',
        'warning',
      );
    for (const field of ['read', 'write'] as const) {
      layer.paths?.[field]?.forEach((p, i) => {
        const refused = isLiteralGlob(p)
          ? policy.checkPath(p, field)
          : layer.paths?.deny?.includes(p)
            ? { rule: `paths.deny "${p}"` }
            : undefined;
        if (refused)
          push(
            POLICY_PROBLEM.neverMatches,
            `${at}.paths.${field}[${i}]`,
            `"${p}" can never match: ${refused.rule} always refuses it`,
          );
      });
    }
    const strict = strictRule(layers);
    if (layer.enforce === 'audit' && strict)
      push(
        POLICY_PROBLEM.neverMatches,
        `${at}.enforce`,
        `enforce "audit" has no effect: ${strict} (a step can only narrow the defaults)`,
        'warning',
      );
  }
  return out;
}
