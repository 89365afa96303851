import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { awfPackageRoot } from '../core/awf-package-root';
import { nestScaffoldFiles } from './plugin-scaffold-nest.templates';
import { scaffoldFiles } from './plugin-scaffold.templates';
import {
  awfPackage,
  grpcDependencies,
  nestDependencies,
  sdkDependencies,
  VENDORED_SDK_DEPENDENCY,
  vendorSdk,
} from './plugin-sdk.vendor';

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export interface ScaffoldResult {
  name: string;
  dir: string;
  files: string[];
}

/**
 * `awf plugin init <name> [--nest]`: a TypeScript plugin project that builds and passes its
 * own test, served by the SDK's `serve` or, with `--nest`, as a Nest microservice. Unless
 * `--awf <spec>` says otherwise it carries a copy of this awf's SDK in `vendor/awf`, so it
 * installs offline and keeps working wherever the folder goes (ADR 221).
 */
@Injectable()
export class PluginScaffolder {
  scaffold(
    rawName: string,
    options: { output?: string; force?: boolean; awfDependency?: string; cwd?: string; nest?: boolean } = {},
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
    const root = awfPackageRoot();
    const own = awfPackage(root);
    const vars = {
      name,
      awfDependency: options.awfDependency ?? VENDORED_SDK_DEPENDENCY,
      // With the vendored SDK, gRPC and yaml are the project's own (the SDK's peers), at awf's versions.
      dependencies: {
        ...(options.awfDependency ? {} : sdkDependencies(own)),
        ...(options.nest ? { ...grpcDependencies(own), ...nestDependencies(own) } : {}),
      },
    };
    const files = options.nest ? nestScaffoldFiles(vars) : scaffoldFiles(vars);
    for (const [file, content] of Object.entries(files)) writeAtomic(join(dir, file), content);
    const vendored = options.awfDependency ? [] : vendorSdk(root, dir);
    return { name, dir, files: [...Object.keys(files).map((f) => relative(dir, join(dir, f))), ...vendored] };
  }
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
