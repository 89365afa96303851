import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { RunReport } from '../../../src/domain/workflow/run-report.model';
import { EchoPromptModule } from '../../support/echo-prompt.agent';
import { wiredWorkflowService } from '../../support/wired-workflow-service';

const WORKFLOW =
  `name: specify\nstates:\n  initial: ask\n` +
  `  ask: {type: agent, provider: echo_prompt, prompt_file: '{{.awf.prompts_dir}}/specify/system.md', on_success: build}\n` +
  `  build: {type: step, script_file: '{{.awf.scripts_dir}}/build.sh', on_success: lint}\n` +
  `  lint: {type: step, command: 'sh {{.awf.scripts_dir}}/lint.sh', on_success: done}\n` +
  `  done: {type: terminal}\n`;

/**
 * `awf run pack/wf` reads `{{.awf.prompts_dir}}/…` and `{{.awf.scripts_dir}}/…` through AWF's
 * three tiers: the project's `.awf/<kind>/<pack>/`, the pack's own `<kind>/`, the global dir.
 * The pack is installed --global (under $XDG_DATA_HOME), the project is the run's cwd.
 */
describe('pack workflows: prompt_file, script_file and commands through the three tiers (Nest-wired, real files)', () => {
  let root: string;
  let project: string;
  let config: string;
  let packRoot: string;
  const saved = { AWF_CONFIG_HOME: process.env.AWF_CONFIG_HOME, XDG_DATA_HOME: process.env.XDG_DATA_HOME };
  const put = (path: string, text: string): void => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };

  const wired = wiredWorkflowService([EchoPromptModule]);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awf-pack-files-'));
    project = join(root, 'project');
    config = join(root, 'config');
    // The repository and validate read the process environment, as the CLI does.
    process.env.AWF_CONFIG_HOME = config;
    process.env.XDG_DATA_HOME = join(root, 'data');
    packRoot = join(root, 'data', 'awf', 'workflow-packs', 'speckit');
    put(join(packRoot, 'manifest.yaml'), 'name: speckit\nversion: 1.0.0\nworkflows: [specify]\n');
    put(join(packRoot, 'state.json'), '{"name":"speckit","enabled":true}');
    put(join(packRoot, 'workflows', 'specify.yaml'), WORKFLOW);
    mkdirSync(project, { recursive: true });
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(root, { recursive: true, force: true });
  });

  const run = (): Promise<RunReport> =>
    wired.service.run({
      target: 'speckit/specify',
      inputs: {},
      signal: new AbortController().signal,
      cwd: project,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(root, 'home'), AWF_CONFIG_HOME: config },
      runsDir: join(root, 'runs'),
    });
  const outputs = (r: RunReport) => r.steps.map((s) => s.output);

  it('global, then the pack, then the project override; each file on its own', async () => {
    put(join(config, 'prompts', 'specify', 'system.md'), 'global prompt');
    put(join(config, 'scripts', 'build.sh'), 'echo global build\n');
    put(join(config, 'scripts', 'lint.sh'), 'echo global lint\n');
    expect(outputs(await run())).toEqual(['global prompt', 'global build\n', 'global lint\n']);

    put(join(packRoot, 'prompts', 'specify', 'system.md'), 'pack prompt of {{.awf.pack_name}}');
    put(join(packRoot, 'scripts', 'build.sh'), 'echo pack build\n');
    put(join(packRoot, 'scripts', 'lint.sh'), 'echo pack lint\n');
    expect(outputs(await run())).toEqual(['pack prompt of speckit', 'pack build\n', 'pack lint\n']);

    put(join(project, '.awf', 'prompts', 'speckit', 'specify', 'system.md'), 'my prompt');
    put(join(project, '.awf', 'scripts', 'speckit', 'lint.sh'), 'echo my lint\n');
    // build.sh has no override: the pack's copy still serves it.
    expect(outputs(await run())).toEqual(['my prompt', 'pack build\n', 'my lint\n']);
    // An override for another pack, or the project's un-namespaced copy, is not this pack's.
    put(join(project, '.awf', 'scripts', 'build.sh'), 'echo project build\n');
    put(join(project, '.awf', 'scripts', 'other', 'build.sh'), 'echo other build\n');
    expect(outputs(await run())[1]).toBe('pack build\n');
  });

  it('a prompt in no tier: validate names the three places; the run never starts a step', async () => {
    put(join(config, 'scripts', 'build.sh'), 'echo b\n');
    const report = await wired.service.validate('speckit/specify');
    expect(report.valid).toBe(true); // the path is a template: AWF checks it only when the step runs
    const missing = report.warnings.find((w) => w.path === 'states.ask.prompt_file');
    expect(missing?.code).toBe('USER.INPUT.MISSING_FILE');
    // validate's project is the process's working directory, as for the CLI.
    const override = (dir: string) => join(dir, '.awf', 'prompts', 'speckit', 'specify', 'system.md');
    expect(missing?.message).toContain(`(looked in: ${override(process.cwd())}, `);
    expect(missing?.message).toContain(join(packRoot, 'prompts', 'specify', 'system.md'));
    expect(missing?.message).toContain(join(config, 'prompts', 'specify', 'system.md'));

    const failed = await run();
    expect(failed.status).toBe('failure');
    expect(failed.error?.code).toBe('USER.INPUT.MISSING_FILE');
    expect(failed.error?.message).toMatch(/^states\.ask\.prompt_file: .*system\.md: file not found \(looked in: /);
    expect(failed.error?.message).toContain(
      `(looked in: ${override(project)}, ${join(packRoot, 'prompts', 'specify', 'system.md')}, ` +
        `${join(config, 'prompts', 'specify', 'system.md')})`,
    );
  });
});
