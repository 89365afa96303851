import type { INestApplicationContext } from '@nestjs/common';
import { CommandFactory } from 'nest-commander';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../../app.module';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { loadExtensionModules } from '../../extensions/extension.loader';
import { emptyProjectConfig, loadProjectConfig } from '../../infrastructure/config/project-config.loader';
import { projectDirOf } from '../../infrastructure/config/proxy-config.loader';
import { ProcessSignals } from '../../infrastructure/core/process-signals.service';
import { reportOutcome } from './cli-errors';
import { type CommandEntry, CommandModule } from './command-table';
import type { GlobalFlags } from './global-flags';
import { serveConfigArg } from './startup-argv';
import { versionText } from '../../version';

/** Commands a signal is how they are stopped: they end normally on one. */
const STOPPED_BY_SIGNAL = new Set(['mcp-serve', 'serve', 'acp-serve', 'worker']);

/**
 * Runs a known command in a container of its own modules (command-table.ts), the project's config
 * and its extensions; closes the container; the exit code.
 */

export async function runCommand(
  entry: CommandEntry,
  command: string,
  argv: string[],
  flags: Partial<GlobalFlags>,
): Promise<number> {
  let failure: unknown;
  let app: INestApplicationContext | undefined;
  try {
    // mcp-serve loads the extensions of the run's project, wherever its agent started it.
    const projectDir = command === 'mcp-serve' ? projectDirOf(serveConfigArg(argv)) : process.cwd();
    // The one read of .awf/config.yaml in this process. `awf error` answers in a broken project.
    const project = entry.readsProject === false ? emptyProjectConfig() : loadProjectConfig(projectDir);
    app = await CommandFactory.createWithoutRunning(
      AppModule.register({
        project,
        extensions: loadExtensionModules(project.extensions, projectDir),
        commandModules: [CommandModule.of(entry)],
        history: flags.history,
      }),
      {
        logger: false,
        abortOnError: false, // a container that cannot be built is an error we report, not an exit
        cliName: 'awf',
        version: versionText(),
        errorHandler: (err) => {
          throw err;
        },
        serviceErrorHandler: (err) => {
          failure = err;
        },
        outputConfiguration: { outputError: () => undefined },
      },
    );
    // Nest's own messages (it is silent while the container is built) go through pino too.
    app.useLogger(app.get(Logger));
    await CommandFactory.runApplication(app);
  } catch (err) {
    failure = err;
  } finally {
    await app?.close().catch(() => undefined);
  }
  const signal = app?.get(ProcessSignals, { strict: false })?.received;
  const masker = app?.get<SecretMasker>(SECRET_MASKER, { strict: false });
  return reportOutcome(
    // The servers and workers end normally on a signal: that is how they are stopped.
    { failure, signal: STOPPED_BY_SIGNAL.has(command) ? undefined : signal },
    { ...flags, mask: (s) => masker?.mask(s) ?? s },
  );
}
