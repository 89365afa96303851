import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { awfPackageRoot } from '../core/awf-package-root';
import { PluginScaffolder } from './plugin-scaffold.service';

describe('PluginScaffolder (awf plugin init)', () => {
  let cwd: string;
  beforeEach(() => (cwd = mkdtempSync(join(tmpdir(), 'awf-init-'))));
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('writes a project named after the plugin, with a copy of the SDK it depends on inside the project', () => {
    const result = new PluginScaffolder().scaffold('awf-plugin-weather', { cwd });
    expect(result.name).toBe('weather');
    expect(result.dir).toBe(join(cwd, 'weather'));
    expect(result.files).toEqual(
      expect.arrayContaining([
        'package.json',
        'plugin.yaml',
        'src/definition.ts',
        'src/plugin.ts',
        'src/definition.test.ts',
      ]),
    );
    const pkg = JSON.parse(readFileSync(join(result.dir, 'package.json'), 'utf8'));
    const own = JSON.parse(readFileSync(join(awfPackageRoot(), 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({
      awf: 'file:vendor/awf',
      '@grpc/grpc-js': own.dependencies['@grpc/grpc-js'],
      '@grpc/proto-loader': own.dependencies['@grpc/proto-loader'],
      yaml: own.dependencies.yaml,
    });
    expect(pkg.bundleDependencies).toBe(true);
    const vendored = JSON.parse(readFileSync(join(result.dir, 'vendor/awf/package.json'), 'utf8'));
    expect(vendored).toMatchObject({ name: 'awf', version: own.version });
    expect(Object.keys(vendored.exports)).toEqual(['./plugin-sdk']);
    expect(existsSync(join(result.dir, 'vendor/awf/dist/sdk/index.js'))).toBe(true);
    expect(existsSync(join(result.dir, 'vendor/awf/proto/plugin/v1/plugin.proto'))).toBe(true);
    expect(parse(readFileSync(join(result.dir, 'plugin.yaml'), 'utf8'))).toMatchObject({
      name: 'weather',
      command: 'node dist/plugin.js',
      capabilities: ['operations'],
    });
    // plugin.yaml is the one place the plugin's name and version are written.
    expect(parse(readFileSync(join(result.dir, 'plugin.yaml'), 'utf8')).version).toBe('0.1.0');
    expect(readFileSync(join(result.dir, 'src/definition.ts'), 'utf8')).not.toMatch(/name: '|version: '/);
    expect(pkg.description).toBeUndefined();
  });

  it('refuses bad names and non-empty targets unless forced', () => {
    expect(() => new PluginScaffolder().scaffold('Weather', { cwd })).toThrow(
      expect.objectContaining({ code: 'USER.PLUGIN.INVALID_NAME' }),
    );
    expect(() => new PluginScaffolder().scaffold('a_b', { cwd })).toThrow(
      expect.objectContaining({ code: 'USER.PLUGIN.INVALID_NAME' }),
    );
    writeFileSync(join(cwd, 'keep.txt'), 'mine');
    expect(() => new PluginScaffolder().scaffold('jira', { cwd, output: '.' })).toThrow(
      expect.objectContaining({ code: 'USER.PLUGIN.TARGET_EXISTS' }),
    );
    expect(
      new PluginScaffolder().scaffold('jira', { cwd, output: '.', force: true, awfDependency: '^0.1.0' }).dir,
    ).toBe(cwd);
    expect(readFileSync(join(cwd, 'keep.txt'), 'utf8')).toBe('mine');
    expect(JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')).dependencies).toEqual({ awf: '^0.1.0' });
    expect(existsSync(join(cwd, 'vendor'))).toBe(false);
  });

  it('--nest: a Nest microservice with @GrpcMethod handlers, its Nest and gRPC pinned as awf pins them', () => {
    const result = new PluginScaffolder().scaffold('jira-issues', { cwd, nest: true });
    const pkg = JSON.parse(readFileSync(join(result.dir, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      '@grpc/grpc-js',
      '@grpc/proto-loader',
      '@nestjs/common',
      '@nestjs/core',
      '@nestjs/microservices',
      'awf',
      'reflect-metadata',
      'rxjs',
      'yaml',
    ]);
    expect(parse(readFileSync(join(result.dir, 'plugin.yaml'), 'utf8')).command).toBe('node dist/main.js');
    const controller = readFileSync(join(result.dir, 'src/plugin.controller.ts'), 'utf8');
    expect(controller).toContain("@GrpcMethod('OperationService', 'Execute')");
    expect(readFileSync(join(result.dir, 'src/main.ts'), 'utf8')).toContain('goPluginTransport()');
  });
});
