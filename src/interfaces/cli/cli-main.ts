import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { Command } from 'commander';
import { CommandFactory } from 'nest-commander';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../../app.module';
import { commandModules } from './command-modules';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { loadExtensionModules } from '../../extensions/extension.loader';
import { emptyProjectConfig, loadProjectConfig } from '../../infrastructure/config/project-config.loader';
import { projectDirOf } from '../../infrastructure/config/proxy-config.loader';
import { ProcessSignals } from '../../infrastructure/core/process-signals.service';
import { reportOutcome } from './cli-errors';
import { applyStartupFlags, readStartupArgs, serveConfigArg } from './startup-argv';
import { versionText } from '../../version';

/**
 * What works without reading `.awf/config.yaml`: `--version`, `--help`, and the commands that
 * explain things (`error`) or set up the shell (`completion`), so they still answer in a
 * project whose config is broken, which is when a user looks an error code up.
 */
const WITHOUT_PROJECT: ReadonlySet<string | undefined> = new Set([undefined, 'help', 'error', 'completion']);

/** Build the container, run the command, close the container; the exit code (cli-errors.ts maps it). */
export async function main(argv: string[]): Promise<number> {
  let failure: unknown;
  let app: INestApplicationContext | undefined;
  const { command, flags } = readStartupArgs(argv, new Command());
  applyStartupFlags(flags);
  try {
    // mcp-serve loads the extensions of the run's project, wherever its agent started it.
    const projectDir = command === 'mcp-serve' ? projectDirOf(serveConfigArg(argv)) : process.cwd();
    // The one read of .awf/config.yaml in this process.
    const project = WITHOUT_PROJECT.has(command) ? emptyProjectConfig() : loadProjectConfig(projectDir);
    app = await CommandFactory.createWithoutRunning(
      AppModule.register({
        project,
        extensions: loadExtensionModules(project.extensions, projectDir),
        commandModules: commandModules(command),
      }),
      {
        logger: false,
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
    // mcp-serve and serve end normally on a signal: that is how they are stopped.
    { failure, signal: command === 'mcp-serve' || command === 'serve' ? undefined : signal },
    { ...flags, mask: (s) => masker?.mask(s) ?? s },
  );
}

/** The process entry: whichever way awf was started (plain, bundle, snapshot), this runs. */
export function runCli(argv: string[]): Promise<void> {
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`[SYSTEM.INTERNAL.UNEXPECTED] ${String(err)}\n`);
      process.exitCode = 4;
    },
  );
}
