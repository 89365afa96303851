import { join } from 'node:path';
import type { RunIndex } from '../../domain/ports/run-index.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { WorkflowService } from '../../application/workflow/workflow.service';
import { historyReader } from './history/history.reader';
import { type RunDefaults, TuiRuns } from './runs/tui-runs';
import type { TuiServices } from './tui-services';

/**
 * The tui's services from the container's: the Logs tab follows AWF_AUDIT_LOG when it names a
 * file (`off`: nothing), else the audit trail in the run's directory.
 */
export function tuiServices(deps: {
  workflows: WorkflowService;
  index: RunIndex;
  masker: SecretMasker;
  defaults: () => RunDefaults;
  env?: NodeJS.ProcessEnv;
}): TuiServices {
  const env = deps.env ?? process.env;
  const history = historyReader(deps.index);
  return {
    workflows: deps.workflows,
    runs: new TuiRuns(deps.workflows, deps.masker, deps.defaults, history),
    history,
    auditSource: (runId) => {
      if (env.AWF_AUDIT_LOG === 'off') return undefined;
      if (env.AWF_AUDIT_LOG) return { file: env.AWF_AUDIT_LOG };
      return runId ? { dir: join(deps.defaults().runsDir, runId) } : undefined;
    },
    mask: (text) => deps.masker.mask(text),
  };
}
