import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as ts from 'typescript';
import { parse } from 'yaml';
import { loadProjectConfig } from '../../src/infrastructure/config/project-config.loader';
import { parseProxyConfig } from '../../src/infrastructure/config/proxy-config.loader';
import type { DocExample } from './doc-examples';
import type { DocProject } from './doc-example-project';
import { AWF_MAIN, REPO_ROOT } from './cli';
import { wrapFragment } from './doc-example-yaml';

/** How each kind of block is executed; a block none of them takes must carry a skip marker. */
export function runExample(ex: DocExample, project: DocProject): string {
  const cwd = join(project.dir, ex.cwd ?? '.');
  const env = { ...project.env, ...ex.env };
  if (ex.file) write(join(cwd, ex.file), ex.code);
  switch (ex.lang) {
    case 'yaml':
    case 'yml':
      return runYaml(ex, cwd, env);
    case 'json':
      return checkJson(ex);
    case 'bash':
    case 'sh':
    case 'shell':
      return shell(ex.code, cwd, env);
    case 'console':
      return shell(consoleCommands(ex.code), cwd, env);
    case 'js':
    case 'javascript':
      return runJs(ex, cwd, env);
    case 'ts':
    case 'typescript':
      return compileTs(ex, project.dir);
    default:
      throw new Error(
        `a "${ex.lang || 'plain'}" block is not run: mark it <!-- doc-test: skip: <why> --> or give it a language`,
      );
  }
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, what: string): string {
  const r = spawnSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    input: '',
    timeout: 180_000,
    killSignal: 'SIGKILL',
  });
  if (r.status !== 0) {
    throw new Error(
      `${what} exited ${r.status ?? r.signal}\n--- stdout\n${tail(r.stdout)}\n--- stderr\n${tail(r.stderr)}`,
    );
  }
  return r.stdout;
}

function awf(args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  return exec(process.execPath, [AWF_MAIN, ...args], cwd, env, `awf ${args.join(' ')}`);
}

function shell(script: string, cwd: string, env: NodeJS.ProcessEnv): string {
  return exec('bash', ['-euo', 'pipefail', '-c', script], cwd, env, 'the snippet');
}

/** `$ command` lines (continued by a trailing backslash); the other lines are its sample output. */
export function consoleCommands(code: string): string {
  const commands: string[] = [];
  let continued = false;
  for (const line of code.split('\n')) {
    if (continued || line.startsWith('$ ')) {
      commands.push(continued ? line : line.slice(2));
      continued = line.endsWith('\\');
    }
  }
  if (commands.length === 0)
    throw new Error('a console block without a `$ ` command line: mark it skip, or use a plain block');
  return commands.join('\n');
}

/** A workflow is validated, and run when nothing in it needs a real agent CLI or model. */
function runYaml(ex: DocExample, cwd: string, env: NodeJS.ProcessEnv): string {
  const data = parse(ex.code) as unknown;
  const named = /^#\s*(\S+\.ya?ml)\s*$/.exec(ex.code.split('\n')[0])?.[1];
  if (named && !ex.file) write(join(cwd, named), ex.code);
  const where = ex.file ?? named;
  if (where?.endsWith('.awf/config.yaml') || (!where && isProjectConfig(data))) {
    return checkProjectConfig(ex.code);
  }
  const { workflow, runs } = wrapFragment(data, ex.inputs);
  const file = where && workflow === data ? where : `doc-example-${ex.line}.yaml`;
  if (file !== where) write(join(cwd, file), JSON.stringify(workflow));
  let out = awf(['validate', file], cwd, env);
  if (runs && !ex.noRun && runnable(workflow)) {
    out += awf(['run', file, ...Object.entries(ex.inputs).flatMap(([k, v]) => ['-i', `${k}=${v}`])], cwd, env);
  }
  return out;
}

function isProjectConfig(data: unknown): boolean {
  return (
    typeof data === 'object' &&
    data !== null &&
    Object.keys(data).every((k) =>
      ['extensions', 'inputs', 'telemetry', 'mcp_servers', 'mcp_profiles', 'policy', 'agents', 'history'].includes(k),
    )
  );
}

function checkProjectConfig(code: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'awf-docs-config-'));
  try {
    write(join(dir, '.awf', 'config.yaml'), code);
    return JSON.stringify(loadProjectConfig(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Script agents and shell steps run offline; any other agent needs a CLI or a model. */
function runnable(workflow: unknown): boolean {
  const states = (workflow as { states?: Record<string, { type?: string; provider?: string }> }).states ?? {};
  return Object.entries(states).every(
    ([name, s]) => name === 'initial' || s?.type !== 'agent' || s.provider === 'script',
  );
}

/** JSON (or JSON lines) that parses; a proxy config is also held to `mcp-serve`'s own check. */
function checkJson(ex: DocExample): string {
  let values: unknown[];
  try {
    values = [JSON.parse(ex.code)];
  } catch {
    values = ex.code
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as unknown);
  }
  for (const v of values) {
    if (typeof v === 'object' && v !== null && 'version' in v && 'intercept_builtins' in v)
      parseProxyConfig(v, `${ex.doc}:${ex.line}`);
  }
  return JSON.stringify(values);
}

/** A program: run with stdin closed, it must end by itself with exit 0. */
function runJs(ex: DocExample, cwd: string, env: NodeJS.ProcessEnv): string {
  const file = join(cwd, ex.file ?? `doc-example-${ex.line}.js`);
  write(file, ex.code);
  return exec(process.execPath, [file], cwd, env, `node ${file}`);
}

/** Compiled against the installed package's own types, as a user's strict project would. */
function compileTs(ex: DocExample, project: string): string {
  const file = join(project, ex.file ?? `doc-example-${ex.line}.ts`);
  write(file, ex.code);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: true,
    types: ['node'],
    // awf resolves through the project's node_modules/awf; the packages a user installs next
    // to it (Nest, for a module) from this checkout's, by path, without linking them in.
    typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
    paths: { '*': [join(REPO_ROOT, 'node_modules', '*')] },
  });
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length) {
    throw new Error(
      ts.formatDiagnostics(problems, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => project,
        getNewLine: () => '\n',
      }),
    );
  }
  return 'compiled';
}

const tail = (text: string | null) => (text && text.length > 2000 ? `…${text.slice(-2000)}` : (text ?? ''));
