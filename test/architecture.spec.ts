import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { builtinModules } from 'node:module';

/** The layer rules of DESIGN.md, checked on every import of every source file. */
const SRC = resolve(__dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** A relative import as a path under src/, or the package name of a bare import. */
function target(file: string, spec: string): { local?: string; pkg?: string } {
  if (spec.startsWith('.')) return { local: relative(SRC, resolve(dirname(file), spec)).split(sep).join('/') };
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  return { pkg: name.replace(/^node:/, '') };
}

const files = sourceFiles(SRC).map((f) => ({ file: relative(SRC, f).split(sep).join('/'), imports: importsOf(f).map((s) => ({ spec: s, ...target(f, s) })) }));
const isBuiltin = (pkg?: string) => !!pkg && builtinModules.includes(pkg);

type Import = { spec: string; local?: string; pkg?: string };

function violations(filter: (file: string) => boolean, bad: (imp: Import) => boolean, list = files): string[] {
  return list.filter((f) => filter(f.file)).flatMap((f) => f.imports.filter(bad).map((i) => `${f.file} imports ${i.spec}`));
}

describe('architecture', () => {
  it('finds the source tree (guards against a vacuous pass)', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((f) => f.file.startsWith('domain/'))).toBe(true);
  });

  const inDomain = (f: string) => f.startsWith('domain/');
  const leavesDomain = (i: Import) => (i.local !== undefined ? !i.local.startsWith('domain/') : !isBuiltin(i.pkg));

  it('keeps src/domain free of anything outside itself, of Nest and of every package', () => {
    expect(violations(inDomain, leavesDomain)).toEqual([]);
  });

  it('lets src/application import only the domain and node built-ins', () => {
    expect(violations((f) => f.startsWith('application/'), (i) => (i.local !== undefined ? !/^(domain|application)\//.test(i.local) : !isBuiltin(i.pkg)))).toEqual([]);
  });

  it('keeps @modelcontextprotocol/sdk inside src/infrastructure/mcp-client', () => {
    expect(violations((f) => !f.startsWith('infrastructure/mcp-client/'), (i) => i.pkg === '@modelcontextprotocol/sdk')).toEqual([]);
  });

  it('keeps the OpenTelemetry SDK inside src/infrastructure/telemetry', () => {
    expect(violations((f) => !f.startsWith('infrastructure/telemetry/'), (i) => !!i.pkg && i.pkg.startsWith('@opentelemetry/') && i.pkg !== '@opentelemetry/api')).toEqual([]);
  });

  it('keeps gRPC inside src/infrastructure/plugins and the plugin SDK', () => {
    expect(violations((f) => !/^(infrastructure\/plugins|sdk)\//.test(f), (i) => i.pkg === '@grpc/grpc-js' || i.pkg === '@grpc/proto-loader')).toEqual([]);
  });

  it('lets no infrastructure area import the CLI, and no feature area import another (except the allowed edges)', () => {
    expect(violations((f) => f.startsWith('infrastructure/'), (i) => i.local !== undefined && crossesAreas(i.local))).toEqual([]);
    function crossesAreas(local: string): boolean {
      return local.startsWith('interfaces/') || local === 'app.module' || local === 'main';
    }
    const offenders = files
      .filter((f) => f.file.startsWith('infrastructure/'))
      .flatMap((f) =>
        f.imports
          .filter((i) => i.local?.startsWith('infrastructure/') && !allowedEdge(area(f.file), area(i.local)))
          .map((i) => `${f.file} imports ${i.spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('flags what it should (the checker itself works)', () => {
    const offender = {
      file: 'domain/ports/bad.port.ts',
      imports: [
        { spec: '@nestjs/common', pkg: '@nestjs/common' },
        { spec: '../../application/tool-router.service', local: 'application/tool-router.service' },
        { spec: 'node:path', pkg: 'path' },
        { spec: './tokens', local: 'domain/ports/tokens' },
      ],
    };
    expect(violations(inDomain, leavesDomain, [offender])).toEqual([
      'domain/ports/bad.port.ts imports @nestjs/common',
      'domain/ports/bad.port.ts imports ../../application/tool-router.service',
    ]);
    expect(allowedEdge('infrastructure/tools', 'infrastructure/plugins')).toBe(false);
    expect(allowedEdge('infrastructure/agents', 'infrastructure/mcp-client')).toBe(true);
  });
});

function area(path: string): string {
  return path.split('/').slice(0, 2).join('/');
}

/** Shared infrastructure any area may use; the script agent drives mcp-serve through the MCP client adapter. */
function allowedEdge(from: string, to: string): boolean {
  const shared = ['infrastructure/core', 'infrastructure/config', 'infrastructure/logging'];
  return from === to || shared.includes(to) || (from === 'infrastructure/agents' && to === 'infrastructure/mcp-client');
}
