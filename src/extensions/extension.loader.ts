import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { AwfError } from '../domain/errors/awf-error';
import { ErrorCodes } from '../domain/errors/error-codes';
import { shareHostModules } from './host-modules';

type NestModuleRef = (abstract new (...args: never[]) => unknown) | { module: unknown };

const MODULE_METADATA_KEYS = ['imports', 'providers', 'exports', 'controllers'];

/**
 * Loads the Nest modules named in `extensions:`. An entry is a path (relative to the
 * project dir) or a package name; its export is `default`, or else the one export that is
 * a Nest module (a `@Module()` class or a dynamic module object).
 */
export function loadExtensionModules(entries: readonly string[], projectDir: string = process.cwd()): NestModuleRef[] {
  // A require rooted in the project, not this file's: inside the bundle, the module-level
  // `require` resolves from dist/, not from the user's project.
  const projectRequire = createRequire(join(projectDir, 'package.json'));
  if (entries.length > 0) shareHostModules();
  return entries.map((entry) => {
    const target = entry.startsWith('.') || isAbsolute(entry) ? resolve(projectDir, entry) : entry;
    let exported: Record<string, unknown>;
    try {
      exported = projectRequire(projectRequire.resolve(target)) as Record<string, unknown>;
    } catch (err) {
      throw new AwfError(
        ErrorCodes.EXTENSION_LOAD_FAILED,
        `cannot load extension "${entry}": ${(err as Error).message.split('\n')[0]}`,
        { extension: entry },
        'Point extensions: at a compiled .js file or an installed package that exports a Nest module.',
      );
    }
    const candidates = [exported.default, ...Object.values(exported)].filter(isNestModule);
    if (candidates.length === 0) {
      throw new AwfError(
        ErrorCodes.EXTENSION_LOAD_FAILED,
        `extension "${entry}" exports no Nest module`,
        { extension: entry },
        'Export a class decorated with @Module() (as default, or as the only module export).',
      );
    }
    return candidates[0];
  });
}

function isNestModule(value: unknown): value is NestModuleRef {
  if (typeof value === 'function')
    return MODULE_METADATA_KEYS.some((k) => Reflect.getMetadata?.(k, value) !== undefined);
  return typeof value === 'object' && value !== null && typeof (value as { module?: unknown }).module === 'function';
}
