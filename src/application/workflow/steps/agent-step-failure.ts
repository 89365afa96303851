import { AwfError, isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { withStderrTail } from '../../../domain/errors/stderr-tail';
import type { AgentStep } from '../../../domain/workflow/workflow.model';

/** What may have ended an agent step besides the agent's own error, each already an AwfError. */
export interface AgentStepStops {
  /** The step's `mcp-serve` could not open its tools (ADR 181). */
  proxyFailure?: AwfError;
  /** The agent used its own tools under a strict policy. */
  bypass?: AwfError;
  /** The step's own deadline passed. */
  timedOut: boolean;
}

/**
 * The error an agent step failed with: a stop awf made wins over what the agent reported as it
 * was stopped (in that order: the proxy, the policy, the deadline), then the agent's own error.
 */
export function agentStepError(step: AgentStep, err: unknown, stops: AgentStepStops): AwfError {
  if (stops.proxyFailure) return stops.proxyFailure;
  if (stops.bypass) return stops.bypass;
  if (stops.timedOut) return stepTimedOut(step, err);
  if (isAwfError(err)) return err;
  return new AwfError(
    ErrorCodes.EXECUTION_AGENT_FAILED,
    `step "${step.name}": ${err instanceof Error ? err.message : String(err)}`,
    { step: step.name },
  );
}

/** The state's Output and ExitCode of a failed step: what the provider reported, if it did. */
export function failedAgentState(error: AwfError, timedOut: boolean): { Output: string; ExitCode: number } {
  const { output, exit_code } = error.details;
  return {
    Output: typeof output === 'string' ? output : '',
    ExitCode: typeof exit_code === 'number' ? exit_code : timedOut ? -1 : 1,
  };
}

/**
 * The step's own deadline wins over whatever the provider reported as it was stopped, but the
 * provider's last stderr lines are kept: they usually say what the agent was stuck on.
 */
function stepTimedOut(step: AgentStep, cause: unknown): AwfError {
  const stderr = isAwfError(cause) && Array.isArray(cause.details.stderr) ? (cause.details.stderr as string[]) : [];
  return new AwfError(
    ErrorCodes.EXECUTION_AGENT_TIMEOUT,
    withStderrTail(`step "${step.name}" timed out after ${step.timeoutMs} ms`, stderr),
    { step: step.name, timeout_ms: step.timeoutMs, ...(stderr.length ? { stderr } : {}) },
    'Raise the step timeout, or make the prompt ask for less.',
  );
}
