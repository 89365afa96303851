// CoreModule (global): the logger, the secret masker, and the discovery of contributions
// (tool providers, interceptors, agent providers) from every module in the container.
// It stands in for DESIGN.md's "DomainModule": the domain itself stays free of Nest.
// Must never import a feature module (tools, plugins, mcp, agents): they plug in by marker.
import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ValueSecretMasker } from '../../application/secret-masker.service';
import { APP_LOGGER, SECRET_MASKER, TOOL_ROUTER_FACTORY } from '../../domain/ports/tokens';
import { createPinoLogger } from '../logging/pino-logger.factory';
import { ContributionRegistry } from './contribution-registry.service';
import { ProcessSignals } from './process-signals.service';
import { ToolCatalog } from './tool-catalog.service';

// Made on first injection, never at import: the masker reads the environment and the logger
// the pid and fd 2, which a startup snapshot would otherwise freeze at build time.
let shared: { masker: ValueSecretMasker; logger: ReturnType<typeof createPinoLogger> } | undefined;
function processServices() {
  if (!shared) {
    const masker = new ValueSecretMasker();
    shared = { masker, logger: createPinoLogger(masker) };
  }
  return shared;
}

@Global()
@Module({
  imports: [DiscoveryModule, LoggerModule.forRootAsync({ useFactory: () => ({ pinoHttp: { logger: processServices().logger }, renameContext: 'component' }) })],
  providers: [
    { provide: SECRET_MASKER, useFactory: () => processServices().masker },
    { provide: APP_LOGGER, useFactory: () => processServices().logger },
    ContributionRegistry,
    ProcessSignals,
    ToolCatalog,
    { provide: TOOL_ROUTER_FACTORY, useExisting: ToolCatalog },
  ],
  exports: [SECRET_MASKER, APP_LOGGER, ContributionRegistry, ProcessSignals, TOOL_ROUTER_FACTORY],
})
export class CoreModule {}
