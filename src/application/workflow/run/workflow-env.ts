import { ErrorCodes } from '../../../domain/errors/error-codes';
import { isSecretInputName } from '../../../domain/workflow/secret-names';
import type { Workflow } from '../../../domain/workflow/workflow.model';
import { SECRET_NAME_PATTERN } from '../../secret-masker.service';

/**
 * The run's environment under the workflow's `env:` (ADR 236): awf's mapping is laid over the
 * process environment for every command, hook and agent, and `{{.env.*}}`. AWF's list names
 * variables the workflow expects; AWF reads it and checks nothing, so an unset one is a warning
 * (`warn`, one line naming every missing one) and the run goes on.
 */
export function workflowEnv(
  workflow: Workflow,
  env: Record<string, string>,
  warn?: (message: string) => void,
): Record<string, string> {
  const missing = (workflow.env?.required ?? []).filter((name) => !env[name]);
  if (missing.length > 0 && warn)
    warn(
      `[${ErrorCodes.ENV_MISSING}] ${workflow.name} lists ${missing.join(', ')} in env:, and ` +
        `${missing.length === 1 ? 'it is' : 'they are'} not set; the run goes on (a step that needs ` +
        `${missing.length === 1 ? 'it' : 'them'} may fail)`,
    );
  return { ...env, ...workflow.env?.set };
}

/** Values of the mapping whose names look secret (awf's env rule, or AWF's input prefixes): masked like inputs. */
export function secretEnvValues(workflow: Workflow): string[] {
  return Object.entries(workflow.env?.set ?? {})
    .filter(([name]) => SECRET_NAME_PATTERN.test(name) || isSecretInputName(name))
    .map(([, value]) => value);
}
