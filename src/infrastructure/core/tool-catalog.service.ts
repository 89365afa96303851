import { Injectable } from '@nestjs/common';
import { ToolRouter } from '../../application/tool-router.service';
import type { ToolDispatcher } from '../../domain/ports/tool-dispatcher.port';
import type { ToolDispatcherFactory } from '../../domain/ports/tool-dispatcher-factory.port';
import type { ToolScope } from '../../domain/ports/tool-scope';
import { ContributionRegistry } from './contribution-registry.service';

/** Opens a ToolRouter over every tool provider and interceptor in the container. */
@Injectable()
export class ToolCatalog implements ToolDispatcherFactory {
  constructor(private readonly registry: ContributionRegistry) {}

  open(scope: ToolScope): Promise<ToolDispatcher> {
    return ToolRouter.open(this.registry.toolProviders(), scope, this.registry.interceptors());
  }
}
