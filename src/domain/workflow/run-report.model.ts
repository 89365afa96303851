/** What `awf run -f json` prints: the run's status and one entry per executed step. */
export type StepStatus = 'success' | 'failure' | 'cancelled';

export interface StepReport {
  name: string;
  type: 'step' | 'agent';
  status: StepStatus;
  duration_ms: number;
  exit_code: number;
  output: string;
  tool_calls: number;
  attempts?: number;
  error?: RunError;
}

export interface RunError {
  code: string;
  message: string;
  hint?: string;
}

export interface RunReport {
  workflow: string;
  run_id: string;
  status: 'success' | 'failure' | 'cancelled';
  duration_ms: number;
  /** The terminal state reached, if any. */
  terminal?: string;
  /** What `awf run` prints on stdout in text mode. */
  output: string;
  steps: StepReport[];
  error?: RunError;
}
