import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import type { Command as Commander } from 'commander';
import { CommandFactory } from 'nest-commander';
import { AppModule } from '../../app.module';
import { commandModules } from './command-modules';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { loadExtensionModules } from '../../extensions/extension.loader';
import { loadProjectConfig } from '../../infrastructure/config/project-config.loader';
import { projectDirOf } from '../../infrastructure/config/proxy-config.loader';
import { serveConfigArg } from './mcp-serve.direct';
import { ProcessSignals } from '../../infrastructure/core/process-signals.service';
import { exitCodeOfError, normalizeError, renderError, wasReportedOnStdout } from './cli-errors';
import { applyGlobalFlags, registerGlobalFlags } from './global-flags';
import { versionText } from '../../version';

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** Build the container, run the command, close the container; map the outcome to an exit code here and only here. */
export async function main(argv: string[]): Promise<number> {
  let failure: unknown;
  let app: INestApplicationContext | undefined;
  const flags = applyGlobalFlags(argv);
  try {
    const command = argv.slice(2).find((a) => !a.startsWith('-'));
    // mcp-serve loads the extensions of the run's project, wherever its agent started it.
    const projectDir = command === 'mcp-serve' ? projectDirOf(serveConfigArg(argv)) : process.cwd();
    const project = loadProjectConfig(projectDir);
    app = await CommandFactory.createWithoutRunning(
      AppModule.register({
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
    configureProgram(rootCommand(app));
    await CommandFactory.runApplication(app);
  } catch (err) {
    failure = err;
  } finally {
    await app?.close().catch(() => undefined);
  }
  const signalled = app?.get(ProcessSignals, { strict: false })?.received;
  const isServe = argv[2] === 'mcp-serve';
  if (failure === undefined) return signalled && !isServe ? SIGNAL_EXIT[signalled] : 0;
  const normalized = normalizeError(failure);
  if ('silentExit' in normalized) return normalized.silentExit;
  const masker = app?.get<SecretMasker>(SECRET_MASKER, { strict: false });
  const mask = (s: string): string => masker?.mask(s) ?? s;
  // -f json: an error before any result is the one JSON object on stdout; after one, it goes to stderr.
  const json = flags.format === 'json';
  const out = json && !wasReportedOnStdout(normalized) ? process.stdout : process.stderr;
  out.write(
    renderError(normalized, json ? 'json' : 'text', mask, {
      hints: flags.hints !== false,
      color: flags.color !== false && !json,
    }),
  );
  return exitCodeOfError(normalized);
}

function rootCommand(app: INestApplicationContext): Commander {
  const { Commander: token } = require('nest-commander/src/constants') as { Commander: symbol };
  return app.get<Commander>(token, { strict: false });
}

/** nest-commander sets the error hook on the root only; sub-commands would call process.exit themselves. */
function configureProgram(program: Commander): void {
  program.name('awf').description('Run AI-agent workflows written in YAML, with an MCP tool proxy per agent step.');
  registerGlobalFlags(program);
  const visit = (cmd: Commander): void => {
    cmd.exitOverride((err) => {
      throw err;
    });
    cmd.configureOutput({ outputError: () => undefined });
    cmd.commands.forEach((c) => visit(c as Commander));
  };
  visit(program);
}

/** The process entry: whichever way awf was started (plain, bundle, snapshot), this runs. */
export function runCli(argv: string[] = process.argv): Promise<void> {
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
