import { Inject, Injectable } from '@nestjs/common';
import { isAwfError } from '../../domain/errors/awf-error';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { APP_LOGGER } from '../../domain/ports/tokens';
import { ToolRouterService } from '../../application/tool-router.service';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import type { ToolRouterFactory } from '../../domain/ports/tool-router-factory.port';
import type { ToolScope } from '../../domain/ports/tool-scope';
import { ContributionRegistry } from './contribution-registry.service';

/** Opens a ToolRouterService over every tool provider and interceptor in the container. */
@Injectable()
export class ContainerToolRouterFactory implements ToolRouterFactory {
  constructor(
    private readonly registry: ContributionRegistry,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  open(scope: ToolScope): Promise<ToolRouter> {
    return ToolRouterService.open(
      this.registry.toolProviders(),
      scope,
      this.registry.interceptors(),
      undefined,
      (err) =>
        this.logger.warn(
          { code: isAwfError(err) ? err.code : undefined, reason: (err as Error).message },
          'a tool source changed its tools in a way that cannot be served; the tools served before stay',
        ),
    );
  }
}
