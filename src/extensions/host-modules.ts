import Module from 'node:module';

/**
 * The packages an extension module shares with awf. An extension's `require('@nestjs/common')`
 * or `require('awf')` gets awf's own instance, never a second copy from node_modules: Nest
 * matches injection tokens by class identity (a second @nestjs/core's ModuleRef or a second
 * awf's classes would not resolve), and a second copy would also cost its full load time
 * again (about 0.5 s for @nestjs/* + rxjs + the SDK).
 */
const HOSTED: Record<string, () => unknown> = {
  '@nestjs/common': () => require('@nestjs/common'),
  '@nestjs/core': () => require('@nestjs/core'),
  'nest-commander': () => require('nest-commander'),
  'reflect-metadata': () => require('reflect-metadata'),
  rxjs: () => require('rxjs'),
  awf: () => require('../index'),
};

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
let installed = false;

/** Installs the sharing once per process; called only when the project loads extensions. */
export function shareHostModules(): void {
  if (installed) return;
  installed = true;
  const loader = Module as unknown as { _load: Loader };
  const original = loader._load;
  let inside = false; // without the bundle, hosted() itself goes through this loader
  loader._load = function hostAware(this: unknown, request, parent, isMain) {
    const hosted = HOSTED[request];
    if (!hosted || inside) return original.call(this, request, parent, isMain);
    inside = true;
    try {
      return hosted();
    } finally {
      inside = false;
    }
  };
}
