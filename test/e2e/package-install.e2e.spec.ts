import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installedPackage } from '../support/launch-paths';
import { SERVE_ARGV_PROBE } from '../support/serve-probe';
import { call } from '../support/http-api-client';
import { describeUnless } from '../support/skip';
import { installedPackages, packAndInstall, type PackedInstall } from '../support/packed-install';

jest.setTimeout(600_000);

/** A script agent that calls each of the six built-in tools once, through the step's mcp-serve. */
const sixTools = (dir: string) => `name: six-tools
states:
  initial: tools
  tools:
    type: agent
    provider: script
    prompt: unused
    mcp_proxy: {enable: true}
    options:
      calls:
        - {tool: Write, args: {file_path: ${dir}/notes.txt, content: "alpha\\nbeta\\n"}}
        - {tool: Read, args: {file_path: ${dir}/notes.txt}, expect: beta}
        - {tool: Edit, args: {file_path: ${dir}/notes.txt, old_string: beta, new_string: gamma}}
        - {tool: Glob, args: {pattern: "*.txt"}, expect: notes.txt}
        - {tool: Grep, args: {pattern: gamma, output_mode: content}, expect: gamma}
        - {tool: Bash, args: {command: ${JSON.stringify(SERVE_ARGV_PROBE)}}, expect: mcp-serve}
    on_success: done
  done: {type: terminal}
`;

/** `npm pack`, installed into another project with a plain `npm install`, works as in the checkout. */
describe('the package npm pack makes, installed into another project', () => {
  let pkg: PackedInstall;
  let scratch: string;
  beforeAll(() => {
    pkg = packAndInstall();
    scratch = mkdtempSync(join(tmpdir(), 'awf-packed-run-'));
    writeFileSync(join(pkg.project, 'wf.yaml'), sixTools(pkg.project));
  });
  afterAll(() => {
    pkg?.cleanup();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const env = (cache: string) => ({
    ...process.env,
    XDG_CACHE_HOME: cache,
    XDG_DATA_HOME: join(scratch, 'data'),
    AWF_LOG_LEVEL: 'warn',
    npm_config_update_notifier: 'false',
  });
  const npxAwf = (cache: string, args: string[]) =>
    spawnSync('npx', ['--no-install', 'awf', ...args], {
      cwd: pkg.project,
      env: env(cache),
      encoding: 'utf8',
      timeout: 300_000,
    });
  const npxRun = (cache: string) => npxAwf(cache, ['run', 'wf.yaml']);
  /** The command line the step's mcp-serve ran under, from the Bash call of the workflow. */
  const serveCommand = (stdout: string) =>
    (JSON.parse(stdout) as Array<{ tool: string; text: string }>).find((r) => r.tool === 'Bash')?.text ?? '';
  const installedMain = () => join(pkg.project, 'node_modules', 'awf', 'dist', 'main.js');

  it('ships LICENSE and the bundle, nothing of the build; installs no dev tool', () => {
    expect(pkg.files).toEqual(
      expect.arrayContaining(['LICENSE', 'package.json', 'dist/main.js', 'dist/awf.cjs', 'dist/index.d.ts']),
    );
    expect(pkg.files.filter((f) => /\.blob|\.spec\.|tsbuildinfo|^src\/|^test\//.test(f))).toEqual([]);
    expect(readFileSync(join(pkg.project, 'node_modules', 'awf', 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    const installed = installedPackages(pkg.project);
    expect(installed).toEqual(expect.arrayContaining(['awf', '@nestjs/core', 'pino']));
    for (const tool of ['typescript', 'prettier', 'jest', 'ts-jest', 'esbuild', 'nest-commander', '@types/jest'])
      expect(installed).not.toContain(tool);
  });

  it('runs a script agent that calls all six tools, its mcp-serve started as a user would type it', () => {
    const cache = join(scratch, 'cache');
    const first = npxRun(cache);
    expect(first.status).toBe(0);
    // A plain npm install builds better-sqlite3: the run is in the history.
    expect(first.stderr).not.toContain('not recorded in the history');
    expect(npxAwf(cache, ['history', '-f', 'json']).stdout).toContain('"six-tools"');
    expect(serveCommand(first.stdout)).toContain(
      `${process.execPath} --max-semi-space-size=4 ${installedMain()} mcp-serve --config=`,
    );
    expect(readFileSync(join(pkg.project, 'notes.txt'), 'utf8')).toBe('alpha\ngamma\n');
  });

  it("serves awf serve's dashboard from the installed package (its page and the Preact modules)", async () => {
    const server = spawn(process.execPath, [installedMain(), 'serve', '--port', '0'], {
      cwd: pkg.project,
      env: env(join(scratch, 'cache')),
    });
    try {
      let out = '';
      server.stdout.on('data', (c: Buffer) => (out += c.toString()));
      for (const until = Date.now() + 60_000; !/listening on (\S+)/.test(out) && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 50));
      const url = /listening on (\S+)/.exec(out)![1];
      for (const path of ['/', '/assets/app.js', '/assets/vendor/preact.mjs', '/assets/vendor/htm.mjs'])
        expect([path, (await call(url, 'GET', path)).status]).toEqual([path, 200]);
    } finally {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  });
});

/** The globalSetup's install ran no script (`--ignore-scripts`), as a user's `ignore-scripts=true` would. */
const withoutBuild = installedPackage();
describeUnless(
  withoutBuild?.error ?? (withoutBuild ? undefined : "no installed package (run through jest's globalSetup)"),
  "an installed package without SQLite's native build (npm install --ignore-scripts)",
  () => {
    it('runs a workflow, unrecorded, with one warning that says how to build the history', () => {
      const project = mkdtempSync(join(tmpdir(), 'awf-no-sqlite-'));
      try {
        writeFileSync(join(project, 'wf.yaml'), sixTools(project));
        const main = join(withoutBuild!.packageDir, 'dist', 'main.js');
        const env = { ...process.env, XDG_CACHE_HOME: join(project, 'cache'), XDG_DATA_HOME: join(project, 'data') };
        const r = spawnSync(process.execPath, [main, 'run', 'wf.yaml'], { cwd: project, env, encoding: 'utf8' });
        expect(r.status).toBe(0);
        expect(r.stderr.match(/this run is not recorded in the history/g)).toHaveLength(1);
        expect(r.stderr).toContain('npm rebuild better-sqlite3');
        const history = spawnSync(process.execPath, [main, 'history'], { cwd: project, env, encoding: 'utf8' });
        expect(history.status).toBe(4);
        expect(history.stderr).toContain('SYSTEM.HISTORY.UNAVAILABLE');
        expect(history.stderr).not.toMatch(/\n\s+at /);
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    });
  },
);
