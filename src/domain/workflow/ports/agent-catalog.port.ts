import type { AgentProvider } from '../../ports/agent-provider.port';

/** The agent providers in the container (`provider:` values a step may name). */
export interface AgentCatalog {
  get(name: string): AgentProvider | undefined;
  names(): string[];
}

export const AGENT_CATALOG = Symbol.for('awf.AgentCatalog');
