import { Command, type Command as Commander } from 'commander';
import { CommandRunnerService } from 'nest-commander';
import { allCommandClasses } from './command-table';
import { CliProgram } from './cli-program';
import { reportOutcome } from './cli-errors';
import type { GlobalFlags } from './global-flags';
import { versionText } from '../../version';

type CommandClass = abstract new (...args: never[]) => object;
interface Found {
  name: string;
  instance: object;
  type: CommandClass;
}

/**
 * The whole command tree without a container, for `awf --help`, `awf help …`, `awf completion` and
 * an unknown command (commander's did-you-mean): nest-commander's own builder makes it, so help and
 * completion list exactly what each command's container parses. Commands are not constructed:
 * their option parsers and `run` of a command without dependencies (completion) are all it calls.
 * The discovery below is the part of @golevelup's DiscoveryService that builder uses, over the
 * command classes instead of a container's providers.
 */
class CommandClassDiscovery {
  private readonly found: Found[];

  constructor(classes: CommandClass[]) {
    this.found = classes.map((type) => ({ name: type.name, instance: Object.create(type.prototype) as object, type }));
  }

  providersWithMetaAtKey(key: string): Array<{ meta: unknown; discoveredClass: Found }> {
    return this.found
      .filter((f) => Reflect.getMetadata(key, f.type) !== undefined)
      .map((f) => ({ meta: Reflect.getMetadata(key, f.type) as unknown, discoveredClass: f }));
  }

  providerMethodsWithMetaAtKey(
    key: string,
    filter: (found: Found) => boolean = () => true,
  ): Array<{ meta: unknown; discoveredMethod: { handler: unknown; methodName: string; parentClass: Found } }> {
    return this.found.filter(filter).flatMap((parentClass) =>
      methodsOf(parentClass.type.prototype as object)
        .filter(([, handler]) => Reflect.getMetadata(key, handler) !== undefined)
        .map(([methodName, handler]) => ({
          meta: Reflect.getMetadata(key, handler) as unknown,
          discoveredMethod: { handler, methodName, parentClass },
        })),
    );
  }
}

/** The methods of a prototype chain, nearest first (a subclass's override hides its parent's). */
function methodsOf(proto: object): Array<[string, () => unknown]> {
  const seen = new Map<string, () => unknown>();
  for (let p: object | null = proto; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null)
    for (const name of Object.getOwnPropertyNames(p)) {
      const value = Object.getOwnPropertyDescriptor(p, name)?.value as unknown;
      if (name !== 'constructor' && typeof value === 'function' && !seen.has(name))
        seen.set(name, value as () => unknown);
    }
  return [...seen];
}

/** Builds every command into `program`, set up as in a container (CliProgram), ready to parse. */
export async function commandTree(program: Commander, options: { version: string }): Promise<Commander> {
  const discovery = new CommandClassDiscovery(allCommandClasses() as CommandClass[]);
  const builder = new CommandRunnerService(
    discovery as never,
    program,
    {
      version: options.version,
      errorHandler: (err) => {
        throw err;
      },
      outputConfiguration: { outputError: () => undefined },
    },
    console as never,
  );
  await builder.onModuleInit();
  new CliProgram(program).onApplicationBootstrap();
  return program;
}

/** Parses argv against the whole tree: help, completion, or commander's error for a typo. */
export async function runTree(argv: string[], flags: Partial<GlobalFlags>): Promise<number> {
  let failure: unknown;
  try {
    const program = await commandTree(new Command(), { version: versionText() });
    await program.parseAsync(argv);
  } catch (err) {
    failure = err;
  }
  return reportOutcome({ failure }, flags);
}
