import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { scaffoldFiles } from './plugin-scaffold.templates';

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export interface ScaffoldResult {
  name: string;
  dir: string;
  files: string[];
}

/**
 * `awf plugin init <name>`: a TypeScript plugin project that builds and passes its own
 * test. It depends on this awf through a `file:` path unless told otherwise, so it works
 * offline against the awf that made it.
 */
@Injectable()
export class PluginScaffolder {
  scaffold(
    rawName: string,
    options: { output?: string; force?: boolean; awfDependency?: string; cwd?: string } = {},
  ): ScaffoldResult {
    const name = rawName.replace(/^awf-plugin-/, '');
    if (!NAME.test(name)) {
      throw new AwfError(
        ErrorCodes.PLUGIN_INVALID_NAME,
        `plugin name ${JSON.stringify(rawName)} is not allowed`,
        { name: rawName },
        'Use lowercase letters and digits, words joined by "-", starting with a letter (e.g. "weather" or "jira-issues").',
      );
    }
    const dir = resolve(options.cwd ?? process.cwd(), options.output ?? name);
    if (existsSync(dir) && (!lstatSync(dir).isDirectory() || readdirSync(dir).length > 0) && !options.force) {
      throw new AwfError(
        ErrorCodes.PLUGIN_TARGET_EXISTS,
        `${dir} already exists and is not empty`,
        { dir },
        'Choose another --output, or pass --force to overwrite the scaffold files.',
      );
    }
    const files = scaffoldFiles({ name, awfDependency: options.awfDependency ?? `file:${awfPackageRoot()}` });
    for (const [file, content] of Object.entries(files)) writeAtomic(join(dir, file), content);
    return { name, dir, files: Object.keys(files).map((f) => relative(dir, join(dir, f))) };
  }
}

/** The folder holding awf's package.json, from src/ or dist/ alike. */
export function awfPackageRoot(): string {
  // src|dist/infrastructure/plugins, or dist/ itself when awf runs from its bundle (dist/awf.cjs).
  const deep = resolve(__dirname, '../../..');
  return existsSync(join(deep, 'package.json')) ? deep : resolve(__dirname, '..');
}

function writeAtomic(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
  if (existsSync(file) && lstatSync(file).isSymbolicLink()) {
    throw new AwfError(ErrorCodes.PLUGIN_TARGET_EXISTS, `${file} is a symbolic link; refusing to write through it`, {
      file,
    });
  }
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, content, { mode: 0o644 });
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new AwfError(ErrorCodes.SYSTEM_IO, `cannot write ${file}: ${(err as Error).message}`, { file });
  }
}
