import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { AGENT_PROVIDER_MARK, hasMark, TOOL_INTERCEPTOR_MARK, TOOL_PROVIDER_MARK } from '../../domain/ports/markers';
import type { AgentProvider } from '../../domain/ports/agent-provider.port';
import type { ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import type { ToolProvider } from '../../domain/ports/tool-provider.port';

/**
 * Finds every marked contribution in the container — ours and user extension modules'
 * alike — so adding a tool source, interceptor or agent is adding a module. Looked up on
 * first use, when every provider of every module has been instantiated.
 */
@Injectable()
export class ContributionRegistry {
  private cache?: { tools: ToolProvider[]; interceptors: ToolCallInterceptor[]; agents: AgentProvider[] };

  constructor(private readonly discovery: DiscoveryService) {}

  toolProviders(): ToolProvider[] {
    return this.collect().tools;
  }

  interceptors(): ToolCallInterceptor[] {
    return this.collect().interceptors;
  }

  agentProviders(): AgentProvider[] {
    return this.collect().agents;
  }

  private collect() {
    if (!this.cache) {
      const instances = [...new Set(this.discovery.getProviders().map((w) => w.instance as unknown))];
      this.cache = {
        tools: instances.filter((i) => hasMark(i, TOOL_PROVIDER_MARK)) as ToolProvider[],
        interceptors: instances.filter((i) => hasMark(i, TOOL_INTERCEPTOR_MARK)) as ToolCallInterceptor[],
        agents: instances.filter((i) => hasMark(i, AGENT_PROVIDER_MARK)) as AgentProvider[],
      };
    }
    return this.cache;
  }
}
