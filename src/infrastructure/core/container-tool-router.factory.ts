import { Injectable } from '@nestjs/common';
import { ToolRouterService } from '../../application/tool-router.service';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import type { ToolRouterFactory } from '../../domain/ports/tool-router-factory.port';
import type { ToolScope } from '../../domain/ports/tool-scope';
import { ContributionRegistry } from './contribution-registry.service';

/** Opens a ToolRouterService over every tool provider and interceptor in the container. */
@Injectable()
export class ContainerToolRouterFactory implements ToolRouterFactory {
  constructor(private readonly registry: ContributionRegistry) {}

  open(scope: ToolScope): Promise<ToolRouter> {
    return ToolRouterService.open(this.registry.toolProviders(), scope, this.registry.interceptors());
  }
}
