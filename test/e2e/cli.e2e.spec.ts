import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ECHO_EXTENSION, projectWithExtensions, REPO_ROOT, runAwf } from '../support/cli';

describe('the awf CLI', () => {
  it('prints help and exits 0, without the hidden mcp-serve', () => {
    const result = runAwf(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: awf');
    expect(result.stdout).not.toContain('mcp-serve');
  });

  it('still documents mcp-serve when asked directly', () => {
    const result = runAwf(['mcp-serve', '--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('--config <file>');
  });

  it('prints its version and exits 0', () => {
    const result = runAwf(['--version']);
    expect(result.status).toBe(0);
    const [version, commit, built] = result.stdout.trim().split('\n');
    expect(version).toBe(`awf version ${require('../../package.json').version}`);
    expect(commit).toMatch(/^commit: [0-9a-f]{7,}$/);
    expect(new Date(built.replace('built: ', '')).getTime()).toBeGreaterThan(Date.parse('2025-01-01'));
  });

  it.each([
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['--frobnicate'], "unknown option '--frobnicate'"],
    [['mcp-serve', '--config=x.json', '--frobnicate'], "unknown option '--frobnicate'"],
  ])('refuses %p with exit 1 and one coded line', (args, message) => {
    const result = runAwf(args);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const [first] = result.stderr.split('\n');
    expect(first).toBe(`[USER.CLI.INVALID_ARGS] ${message}`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('extension modules from .awf/config.yaml', () => {
  it('refuses to serve when two modules serve the same tool name, naming both sources', () => {
    const project = projectWithExtensions([
      ECHO_EXTENSION,
      resolve(REPO_ROOT, 'test/fixtures/extension/clashing-tools.module.js'),
    ]);
    try {
      writeFileSync(
        join(project.dir, 'proxy.json'),
        JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: [] }),
      );
      const result = runAwf(['mcp-serve', '--config=proxy.json'], { cwd: project.dir });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        '[USER.MCP_PROXY.NAME_COLLISION] tool "echo" is served by both module:echo-tools and module:clashing-tools',
      );
    } finally {
      project.cleanup();
    }
  });

  it('reports an extension that cannot be loaded with a coded error (to commands that read the project)', () => {
    const project = projectWithExtensions(['./does-not-exist.js']);
    try {
      const result = runAwf(['list'], { cwd: project.dir });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        '[USER.CONFIG.EXTENSION_LOAD_FAILED] cannot load extension "./does-not-exist.js"',
      );
    } finally {
      project.cleanup();
    }
  });

  it('reports a malformed project config', () => {
    const project = projectWithExtensions([]);
    try {
      writeFileSync(join(project.dir, '.awf/config.yaml'), 'extensions: [unclosed\n');
      const result = runAwf(['list'], { cwd: project.dir });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^\[USER\.CONFIG\.INVALID\] .*config\.yaml is not valid YAML/);
    } finally {
      project.cleanup();
    }
  });
});

describe('embedding the proxy in a Node program', () => {
  it('serves a plain ToolProvider over MCP stdio with serveTools()', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [resolve(REPO_ROOT, 'test/fixtures/embed/serve-embedded.js')],
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'embed-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['now']);
      expect(await client.callTool({ name: 'now', arguments: {} })).toEqual({
        content: [{ type: 'text', text: '1970-01-01T00:00:00.000Z' }],
      });
    } finally {
      await client.close();
    }
  });
});
