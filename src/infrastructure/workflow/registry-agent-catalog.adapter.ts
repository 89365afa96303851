import { Injectable } from '@nestjs/common';
import type { AgentProvider } from '../../domain/ports/agent-provider.port';
import type { AgentCatalog } from '../../domain/workflow/ports/agent-catalog.port';
import { ContributionRegistry } from '../core/contribution-registry.service';

/** Agent providers are whatever @ProvidesAgent() classes the container holds, ours or a user module's. */
@Injectable()
export class RegistryAgentCatalog implements AgentCatalog {
  constructor(private readonly registry: ContributionRegistry) {}

  get(name: string): AgentProvider | undefined {
    return this.registry.agentProviders().find((p) => p.name === name);
  }

  names(): string[] {
    return this.registry
      .agentProviders()
      .map((p) => p.name)
      .sort();
  }
}
