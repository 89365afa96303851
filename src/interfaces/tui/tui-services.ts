import type { WorkflowService } from '../../application/workflow/workflow.service';
import type { HistoryReader } from './history/history.reader';
import type { AuditSource } from './logs/audit-tail';
import type { TuiRuns } from './runs/tui-runs';

/** What the tui's tabs call: application services only, wired by `awf tui` (interfaces/cli/tui). */
export interface TuiServices {
  workflows: Pick<WorkflowService, 'list' | 'describe' | 'validate'>;
  runs: TuiRuns;
  history: HistoryReader;
  /** The audit trail the Logs tab follows for a run (AWF_AUDIT_LOG names one file instead); none when off. */
  auditSource(runId: string | undefined): AuditSource | undefined;
  /** awf's masker: every text drawn that could hold a secret goes through it. */
  mask(text: string): string;
}

/** What each tab gets from the frame around it. */
export interface TabProps {
  services: TuiServices;
  /** The tab is on screen: only then does it read keys. */
  active: boolean;
  /** A text field of the tab has focus: it takes every key, the frame's too (1–4, q, ?). */
  capture(on: boolean): void;
  /** Shows the Monitoring tab (a launched run). */
  showMonitoring(): void;
  /** Terminal rows the tab may fill. */
  rows: number;
}
