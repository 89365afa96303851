import type { ExecutionHub } from '../../application/http-api/execution-hub.service';
import type { WorkflowService } from '../../application/workflow/workflow.service';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { KeptApprovals } from '../../domain/ports/exact-approvals.port';
import type { RunHistory } from '../../domain/ports/run-history.port';
import type { RunIndex } from '../../domain/ports/run-index.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';

/**
 * What the API's controllers use, handed over from the CLI's container by `awf serve`: the
 * same WorkflowService, history and masker `awf run` uses, and the hub of runs started here.
 * One plain object under one token, so the edge's own container owns none of their lifecycles.
 */
export interface HttpApiContext {
  hub: ExecutionHub;
  workflows: WorkflowService;
  index: RunIndex;
  runs: RunHistory;
  masker: SecretMasker;
  logger: AppLogger;
  /** The exact approvals of the server's data dir (ADR 265). */
  exactApprovals: KeptApprovals;
}

export const HTTP_API = Symbol.for('awf.HttpApiContext');
