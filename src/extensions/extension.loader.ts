import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { AwfError } from '../domain/errors/awf-error';
import { ErrorCodes } from '../domain/errors/error-codes';
import { type ExtensionPackage, markExtensionPackage } from '../domain/ports/markers';
import { shareHostModules } from './host-modules';

type NestModuleRef = (abstract new (...args: never[]) => unknown) | { module: unknown };

const MODULE_METADATA_KEYS = ['imports', 'providers', 'exports', 'controllers'];

/**
 * Loads the Nest modules named in `extensions:`. An entry is a path (relative to the
 * project dir) or a package name; its export is `default`, or else the one export that is
 * a Nest module (a `@Module()` class or a dynamic module object). Each module is marked with the
 * package it comes from (the nearest package.json above its file), whose version keys the pins
 * of its tools (ADR 305).
 */
export function loadExtensionModules(entries: readonly string[], projectDir: string = process.cwd()): NestModuleRef[] {
  // A require rooted in the project, not this file's: inside the bundle, the module-level
  // `require` resolves from dist/, not from the user's project.
  const projectRequire = createRequire(join(projectDir, 'package.json'));
  if (entries.length > 0) shareHostModules();
  return entries.map((entry) => {
    const target = entry.startsWith('.') || isAbsolute(entry) ? resolve(projectDir, entry) : entry;
    let exported: Record<string, unknown>;
    let file: string;
    try {
      file = projectRequire.resolve(target);
      exported = projectRequire(file) as Record<string, unknown>;
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
    const module = candidates[0];
    const moduleClass = typeof module === 'function' ? module : module.module;
    if (typeof moduleClass === 'function') markExtensionPackage(moduleClass, packageOf(file, moduleClass.name));
    return module;
  });
}

/** The nearest package.json above `file` with a name; none: the module's class name, no version. */
function packageOf(file: string, fallback: string): ExtensionPackage {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (typeof pkg.name === 'string') {
        return { name: pkg.name, ...(typeof pkg.version === 'string' ? { version: pkg.version } : {}) };
      }
    } catch {
      // none here, or not JSON: look further up
    }
    if (dirname(dir) === dir) return { name: fallback };
  }
}

function isNestModule(value: unknown): value is NestModuleRef {
  if (typeof value === 'function')
    return MODULE_METADATA_KEYS.some((k) => Reflect.getMetadata?.(k, value) !== undefined);
  return typeof value === 'object' && value !== null && typeof (value as { module?: unknown }).module === 'function';
}
