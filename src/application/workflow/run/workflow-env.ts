import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { isSecretInputName } from '../../../domain/workflow/secret-names';
import type { Workflow } from '../../../domain/workflow/workflow.model';
import { SECRET_NAME_PATTERN } from '../../secret-masker.service';

/**
 * The run's environment under the workflow's `env:` (ADR 236): AWF's list names variables that
 * must be set, checked before anything runs (one error listing every missing one); awf's mapping
 * is laid over the process environment for every command, hook and agent, and `{{.env.*}}`.
 */
export function workflowEnv(workflow: Workflow, env: Record<string, string>): Record<string, string> {
  const missing = (workflow.env?.required ?? []).filter((name) => !env[name]);
  if (missing.length > 0)
    throw new AwfError(
      ErrorCodes.ENV_MISSING,
      `${workflow.name} needs ${missing.join(', ')} in the environment (its env: list), and ` +
        `${missing.length === 1 ? 'it is' : 'they are'} not set`,
      { missing },
      `Export ${missing.join(', ')} before awf run.`,
    );
  return { ...env, ...workflow.env?.set };
}

/** Values of the mapping whose names look secret (awf's env rule, or AWF's input prefixes): masked like inputs. */
export function secretEnvValues(workflow: Workflow): string[] {
  return Object.entries(workflow.env?.set ?? {})
    .filter(([name]) => SECRET_NAME_PATTERN.test(name) || isSecretInputName(name))
    .map(([, value]) => value);
}
