import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { nestScaffoldFiles } from './plugin-scaffold-nest.templates';
import { scaffoldFiles } from './plugin-scaffold.templates';
import {
  awfPackage,
  grpcDependencies,
  nestDependencies,
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
      // With the vendored SDK, gRPC is the project's own (the SDK's peer), at awf's versions.
      dependencies: {
        ...(options.awfDependency ? {} : grpcDependencies(own)),
        ...(options.nest ? { ...grpcDependencies(own), ...nestDependencies(own) } : {}),
      },
    };
    const files = options.nest ? nestScaffoldFiles(vars) : scaffoldFiles(vars);
    for (const [file, content] of Object.entries(files)) writeAtomic(join(dir, file), content);
    const vendored = options.awfDependency ? [] : vendorSdk(root, dir);
    return { name, dir, files: [...Object.keys(files).map((f) => relative(dir, join(dir, f))), ...vendored] };
  }
}

/**
 * The folder holding awf's package.json, from src/, dist/ or the bundle (dist/awf.cjs) alike:
 * the nearest folder up from this file whose package.json is awf's. (Counting levels up is
 * wrong from the bundle of an installed awf: three levels up is the user's own project.)
 */
export function awfPackageRoot(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'awf') return dir;
  }
  throw new AwfError(ErrorCodes.SYSTEM_IO, `awf's package.json not found above ${__dirname}`, { dir: __dirname });
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
