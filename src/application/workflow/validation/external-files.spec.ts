import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { awfFailure } from '../../../../test/support/awf-failure';
import { FsWorkflowFiles } from '../../../infrastructure/core/fs-workflow-files';
import { awfDirs } from '../run/awf-dirs';
import { localOverGlobal, rewriteAwfPaths } from './awf-path-tiers';
import { externalFilePath, readExternalFile } from './external-files';
import { promptSearchPaths, resolvePromptInputs } from '../run/prompt-inputs';

const files = new FsWorkflowFiles();

describe('script_file / prompt_file / @prompts/ lookup (AWF app/external_file.go, cli/run.go)', () => {
  let root: string;
  let project: string;
  let sourceDir: string;
  let dirs: Record<string, string>;
  const put = (path: string, text = 'x'): string => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awf-extfiles-'));
    project = join(root, 'project');
    sourceDir = join(project, '.awf', 'workflows');
    dirs = awfDirs({ HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config') });
    mkdirSync(sourceDir, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lays out AWF directories from AWF_CONFIG_HOME / XDG_*; --storage is the data dir', () => {
    expect(dirs.scripts_dir).toBe(join(root, 'config', 'awf', 'scripts'));
    expect(dirs.plugins_dir).toBe(join(root, 'home', '.local', 'share', 'awf', 'plugins'));
    const own = awfDirs({ HOME: '/h', AWF_CONFIG_HOME: '/c', AWF_STORAGE: '/s' });
    expect([own.prompts_dir, own.workflows_dir, own.data_dir]).toEqual(['/c/prompts', '/c/workflows', '/s']);
  });

  it('prefers the project copy of a global script or prompt (.awf/scripts beside .awf/workflows)', () => {
    const global = join(dirs.scripts_dir, 'lint.sh');
    expect(localOverGlobal(global, sourceDir, dirs, files)).toBe(global); // no local copy: the global path stays
    const local = put(join(project, '.awf', 'scripts', 'lint.sh'));
    expect(localOverGlobal(global, sourceDir, dirs, files)).toBe(local);
    const prompt = join(dirs.prompts_dir, 'a', 'b.md');
    put(join(project, '.awf', 'prompts', 'a', 'b.md'));
    expect(localOverGlobal(prompt, sourceDir, dirs, files)).toBe(join(project, '.awf', 'prompts', 'a', 'b.md'));
    // Only scripts_dir and prompts_dir have local counterparts.
    const role = join(dirs.roles_dir, 'r.md');
    put(join(project, '.awf', 'roles', 'r.md'));
    expect(localOverGlobal(role, sourceDir, dirs, files)).toBe(role);
  });

  it('rewrites each global path inside a command that has a local copy, and a dir that is the global dir', () => {
    put(join(project, '.awf', 'scripts', 'a.sh'));
    const g = dirs.scripts_dir;
    const cmd = `sh ${g}/a.sh | sh "${g}/b.sh" && cat ${g}/a.sh`;
    const local = join(project, '.awf', 'scripts', 'a.sh');
    expect(rewriteAwfPaths(cmd, sourceDir, dirs, files)).toBe(`sh ${local} | sh "${g}/b.sh" && cat ${local}`);
    expect(rewriteAwfPaths(g, sourceDir, dirs, files)).toBe(join(project, '.awf', 'scripts'));
    expect(rewriteAwfPaths('echo plain', sourceDir, dirs, files)).toBe('echo plain');
  });

  it('resolves relative paths from the workflow dir, and ~/ in the home dir, else beside the workflow', () => {
    const env = { HOME: join(root, 'home') };
    expect(externalFilePath('s/x.sh', sourceDir, dirs, files, env)).toBe(join(sourceDir, 's', 'x.sh'));
    expect(externalFilePath('/abs/x.sh', sourceDir, dirs, files, env)).toBe('/abs/x.sh');
    expect(externalFilePath('~/x.sh', sourceDir, dirs, files, env)).toBe(join(root, 'home', 'x.sh'));
    const beside = put(join(sourceDir, 'y.sh'));
    expect(externalFilePath('~/y.sh', sourceDir, dirs, files, env)).toBe(beside);
    const home = put(join(root, 'home', 'y.sh'));
    expect(externalFilePath('~/y.sh', sourceDir, dirs, files, env)).toBe(home);
  });

  it('reads at most 1 MB; a missing file, a directory and a bigger file are coded errors', () => {
    expect(readExternalFile(files, put(join(root, 'ok.sh'), 'echo hi\n'), 'f')).toBe('echo hi\n');
    expect(awfFailure(() => readExternalFile(files, join(root, 'none.sh'), 'states.s.script_file'))).toMatch(
      /^USER\.INPUT\.MISSING_FILE: states\.s\.script_file: .*none\.sh: file not found$/,
    );
    expect(awfFailure(() => readExternalFile(files, root, 'f'))).toMatch(/MISSING_FILE: .*is a directory/);
    const big = put(join(root, 'big.md'), 'x'.repeat((1 << 20) + 1));
    expect(awfFailure(() => readExternalFile(files, big, 'f'))).toMatch(/^USER\.INPUT\.FILE_TOO_LARGE: .*1 MB limit/);
    expect(awfFailure(() => readExternalFile(undefined, big, 'f'))).toMatch(/no file access/);
  });

  it('@prompts/: $AWF_PROMPTS_PATH, then ./.awf/prompts, then the global dir; trimmed; never outside them', () => {
    const env = { AWF_PROMPTS_PATH: join(root, 'env-prompts') };
    const search = promptSearchPaths(env, project, dirs);
    expect(search).toEqual([join(root, 'env-prompts'), join(project, '.awf', 'prompts'), dirs.prompts_dir]);
    put(join(dirs.prompts_dir, 'p.md'), '  global\n');
    const resolve = (value: string) => resolvePromptInputs({ task: value }, search, files).task;
    expect(resolve('@prompts/p.md')).toBe('global');
    put(join(project, '.awf', 'prompts', 'p.md'), 'local\n');
    expect(resolve('@prompts/p.md')).toBe('local');
    put(join(root, 'env-prompts', 'p.md'), 'from env');
    expect(resolve('@prompts/p.md')).toBe('from env');
    expect(resolve('plain @prompts/p.md')).toBe('plain @prompts/p.md');
    expect(awfFailure(() => resolve('@prompts/../p.md'))).toMatch(/^USER\.INPUT\.INVALID_FORMAT: .*without "\.\."/);
    expect(awfFailure(() => resolve('@prompts//etc/passwd'))).toMatch(/^USER\.INPUT\.INVALID_FORMAT/);
    expect(awfFailure(() => resolve('@prompts/none.md'))).toMatch(
      new RegExp(`^USER\\.INPUT\\.MISSING_FILE: .*"none\\.md" not found in ${join(root, 'env-prompts')}, `),
    );
  });
});
