import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/** Where a scaffold keeps its copy of the SDK, and the dependency that points at it. */
export const VENDORED_SDK_DIR = 'vendor/awf';
export const VENDORED_SDK_DEPENDENCY = `file:${VENDORED_SDK_DIR}`;

interface AwfPackage {
  version: string;
  dependencies: Record<string, string>;
}

/** awf's own package.json: the versions a scaffold pins are the ones this awf runs with. */
export function awfPackage(root: string): AwfPackage {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as AwfPackage;
}

/**
 * Copies awf's plugin SDK into `<project>/vendor/awf` as a package of its own (named `awf`,
 * exporting only `./plugin-sdk`, so the import is the same as with awf itself): the built
 * `dist/sdk`, the `.proto` files it loads, the licence. The project depends on it through a
 * `file:` path inside the project, so the link npm makes survives the folder being moved,
 * copied or installed, and `npm pack` bundles it (the scaffold sets bundleDependencies).
 * gRPC (and yaml) are peer dependencies, so the SDK and a Nest transport share one grpc-js.
 */
export function vendorSdk(awfRoot: string, project: string): string[] {
  const sdk = join(awfRoot, 'dist', 'sdk');
  if (!existsSync(join(sdk, 'index.js'))) {
    throw new AwfError(
      ErrorCodes.SYSTEM_IO,
      `awf's plugin SDK is not built: ${sdk} is missing`,
      { dir: sdk },
      'Build awf (npm run build), or pass --awf <spec> to depend on an installed awf instead.',
    );
  }
  const dest = join(project, VENDORED_SDK_DIR);
  const own = awfPackage(awfRoot);
  mkdirSync(dest, { recursive: true });
  const copied: string[] = [];
  cpSync(sdk, join(dest, 'dist', 'sdk'), {
    recursive: true,
    filter: (f) => !f.endsWith('.map') && !f.endsWith('.tsbuildinfo'),
  });
  cpSync(join(awfRoot, 'proto'), join(dest, 'proto'), { recursive: true });
  copied.push(`${VENDORED_SDK_DIR}/dist/sdk/`, `${VENDORED_SDK_DIR}/proto/`);
  if (existsSync(join(awfRoot, 'LICENSE'))) {
    cpSync(join(awfRoot, 'LICENSE'), join(dest, 'LICENSE'));
    copied.push(`${VENDORED_SDK_DIR}/LICENSE`);
  }
  const manifest = {
    name: 'awf',
    version: own.version,
    private: true,
    description: `The plugin SDK of awf ${own.version}, copied here by \`awf plugin init\`.`,
    license: 'MIT',
    exports: { './plugin-sdk': { types: './dist/sdk/index.d.ts', default: './dist/sdk/index.js' } },
    peerDependencies: sdkDependencies(own),
  };
  writeFileSync(join(dest, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  copied.push(`${VENDORED_SDK_DIR}/package.json`);
  return copied;
}

/** The gRPC packages the SDK loads, at the versions awf pins. */
export function grpcDependencies(own: AwfPackage): Record<string, string> {
  return pick(own, ['@grpc/grpc-js', '@grpc/proto-loader']);
}

/** What the vendored SDK loads: gRPC, and the YAML parser that reads the plugin's plugin.yaml. */
export function sdkDependencies(own: AwfPackage): Record<string, string> {
  return { ...grpcDependencies(own), ...pick(own, ['yaml']) };
}

/** What a Nest plugin adds, at the versions awf itself runs on. */
export function nestDependencies(own: AwfPackage): Record<string, string> {
  return pick(own, ['@nestjs/common', '@nestjs/core', '@nestjs/microservices', 'reflect-metadata', 'rxjs']);
}

function pick(own: AwfPackage, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, own.dependencies[n]]));
}
