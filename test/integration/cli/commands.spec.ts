import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestingModule } from '@nestjs/testing';
import { CommandTestFactory } from 'nest-commander-testing';
import { AppModule } from '../../../src/app.module';
import type { UpstreamServerSpec } from '../../../src/domain/proxy/upstream-server';
import { emptyProjectConfig, type ProjectConfig } from '../../../src/infrastructure/config/project-config.loader';
import { reportOutcome } from '../../../src/interfaces/cli/cli-errors';
import { CommandModule, findCommand } from '../../../src/interfaces/cli/command-table';

/**
 * The commands in their real container (the one `awf <command>` builds, from the same
 * modules) driven through nest-commander's CommandTestFactory: argv in, stdout/stderr and
 * the exit code of the one outcome mapping out, with no process spawned.
 */
const EMPTY_PROJECT: ProjectConfig = emptyProjectConfig();

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;
const saved = { storage: process.env.AWF_STORAGE, paths: process.env.AWF_WORKFLOWS_PATH };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'awf-commands-'));
  process.env.AWF_STORAGE = join(dir, 'storage');
  process.env.AWF_WORKFLOWS_PATH = join(dir, 'workflows');
});

afterEach(() => {
  jest.restoreAllMocks();
  for (const [key, value] of [
    ['AWF_STORAGE', saved.storage],
    ['AWF_WORKFLOWS_PATH', saved.paths],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** `awf <args>` in-process: the command's container with `project` as its .awf/config.yaml. */
async function awf(args: string[], project: ProjectConfig = EMPTY_PROJECT): Promise<Ran> {
  let failure: unknown;
  const app: TestingModule = await CommandTestFactory.createTestingCommand(
    {
      imports: [
        AppModule.register({
          project,
          commandModules: [CommandModule.of(findCommand(args.find((a) => !a.startsWith('-')))!)],
        }),
      ],
    },
    {
      errorHandler: (err: Error) => {
        throw err;
      },
      serviceErrorHandler: (err: Error) => {
        failure = err;
      },
    },
  ).compile();
  const out: string[] = [];
  const err: string[] = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    await CommandTestFactory.run(app, args);
  } catch (e) {
    failure = e;
  }
  const format = args.includes('json') ? 'json' : 'text';
  const code = reportOutcome({ failure }, { format });
  jest.restoreAllMocks();
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const VALID = `name: hello
states:
  initial: greet
  greet: {type: command, command: echo hi, on_success: done}
  done: {type: terminal}
`;

/** A step that names an upstream server: valid only if the project defines it. */
const NAMES_A_SERVER = `name: uses-docs
states:
  initial: agent
  agent:
    type: agent
    provider: script
    prompt: unused
    mcp_proxy: {enable: true, intercept_builtins: false, servers: [docs]}
    options: {calls: []}
    on_success: done
  done: {type: terminal}
`;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

jest.setTimeout(240_000); // the first container loads every module of the CLI: slow on a loaded machine

describe('commands through CommandTestFactory', () => {
  it('validate: a valid workflow says so and exits 0', async () => {
    const r = await awf(['validate', file('hello.yaml', VALID)]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('valid');
  });

  it('validate -f json: the verdict alone on stdout for a file that does not load, the error on stderr, exit 1 (as AWF)', async () => {
    const r = await awf(['validate', file('broken.yaml', 'name: broken\nstates: {}\n'), '-f', 'json']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ valid: false, workflow: 'broken' });
    expect(JSON.parse(r.stderr)).toMatchObject({ exit_code: 1, error: { code: 'USER.WORKFLOW.INVALID' } });
  });

  it('validate: a file that loads but has a WORKFLOW problem (a template) still exits 2', async () => {
    const bad = VALID.replace('command: echo hi', "command: 'echo {{.inputs.nope}}'");
    const r = await awf(['validate', file('bad-template.yaml', bad)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE] states.greet.command:');
  });

  it('validate without a workflow: a coded USER error, exit 1, no stack', async () => {
    const r = await awf(['validate']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^\[USER\.[A-Z_.]+\] provide a workflow name, --pack or --dir/);
    expect(r.stderr).not.toContain('    at ');
  });

  it("an unknown option of a sub-command is commander's error, coded and exit 1, not a process.exit", async () => {
    const r = await awf(['validate', '--bogus']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^\[USER\.CLI\.[A-Z_]+\] unknown option '--bogus'/);
  });

  it('validate reads .awf/config.yaml as the process loaded it (the container is handed that copy)', async () => {
    const wf = file('uses-docs.yaml', NAMES_A_SERVER);
    const refused = await awf(['validate', wf]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unknown server "docs"');
    const docs: UpstreamServerSpec = { name: 'docs', command: 'docs-server' };
    const accepted = await awf(['validate', wf], { ...EMPTY_PROJECT, mcpServers: { docs } });
    expect(accepted).toMatchObject({ code: 0, stderr: '' });
  });

  it('list: the workflows of AWF_WORKFLOWS_PATH as JSON', async () => {
    const workflows = join(dir, 'workflows');
    mkdirSync(workflows);
    writeFileSync(join(workflows, 'hello.yaml'), VALID);
    const r = await awf(['list', '-f', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain('"hello"');
  });
});
