import { Injectable } from '@nestjs/common';
import { DiscoveryService, ModulesContainer } from '@nestjs/core';
import { AGENT_PROVIDER_MARK, hasMark, TOOL_INTERCEPTOR_MARK, TOOL_PROVIDER_MARK } from '../../domain/ports/markers';
import type { AgentProvider } from '../../domain/ports/agent-provider.port';
import type { ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import type { ToolProvider } from '../../domain/ports/tool-provider.port';
import { extensionModules, PinnedExtensionTools } from './extension-pins';

/**
 * Finds every marked contribution in the container — ours and user extension modules'
 * alike — so adding a tool source, interceptor or agent is adding a module. Looked up on
 * first use, when every provider of every module has been instantiated. An extension module's
 * tool providers come with their tools pinned by the extension's package version (ADR 305).
 */
@Injectable()
export class ContributionRegistry {
  private cache?: { tools: ToolProvider[]; interceptors: ToolCallInterceptor[]; agents: AgentProvider[] };

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly modules: ModulesContainer,
  ) {}

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
      const wrappers = this.discovery.getProviders();
      const instances = [...new Set(wrappers.map((w) => w.instance as unknown))];
      const extensions = extensionModules(this.modules.values());
      const tools = new Map<unknown, ToolProvider>();
      for (const { instance, host } of wrappers) {
        if (!hasMark(instance, TOOL_PROVIDER_MARK) || tools.has(instance)) continue;
        const pkg = host && extensions.get(host);
        tools.set(instance, pkg ? new PinnedExtensionTools(instance as ToolProvider, pkg) : (instance as ToolProvider));
      }
      this.cache = {
        tools: [...tools.values()],
        interceptors: instances.filter((i) => hasMark(i, TOOL_INTERCEPTOR_MARK)) as ToolCallInterceptor[],
        agents: instances.filter((i) => hasMark(i, AGENT_PROVIDER_MARK)) as AgentProvider[],
      };
    }
    return this.cache;
  }
}
