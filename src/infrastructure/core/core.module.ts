// CoreModule (global): the logger, the secret masker, and the discovery of contributions
// (tool providers, interceptors, agent providers) from every module in the container.
// It stands in for DESIGN.md's "DomainModule": the domain itself stays free of Nest.
// Must never import a feature module (tools, plugins, mcp, agents): they plug in by marker.
import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { PROCESS_LIFETIME } from '../../domain/ports/process-lifetime.port';
import { APP_LOGGER, SECRET_MASKER, TOOL_ROUTER_FACTORY } from '../../domain/ports/tokens';
import { ContributionRegistry } from './contribution-registry.service';
import { ProcessSignals } from './process-signals.service';
import { processLogger, processSecretMasker } from './process-logging';
import { ContainerToolRouterFactory } from './container-tool-router.factory';

@Global()
@Module({
  imports: [
    DiscoveryModule,
    LoggerModule.forRootAsync({
      useFactory: () => ({ pinoHttp: { logger: processLogger as unknown as Logger }, renameContext: 'component' }),
    }),
  ],
  providers: [
    { provide: SECRET_MASKER, useValue: processSecretMasker },
    { provide: APP_LOGGER, useValue: processLogger },
    ContributionRegistry,
    ProcessSignals,
    { provide: PROCESS_LIFETIME, useExisting: ProcessSignals },
    ContainerToolRouterFactory,
    { provide: TOOL_ROUTER_FACTORY, useExisting: ContainerToolRouterFactory },
  ],
  exports: [SECRET_MASKER, APP_LOGGER, ContributionRegistry, ProcessSignals, PROCESS_LIFETIME, TOOL_ROUTER_FACTORY],
})
export class CoreModule {}
