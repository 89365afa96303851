import { POLICY_REFUSAL, type PolicyRefusalCode } from '../policy/policy.model';
import { ACP_ERRORS } from './catalogue/acp-errors.catalogue';
import { RELEASE_ERRORS } from './catalogue/release-errors.catalogue';
import { type CatalogueText, entry } from './catalogue/catalogue-entry';
import { EXECUTION_ERRORS, SYSTEM_ERRORS } from './catalogue/execution-errors.catalogue';
import { MCP_PROXY_ERRORS, POLICY_ERRORS } from './catalogue/mcp-proxy-errors.catalogue';
import { USER_ERRORS } from './catalogue/user-errors.catalogue';
import { WORKFLOW_ERRORS } from './catalogue/workflow-errors.catalogue';
import { exitCodeFor, type KnownErrorCode } from './error-codes';

/** One line of `awf error`: a code awf can print, its exit code, and what to do. */
export interface CatalogueEntry extends CatalogueText {
  code: string;
  /** null for a policy refusal: a tool result the agent gets, never a process exit. */
  exitCode: number | null;
}

/** A policy refusal is the `isError` result of one tool call; the agent reads it and the step goes on. */
const REFUSALS: Record<PolicyRefusalCode, CatalogueText> = {
  [POLICY_REFUSAL.tool]: entry(
    "The step's policy refused a call: the tool is not allowed (`tools.allow` / `tools.deny`).",
    'Allow the tool in the policy if the agent needs it; the refusal names the rule that decided.',
  ),
  [POLICY_REFUSAL.path]: entry(
    'The policy refused a path: outside `paths.read` / `paths.write`, or matched by `paths.deny`.',
    'Widen the path rule if the agent needs it; the refusal names the rule that decided.',
  ),
  [POLICY_REFUSAL.command]: entry(
    'The policy refused a Bash command (`bash.allow` / `bash.deny`).',
    'Allow the command pattern if the agent needs it; the refusal names the rule that decided.',
  ),
  [POLICY_REFUSAL.budget]: entry(
    'A policy budget is spent (`calls`, `per_tool`, `write_bytes`, `bash_seconds`); later calls are refused.',
    'Raise the budget in the policy, or give the step a smaller task.',
  ),
  [POLICY_REFUSAL.approval]: entry(
    'A call that the policy sends for approval was declined, or no one answered in time.',
    'Approve it at the `awf run` terminal when asked, or drop the `approve` rule.',
  ),
  [POLICY_REFUSAL.changed]: entry(
    'A tool of an upstream MCP server, a plugin or an extension module differs from what awf pinned of it ' +
      '(description, schemas, annotations, or a new tool; for a plugin or module, under the same version): ' +
      'awf hides it and refuses its calls.',
    'Run `awf mcp trust <server|plugin:name|module:Name>` (the refusal names it) to see what changed and pin ' +
      'it again, if you trust the change; a plugin or module of a new version is pinned anew.',
  ),
};

const CODED: Record<KnownErrorCode, CatalogueText> = {
  ...USER_ERRORS,
  ...ACP_ERRORS,
  ...RELEASE_ERRORS,
  ...MCP_PROXY_ERRORS,
  ...POLICY_ERRORS,
  ...WORKFLOW_ERRORS,
  ...EXECUTION_ERRORS,
  ...SYSTEM_ERRORS,
};

/** Every code awf can print, sorted: the codes of error-codes.ts, then the policy's refusals. */
export const ERROR_CATALOGUE: readonly CatalogueEntry[] = [
  ...Object.entries(CODED).map(([code, text]) => ({ code, exitCode: exitCodeFor(code), ...text })),
  ...Object.entries(REFUSALS).map(([code, text]) => ({ code, exitCode: null, ...text })),
].sort((a, b) => a.code.localeCompare(b.code));

/**
 * AWF's lookup: an exact code first, else every code that starts with the query (`USER`,
 * `WORKFLOW.VALIDATION`); case does not matter. Empty when nothing matches.
 */
export function lookUpErrorCodes(query?: string): CatalogueEntry[] {
  if (!query) return [...ERROR_CATALOGUE];
  const wanted = query.trim().toUpperCase();
  const exact = ERROR_CATALOGUE.find((e) => e.code === wanted);
  if (exact) return [exact];
  return ERROR_CATALOGUE.filter((e) => e.code.startsWith(wanted));
}
