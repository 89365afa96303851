import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { awfFailure } from '../../../../test/support/awf-failure';
import { FsWorkflowFiles } from '../../../infrastructure/core/fs-workflow-files';
import { awfDirs } from '../run/awf-dirs';
import { localOverGlobal, placesFor, rewriteAwfPaths } from './awf-path-tiers';
import { externalFilePath, readExternalFile } from './external-files';

const files = new FsWorkflowFiles();

/** AWF's three tiers for a pack's workflow (app/external_file.go, docs/user-guide/workflow-packs.md). */
describe('pack workflows: .awf/<kind>/<pack>/, then <pack_root>/<kind>/, then the global dir', () => {
  let root: string;
  let project: string;
  let packRoot: string;
  let sourceDir: string;
  let dirs: Record<string, string>;
  const put = (path: string, text = 'x'): string => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awf-packtiers-'));
    project = join(root, 'project');
    packRoot = join(project, '.awf', 'workflow-packs', 'speckit');
    sourceDir = join(packRoot, 'workflows');
    mkdirSync(sourceDir, { recursive: true });
    dirs = { ...awfDirs({ HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config') }), pack_name: 'speckit' };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('takes the global file when neither the override nor the pack has one', () => {
    const global = put(join(dirs.prompts_dir, 'specify', 'system.md'));
    expect(localOverGlobal(global, sourceDir, dirs, files, project)).toBe(global);
  });

  it("takes the pack's own copy over the global one", () => {
    const global = put(join(dirs.prompts_dir, 'specify', 'system.md'));
    const embedded = put(join(packRoot, 'prompts', 'specify', 'system.md'));
    expect(localOverGlobal(global, sourceDir, dirs, files, project)).toBe(embedded);
  });

  it("takes the project's override .awf/prompts/<pack>/ over the pack's copy, for prompts and scripts", () => {
    put(join(packRoot, 'prompts', 'specify', 'system.md'));
    const override = put(join(project, '.awf', 'prompts', 'speckit', 'specify', 'system.md'));
    const prompt = join(dirs.prompts_dir, 'specify', 'system.md');
    expect(localOverGlobal(prompt, sourceDir, dirs, files, project)).toBe(override);
    put(join(packRoot, 'scripts', 'ci', 'build.sh'));
    const script = put(join(project, '.awf', 'scripts', 'speckit', 'ci', 'build.sh'));
    expect(localOverGlobal(join(dirs.scripts_dir, 'ci', 'build.sh'), sourceDir, dirs, files, project)).toBe(script);
    // Another pack's override is not this pack's.
    const other = { ...dirs, pack_name: 'other' };
    expect(localOverGlobal(prompt, sourceDir, other, files, project)).toBe(
      join(packRoot, 'prompts', 'specify', 'system.md'),
    );
  });

  it("finds the project's override for a pack installed --global too (the run's working directory)", () => {
    const globalPack = join(root, 'home', '.local', 'share', 'awf', 'workflow-packs', 'speckit');
    put(join(globalPack, 'prompts', 'p.md'));
    const override = put(join(project, '.awf', 'prompts', 'speckit', 'p.md'));
    const prompt = join(dirs.prompts_dir, 'p.md');
    expect(localOverGlobal(prompt, join(globalPack, 'workflows'), dirs, files, project)).toBe(override);
    expect(localOverGlobal(prompt, join(globalPack, 'workflows'), dirs, files, root)).toBe(
      join(globalPack, 'prompts', 'p.md'),
    );
  });

  it('a workflow outside a pack never reads a pack override (two tiers: .awf/prompts/, then global)', () => {
    const local = { ...dirs };
    delete local.pack_name;
    put(join(project, '.awf', 'prompts', 'speckit', 'p.md'));
    const prompt = join(dirs.prompts_dir, 'speckit', 'p.md');
    const projectWorkflows = join(project, '.awf', 'workflows');
    expect(localOverGlobal(prompt, projectWorkflows, local, files, project)).toBe(
      join(project, '.awf', 'prompts', 'speckit', 'p.md'),
    );
    expect(localOverGlobal(join(dirs.prompts_dir, 'p.md'), projectWorkflows, local, files, project)).toBe(
      join(dirs.prompts_dir, 'p.md'),
    );
  });

  it('rewrites each path of a command per file: override, pack copy, or global', () => {
    put(join(project, '.awf', 'scripts', 'speckit', 'a.sh'));
    put(join(packRoot, 'scripts', 'b.sh'));
    const g = dirs.scripts_dir;
    const cmd = `sh ${g}/a.sh && sh ${g}/b.sh; sh ${g}/c.sh`;
    expect(rewriteAwfPaths(cmd, sourceDir, dirs, files, project)).toBe(
      `sh ${join(project, '.awf', 'scripts', 'speckit', 'a.sh')} && sh ${join(packRoot, 'scripts', 'b.sh')}; sh ${g}/c.sh`,
    );
    expect(rewriteAwfPaths(g, sourceDir, dirs, files, project)).toBe(join(project, '.awf', 'scripts', 'speckit'));
  });

  it('names every tier it looked in when none has the file', () => {
    const rendered = join(dirs.prompts_dir, 'specify', 'none.md');
    const searched = placesFor(rendered, sourceDir, dirs, project);
    expect(searched).toContain(join(project, '.awf', 'prompts', 'speckit', 'specify', 'none.md'));
    expect(searched.slice(-2)).toEqual([join(packRoot, 'prompts', 'specify', 'none.md'), rendered]);
    const path = externalFilePath(rendered, sourceDir, dirs, files, {}, project);
    expect(path).toBe(rendered);
    const failure = awfFailure(() => readExternalFile(files, path, 'states.s.prompt_file', searched));
    expect(failure).toMatch(
      /^USER\.INPUT\.MISSING_FILE: states\.s\.prompt_file: .*none\.md: file not found \(looked in: /,
    );
    expect(failure).toContain(join(project, '.awf', 'prompts', 'speckit', 'specify', 'none.md'));
    expect(failure).toContain(join(packRoot, 'prompts', 'specify', 'none.md'));
  });
});
