import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { YamlWorkflowRepository } from './yaml-workflow.repository';

const wf = (name: string, description: string) =>
  `name: ${name}\ndescription: ${description}\nversion: "2"\nstates:\n  initial: done\n  done: {type: terminal}\n`;

describe('YamlWorkflowRepository', () => {
  let dir: string;
  let repo: YamlWorkflowRepository;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'awf-repo-'));
    for (const d of ['env', 'project/.awf/workflows', 'config/awf/workflows'])
      mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, 'env/shared.yaml'), wf('shared', 'from env'));
    writeFileSync(join(dir, 'project/.awf/workflows/shared.yaml'), wf('shared', 'from project'));
    writeFileSync(join(dir, 'project/.awf/workflows/local.yaml'), wf('local', 'only local'));
    writeFileSync(join(dir, 'project/.awf/workflows/ignored.yml'), wf('ignored', 'yml is not a workflow'));
    writeFileSync(join(dir, 'config/awf/workflows/global.yaml'), wf('global', 'user wide'));
    writeFileSync(join(dir, 'config/awf/workflows/broken.yaml'), 'name: [unclosed');
    repo = new YamlWorkflowRepository(
      { AWF_WORKFLOWS_PATH: join(dir, 'env'), XDG_CONFIG_HOME: join(dir, 'config') },
      () => join(dir, 'project'),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a name in $AWF_WORKFLOWS_PATH, then ./.awf/workflows, then the user config dir', async () => {
    expect((await repo.load('shared')).workflow?.description).toBe('from env');
    expect((await repo.load('local')).workflow?.description).toBe('only local');
    expect((await repo.load('global')).workflow).toMatchObject({
      id: 'global',
      sourceDir: join(dir, 'config/awf/workflows'),
    });
  });

  it("expands use_template from the workflow's own .awf, then ./.awf/templates, then <storage>/templates", async () => {
    const tpl = (name: string, text: string) =>
      `name: ${name}\nparameters: [{name: who, default: you}]\nstates:\n  ${name}: {type: step, command: "echo ${text} {{parameters.who}}"}\n`;
    const uses = (t: string) =>
      `name: u\nstates:\n  initial: a\n  a: {use_template: ${t}, parameters: {who: me}, on_success: done}\n  done: {type: terminal}\n`;
    for (const d of ['project/.awf/templates', 'other/.awf/workflows', 'other/.awf/templates', 'data/awf/templates'])
      mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, 'project/.awf/templates/hello.yaml'), tpl('hello', 'project'));
    writeFileSync(join(dir, 'other/.awf/templates/hello.yaml'), tpl('hello', 'beside'));
    writeFileSync(join(dir, 'data/awf/templates/wide.yaml'), tpl('wide', 'storage'));
    writeFileSync(join(dir, 'other/.awf/workflows/u.yaml'), uses('hello'));
    writeFileSync(join(dir, 'project/.awf/workflows/u.yaml'), uses('wide'));
    writeFileSync(join(dir, 'project/.awf/workflows/v.yaml'), uses('hello'));
    writeFileSync(join(dir, 'project/.awf/workflows/w.yaml'), uses('gone'));
    const withData = new YamlWorkflowRepository({ XDG_DATA_HOME: join(dir, 'data') }, () => join(dir, 'project'));
    const command = async (target: string) => {
      const step = (await withData.load(target)).workflow?.steps.find((s) => s.name === 'a');
      return step?.type === 'step' ? step.command : undefined;
    };
    expect(await command(join(dir, 'other/.awf/workflows/u.yaml'))).toBe('echo beside me');
    expect(await command('v')).toBe('echo project me');
    expect(await command('u')).toBe('echo storage me');
    expect((await withData.load('w')).issues.map((i) => i.message)).toEqual([
      `template "gone" not found (looked for gone.yaml in: ${join(dir, 'project/.awf/templates')}, ` +
        `${join(dir, 'data/awf/templates')}); create ${join(dir, 'project/.awf/templates')}/gone.yaml, or fix the name`,
    ]);
  });

  it('loads a path relative to the working directory', async () => {
    expect((await repo.load('.awf/workflows/local.yaml')).file).toBe(join(dir, 'project/.awf/workflows/local.yaml'));
  });

  it('says where it looked when a workflow is missing, and refuses traversal', async () => {
    await expect(repo.load('nope')).rejects.toMatchObject({
      code: 'USER.WORKFLOW.NOT_FOUND',
      message: expect.stringContaining(join(dir, 'project/.awf/workflows/nope.yaml')),
    });
    await expect(repo.load('..')).rejects.toMatchObject({ code: 'USER.WORKFLOW.NOT_FOUND' });
  });

  it('turns YAML syntax errors into issues instead of throwing', async () => {
    const loaded = await repo.load('broken');
    expect(loaded.workflow).toBeUndefined();
    expect(loaded.issues[0]).toMatchObject({ code: 'WORKFLOW.PARSE.YAML_SYNTAX' });
  });

  it('stops at 20 syntax errors of a garbage file and says where the rest begin', async () => {
    writeFileSync(join(dir, 'env/garbage.yaml'), `name: t\nstates:\n${'  x: [}{\n'.repeat(50_000)}`);
    const { issues } = await repo.load('garbage');
    expect(issues).toHaveLength(21);
    expect(issues[0]).toMatchObject({ line: 3, message: expect.stringMatching(/garbage\.yaml:3:\d+: /) });
    expect(issues[20].message).toMatch(/^… and more YAML syntax errors after line \d+ /);
  });

  it('still reports a file with a few errors in full, without a cut', async () => {
    writeFileSync(join(dir, 'env/few.yaml'), 'name: t\nstates: [}\n');
    const { issues } = await repo.load('few');
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.length).toBeLessThan(20);
    expect(issues.map((i) => i.message).join('\n')).not.toContain('… and more');
  });

  it('lists each name once, first hit wins, .yaml only', async () => {
    const list = await repo.list();
    expect(list.map((w) => [w.name, w.source, w.description])).toEqual([
      ['shared', 'env', 'from env'],
      ['local', 'local', 'only local'],
      ['broken', 'global', expect.stringContaining('cannot be parsed')],
      ['global', 'global', 'user wide'],
    ]);
    expect(list[0].version).toBe('2');
  });
});
