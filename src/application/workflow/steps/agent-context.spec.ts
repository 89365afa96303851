import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { awfFailure } from '../../../../test/support/awf-failure';
import { FsWorkflowFiles } from '../../../infrastructure/core/fs-workflow-files';
import {
  type AgentContextPlace,
  composeSystemPrompt,
  contextDirs,
  loadRole,
  loadSkill,
  skillsText,
  stripFrontmatter,
} from './agent-context';
import { checkAgentContext } from '../validation/agent-context.check';
import { awfDirs } from '../run/awf-dirs';
import { parse } from 'yaml';
import { parseWorkflow } from '../../../domain/workflow/workflow.parser';

describe('agent roles (AGENTS.md) and skills (SKILL.md), found as AWF finds them', () => {
  let root: string;
  let project: string;
  let home: string;
  let place: AgentContextPlace;
  const put = (path: string, text: string): void => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awf-agentctx-'));
    project = join(root, 'project');
    home = join(root, 'home');
    const env = { HOME: home, XDG_CONFIG_HOME: join(root, 'config') };
    // The workflow lives in another project's .awf, so its own .awf and the cwd's differ.
    const sourceDir = join(root, 'other', '.awf', 'workflows');
    mkdirSync(sourceDir, { recursive: true });
    place = { files: new FsWorkflowFiles(), env, dirs: awfDirs(env), cwd: project, sourceDir };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("looks a name up in the workflow's .awf, ./.awf, ./.agents, the config dir, then ~/.agents", () => {
    expect(contextDirs('roles', place)).toEqual([
      join(root, 'other/.awf/roles'),
      join(project, '.awf/roles'),
      join(project, '.agents/roles'),
      join(root, 'config/awf/roles'),
      join(home, '.agents/roles'),
    ]);
    expect(contextDirs('skills', place)).toEqual([
      join(root, 'other/.awf/skills'),
      join(project, '.awf/skills'),
      join(project, '.agents/skills'),
      join(project, '.claude/skills'),
      join(root, 'config/awf/skills'),
      join(home, '.agents/skills'),
      join(home, '.claude/skills'),
    ]);
    expect(contextDirs('roles', { ...place, env: { ...place.env, AWF_ROLES_PATH: 'team:/opt/roles' } })).toEqual([
      join(project, 'team'),
      '/opt/roles',
    ]);
    put(join(root, 'config/awf/roles/reviewer/AGENTS.md'), 'global reviewer');
    expect(loadRole('reviewer', place, 'states.a.role').content).toBe('global reviewer');
    put(join(home, '.agents/roles/reviewer/AGENTS.md'), 'cross-client reviewer');
    put(join(project, '.agents/roles/reviewer/AGENTS.md'), '---\ntitle: Reviewer\n---\n  You review code.  \n');
    expect(loadRole('reviewer', place, 'states.a.role')).toEqual({
      name: 'reviewer',
      file: join(project, '.agents/roles/reviewer/AGENTS.md'),
      content: 'You review code.',
    });
    put(join(root, 'other/.awf/roles/reviewer/AGENTS.md'), 'beside the workflow');
    expect(loadRole('reviewer', place, 'states.a.role').content).toBe('beside the workflow');
  });

  it('takes a path from the workflow dir or ~, to a dir or its AGENTS.md; a global path prefers the local copy', () => {
    put(join(root, 'other/.awf/workflows/roles/qa/AGENTS.md'), 'qa');
    put(join(home, 'roles/ops/AGENTS.md'), 'ops');
    expect(loadRole('./roles/qa', place, 'r').content).toBe('qa');
    expect(loadRole('roles/qa/AGENTS.md', place, 'r').name).toBe('qa');
    expect(loadRole('~/roles/ops', place, 'r').content).toBe('ops');
    put(join(root, 'config/awf/roles/sec/AGENTS.md'), 'global sec');
    expect(loadRole(`${place.dirs.roles_dir}/sec`, place, 'r').content).toBe('global sec');
    put(join(root, 'other/.awf/roles/sec/AGENTS.md'), 'local sec');
    expect(loadRole(`${place.dirs.roles_dir}/sec`, place, 'r').content).toBe('local sec');
  });

  it('says what is missing, with the code and where it looked', () => {
    expect(
      awfFailure(() => loadRole('ghost', { ...place, env: { ...place.env, AWF_ROLES_PATH: '/r1' } }, 'states.a.role')),
    ).toBe('USER.INPUT.MISSING_ROLE: states.a.role: role "ghost" not found: no ghost/AGENTS.md in /r1');
    mkdirSync(join(project, '.awf/roles/empty'), { recursive: true });
    expect(awfFailure(() => loadRole('empty', place, 'states.a.role'))).toBe(
      `USER.INPUT.MISSING_ROLE: states.a.role: role "empty" not found: ${join(project, '.awf/roles/empty')} has no AGENTS.md`,
    );
    expect(awfFailure(() => loadRole('./nowhere', place, 'states.a.role'))).toBe(
      `USER.INPUT.MISSING_ROLE: states.a.role: role "./nowhere": ${join(root, 'other/.awf/workflows/nowhere/AGENTS.md')} is missing`,
    );
    expect(
      awfFailure(() => loadSkill({ name: 'lint' }, { ...place, env: { AWF_SKILLS_PATH: '/s' } }, 'states.a.skills[0]')),
    ).toBe('USER.INPUT.MISSING_SKILL: states.a.skills[0]: skill "lint" not found: no lint/SKILL.md in /s');
    put(join(project, '.awf/roles/big/AGENTS.md'), 'x'.repeat((1 << 20) + 1));
    expect(awfFailure(() => loadRole('big', place, 'r'))).toMatch(
      /^USER\.INPUT\.FILE_TOO_LARGE: r: .*big\/AGENTS\.md is over 1 MB/,
    );
  });

  it("formats skills as AWF's <skill_content> blocks, with their resources", () => {
    const dir = join(project, '.awf/skills/lint');
    put(join(dir, 'SKILL.md'), '---\nname: lint\n---\nRun the linter first.\n');
    put(join(dir, 'scripts/run.sh'), 'eslint .');
    put(join(dir, 'a.md'), 'a');
    put(join(dir, '.git/HEAD'), 'x');
    put(join(dir, 'node_modules/x/index.js'), 'x');
    put(join(dir, 'd1/d2/d3/d4/deep.txt'), 'x');
    put(join(dir, 'd1/d2/d3/d4/d5/too-deep.txt'), 'x');
    put(join(root, 'other/.awf/workflows/tools/fmt/SKILL.md'), 'Format.');
    const lint = loadSkill({ name: 'lint' }, place, 's');
    expect(lint).toEqual({
      name: 'lint',
      location: dir,
      content: 'Run the linter first.',
      resources: ['a.md', 'd1/d2/d3/d4/deep.txt', 'scripts/run.sh'],
    });
    const fmt = loadSkill({ path: 'tools/fmt' }, place, 's');
    expect(skillsText([lint, fmt])).toBe(
      `<skill_content name="lint">\nRun the linter first.\n\nSkill directory: ${dir}\n` +
        'Relative paths in this skill are relative to the skill directory.\n\n<skill_resources>\n' +
        '<file>a.md</file>\n<file>d1/d2/d3/d4/deep.txt</file>\n<file>scripts/run.sh</file>\n</skill_resources>\n' +
        '</skill_content>\n\n' +
        `<skill_content name="fmt">\nFormat.\n\nSkill directory: ${join(root, 'other/.awf/workflows/tools/fmt')}\n` +
        'Relative paths in this skill are relative to the skill directory.\n</skill_content>',
    );
  });

  it('composes role and system_prompt, and strips front matter, as AWF does', () => {
    expect(composeSystemPrompt('role', 'inline')).toBe('role\n\ninline');
    expect(composeSystemPrompt(undefined, 'inline')).toBe('inline');
    expect(composeSystemPrompt('role', undefined)).toBe('role');
    expect(composeSystemPrompt('', '')).toBeUndefined();
    expect(stripFrontmatter('no front matter\n')).toBe('no front matter\n');
    expect(stripFrontmatter('---\na: 1\n---')).toBe('');
    expect(stripFrontmatter('---\nunclosed')).toBe('---\nunclosed');
  });

  it('validate: a skill that cannot be found is an error (as in AWF); a missing role, an empty one and a replaced option warn', () => {
    put(join(project, '.awf/roles/blank/AGENTS.md'), '---\ntitle: nothing\n---\n');
    put(join(project, '.awf/skills/lint/SKILL.md'), 'Lint.');
    const wf = parseWorkflow(
      parse(`name: v
states:
  initial: a
  a: {type: agent, provider: p, prompt: hi, role: blank, skills: [lint, gone], options: {system_prompt: x}, on_success: b}
  b: {type: agent, provider: p, prompt: hi, role: "{{.inputs.r}}", on_success: c}
  c: {type: agent, provider: p, prompt: hi, role: "{{.awf.roles_dir}}/nope", on_success: d}
  d: {type: terminal}
`),
      'v',
    ).workflow!;
    wf.sourceDir = place.sourceDir;
    const issues = checkAgentContext(wf, { files: place.files!, env: place.env, cwd: () => project });
    expect(issues.map((i) => `${i.severity} ${i.code} ${i.path}`)).toEqual([
      'warning USER.INPUT.MISSING_ROLE states.a.role',
      'error USER.INPUT.MISSING_SKILL states.a.skills[1]',
      'warning WORKFLOW.PARSE.INVALID_FIELD states.a.options.system_prompt',
      // b's role reads an input: only the run can tell; c's reads only .awf.*: checked now, and
      // a warning, as AWF's validate does not look for roles (the step fails when it runs).
      'warning USER.INPUT.MISSING_ROLE states.c.role',
    ]);
    expect(issues[3].message).toContain('(AWF does not check roles before running)');
    expect(issues[0].message).toBe(
      `role "blank" (${join(project, '.awf/roles/blank/AGENTS.md')}) is empty: the agent gets no role text`,
    );
  });
});
