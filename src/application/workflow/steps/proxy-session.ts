import type { AwfError } from '../../../domain/errors/awf-error';
import type { ProxyInjection } from '../../../domain/ports/agent-provider.port';
import type { McpProxySettings } from '../../../domain/workflow/workflow.model';

/** What an agent step asks of ToolProxyService.start: whose proxy, rooted where, with what settings. */
export interface ProxyStartRequest {
  workflow: string;
  step: string;
  runId: string;
  /** The sandbox root: the step's working directory. */
  rootDir: string;
  settings: McpProxySettings;
  eventsPath?: string;
  /** The step span's W3C traceparent: `mcp-serve` parents its tool-call spans under it. */
  traceparent?: string;
}

/** A step's proxy from start to close: what the agent is given, and what the step watches. */
export interface ProxySession {
  injection: ProxyInjection;
  /** The error the step's mcp-serve recorded when it could not open its tools (ADR 181), if it did. */
  startFailure(): AwfError | undefined;
  /** Calls `listener` once when mcp-serve records such an error; returns what stops watching. */
  onStartFailure(listener: (error: AwfError) => void): () => void;
  /** The rule that makes the step's policy strict (`step review: enforce "strict"`); absent: audit only. */
  strictRule?: string;
  /** Removes the config and its private directory. Idempotent. */
  close(): void;
}
