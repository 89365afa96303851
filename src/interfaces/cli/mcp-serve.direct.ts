// `awf mcp-serve --config=<file>` as the startup snapshot runs it: straight to McpServeService,
// without nest-commander (its parsing, and its and commander's share of the snapshot's heap).
// Same container of proxy modules and extensions, same service, same exit codes and error
// rendering as the nest-commander command, which stays the entry of every other launch
// (docs/adr/094-perf-snapshot-serves-without-nest-commander.md). The container without
// extensions is built while the snapshot is built; a start binds it to its process (ADR 094, amended).
import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../../app.module';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { loadExtensionModules } from '../../extensions/extension.loader';
import { loadProjectConfig } from '../../infrastructure/config/project-config.loader';
import { projectDirOf } from '../../infrastructure/config/proxy-config.loader';
import { bindDeferred, dropDeferred } from '../../infrastructure/core/process-bound';
import { McpServeService } from '../../application/serve/mcp-serve.service';
import { markStartPhase } from '../../application/serve/start-phases';
import { reportOutcome } from './cli-errors';

/** The container `mcp-serve` serves from: the proxy's modules, ProxyModule and the extensions. */
export function buildServeContainer(extensions: readonly unknown[] = []): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(AppModule.serve({ extensions }), { logger: false, abortOnError: false });
}

/**
 * The container the startup snapshot holds: no extensions, nothing of any process bound. Nest
 * indexes a container's providers on its first `get`; done here, that index is in the blob.
 */
export async function prebuildServeContainer(): Promise<INestApplicationContext> {
  const app = await buildServeContainer();
  app.get(McpServeService);
  return app;
}

/**
 * Serves until the client or a signal ends it, closes the container; the exit code. `prebuilt`
 * is the container the startup snapshot holds (no extensions, nothing of any process bound
 * yet): it serves when the project lists no extensions, after it is bound to this process.
 * Otherwise it is dropped unused (it has opened nothing) and the container is built here.
 */
export async function serveDirect(configFile: string, prebuilt?: INestApplicationContext): Promise<number> {
  let app: INestApplicationContext | undefined;
  let failure: unknown;
  try {
    // The run's project, not this process's cwd: an agent may start mcp-serve anywhere.
    const projectDir = projectDirOf(configFile);
    const project = loadProjectConfig(projectDir);
    if (prebuilt && project.extensions.length === 0) {
      app = prebuilt;
      bindDeferred();
      markStartPhase('bound'); // in the debug start phases: this start used the snapshot's container
    } else {
      dropDeferred();
      app = await buildServeContainer(loadExtensionModules(project.extensions, projectDir));
    }
    app.useLogger(app.get(Logger)); // Nest's own messages are pino's JSON lines too
    await app.get(McpServeService).serve(configFile);
  } catch (err) {
    failure = err;
  } finally {
    await app?.close().catch(() => undefined);
  }
  const masker = app?.get<SecretMasker>(SECRET_MASKER, { strict: false });
  // A signal ends mcp-serve normally, as in the command: no signal exit code.
  return reportOutcome({ failure }, { mask: (s) => masker?.mask(s) ?? s });
}
