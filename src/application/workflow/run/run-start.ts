import { join } from 'node:path';
import type { WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import type { Workflow } from '../../../domain/workflow/workflow.model';
import { awfDirsOf } from './awf-dirs';
import type { RunContext } from './run-context';
import type { RunOptions } from '../steps/step-runner';
import { workflowEnv } from './workflow-env';

/** A run's context as it starts: the workflow's own `env:` over the caller's, the seeded states only. */
export function startContext(
  workflow: Workflow,
  runId: string,
  options: RunOptions,
  files?: WorkflowFiles,
): RunContext {
  return {
    workflow,
    runId,
    runDir: join(options.runsDir, runId),
    inputs: options.inputs,
    // The workflow's own `env:` mapping over the caller's (a called workflow's too); its list warns.
    env: workflowEnv(workflow, options.env, (m) => options.observer?.warn?.(m)),
    states: { ...options.seedStates },
    startedAt: new Date(),
    current: options.startAt ?? workflow.initial,
    signal: options.signal,
    cwd: options.cwd,
    callStack: [...(options.callStack ?? []), workflow.id],
    reports: [],
    // Shared by reference with every step's scoped copy, so a later step can continue an earlier one.
    conversations: {},
    observer: options.observer,
    userInput: options.userInput,
    files,
    awf: awfDirsOf(workflow, options.env),
    ...(options.branches ? { branches: options.branches } : {}),
  };
}
