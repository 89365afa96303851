import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, resolve } from 'node:path';

// Node's own loader, not jest's registry (jest's createRequire is its own): the rewritten index
// must share rxjs's module cache with the real one, as both share one bundle in the snapshot.
const nodeCache = (Module as unknown as { _cache: Record<string, unknown> })._cache;
const here = moduleAt(__filename);
const nodeRequire = (id: string): unknown => here.require(id);
const resolveFile = (id: string): string =>
  (Module as unknown as { _resolveFilename(id: string, parent: Module): string })._resolveFilename(id, here);
const { lazyRxjsIndex, RXJS_INDEX } = nodeRequire(
  resolve(__dirname, '../../../scripts/bundle-plugins/lazy-rxjs-index.cjs'),
) as {
  lazyRxjsIndex: (source: string, file: string) => string;
  RXJS_INDEX: RegExp;
};

function moduleAt(file: string): Module & { _compile(code: string, filename: string): void } {
  const mod = new Module(file) as Module & { _compile(code: string, filename: string): void };
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  return mod;
}

/** Evaluates `source` as if it were the file `file`; returns its exports. */
function evaluateAs(file: string, source: string): Record<string, unknown> {
  const mod = moduleAt(file);
  mod._compile(source, file);
  return mod.exports as Record<string, unknown>;
}

describe("the startup snapshot's lazy rxjs indexes (rxjs, rxjs/operators)", () => {
  const specifiers = ['rxjs', 'rxjs/operators'];
  const files = specifiers.map(resolveFile);
  const rxjsModules = () =>
    Object.keys(nodeCache).filter((k) => k.includes('/node_modules/rxjs/') && !k.endsWith('/internal/types.js'));

  it('are the files the build rewrites', () => {
    expect(files.filter((f) => !RXJS_INDEX.test(f))).toEqual([]);
  });

  it("load none of rxjs's modules until an export is read, then exactly the same objects as rxjs", () => {
    const before = new Set(rxjsModules());
    const lazy = files.map((file) => evaluateAs(`${file}.lazy.js`, lazyRxjsIndex(readFileSync(file, 'utf8'), file)));
    expect(rxjsModules().filter((k) => !before.has(k))).toEqual([]);

    specifiers.forEach((specifier, i) => {
      const real = nodeRequire(specifier) as Record<string, unknown>;
      expect(Object.keys(lazy[i]).sort()).toEqual(Object.keys(real).sort());
      expect(Object.keys(real).filter((name) => lazy[i][name] !== real[name])).toEqual([]);
      expect(lazy[i].__esModule).toBe(true);
    });
  });
});

describe('rewriting an rxjs index', () => {
  it('fails the build on a line it does not know instead of leaving it eager', () => {
    const file = resolveFile('rxjs');
    const changed = `${readFileSync(file, 'utf8')}\nconst all = require("./internal/everything");\n`;
    expect(() => lazyRxjsIndex(changed, file)).toThrow(/unexpected line .*internal\/everything/);
  });
});
