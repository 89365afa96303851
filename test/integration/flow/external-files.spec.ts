import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { RunReport } from '../../../src/domain/workflow/run-report.model';
import { EchoPromptModule } from '../../support/echo-prompt.agent';
import { wiredWorkflowService } from '../../support/wired-workflow-service';

describe('script_file, prompt_file, @prompts/ inputs and .awf dirs, Nest-wired over real files and a real shell', () => {
  let root: string;
  let project: string;
  let config: string;
  const saved = process.env.AWF_CONFIG_HOME;
  const put = (path: string, text: string): void => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };

  const wired = wiredWorkflowService([EchoPromptModule]);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awf-flow-files-'));
    project = join(root, 'project');
    config = join(root, 'config');
    // validate reads the process environment (as the CLI does); the run gets the same dirs.
    process.env.AWF_CONFIG_HOME = config;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.AWF_CONFIG_HOME;
    else process.env.AWF_CONFIG_HOME = saved;
    rmSync(root, { recursive: true, force: true });
  });

  function run(yaml: string, inputs: Record<string, string> = {}): Promise<RunReport> {
    const file = join(project, '.awf', 'workflows', 'wf.yaml');
    put(file, yaml);
    return wired.service.run({
      target: file,
      inputs,
      signal: new AbortController().signal,
      cwd: project,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(root, 'home'), AWF_CONFIG_HOME: config },
      runsDir: join(root, 'runs'),
    });
  }

  it('script_file: found beside the workflow, rendered as a template, inputs in its environment', async () => {
    put(join(project, '.awf', 'workflows', 'scripts', 'greet.sh'), 'echo "{{.inputs.who}} and $who"\n');
    const report = await run(
      `name: wf\ninputs: [{name: who, default: ada}]\nstates:\n  initial: s\n` +
        `  s: {type: step, script_file: scripts/greet.sh, on_success: done}\n  done: {type: terminal}\n`,
    );
    expect(report.steps[0].output).toBe('ada and ada\n');
    expect(report.status).toBe('success');
  });

  it('a shebang script runs as its own file (not through $SHELL -c) and the file is gone afterwards', async () => {
    put(join(project, '.awf', 'workflows', 'py.sh'), '#!/bin/sh\necho "run as $0"\n');
    const report = await run(
      `name: wf\nstates:\n  initial: s\n  s: {type: step, script_file: py.sh, on_success: done}\n  done: {type: terminal}\n`,
    );
    const path = /^run as (\S+)\n$/.exec(report.steps[0].output)?.[1];
    expect(path).toMatch(/awf-script-[^/]+\/script$/);
    expect(existsSync(dirname(path!))).toBe(false);
  });

  it('{{.awf.scripts_dir}} / {{.awf.prompts_dir}}: the project copy (.awf/scripts, .awf/prompts) before the global one', async () => {
    put(join(config, 'scripts', 'who.sh'), 'echo global-script\n');
    put(join(config, 'scripts', 'only-global.sh'), 'echo only-global\n');
    put(join(config, 'prompts', 'ask.md'), 'global prompt');
    const yaml =
      `name: wf\nstates:\n  initial: a\n` +
      `  a: {type: step, script_file: '{{.awf.scripts_dir}}/who.sh', on_success: b}\n` +
      `  b: {type: step, script_file: '{{.awf.scripts_dir}}/only-global.sh', on_success: c}\n` +
      `  c: {type: agent, provider: echo_prompt, prompt_file: '{{.awf.prompts_dir}}/ask.md', on_success: d}\n` +
      `  d: {type: step, command: 'cat {{.awf.scripts_dir}}/who.sh; echo {{.awf.config_dir}}', on_success: done}\n` +
      `  done: {type: terminal}\n`;
    const before = await run(yaml);
    expect(before.steps.map((s) => s.output)).toEqual([
      'global-script\n',
      'only-global\n',
      'global prompt',
      `echo global-script\n${config}\n`,
    ]);
    put(join(project, '.awf', 'scripts', 'who.sh'), 'echo local-script\n');
    put(join(project, '.awf', 'prompts', 'ask.md'), 'local prompt for {{.workflow.Name}}');
    const after = await run(yaml);
    expect(after.steps.map((s) => s.output)).toEqual([
      'local-script\n',
      'only-global\n',
      'local prompt for wf',
      `echo local-script\n${config}\n`,
    ]);
  });

  it('prompt_file: its text is the prompt, rendered with the run (states included)', async () => {
    put(
      join(project, '.awf', 'workflows', 'review.md'),
      'Review {{.states.list.Output | trimSpace}} ({{len .inputs.files}})',
    );
    const report = await run(
      `name: wf\ninputs: [{name: files, type: array, default: [a, b]}]\nstates:\n  initial: list\n` +
        `  list: {type: step, command: echo two, on_success: ask}\n` +
        `  ask: {type: agent, provider: echo_prompt, prompt_file: review.md, on_success: done}\n  done: {type: terminal}\n`,
    );
    expect(report.steps[1].output).toBe('Review two (2)');
  });

  it('validate: a missing prompt_file is an error (as in AWF); a missing script_file or a big file warns; a templated path fails its step', async () => {
    const file = join(project, '.awf', 'workflows', 'bad.yaml');
    put(join(project, '.awf', 'workflows', 'big.md'), 'x'.repeat((1 << 20) + 1));
    put(
      file,
      `name: bad\ninputs: [{name: n, default: none}]\nstates:\n  initial: a\n` +
        `  a: {type: step, script_file: missing.sh, on_success: b}\n` +
        `  b: {type: agent, provider: echo_prompt, prompt_file: big.md, on_success: c}\n` +
        `  c: {type: agent, provider: echo_prompt, prompt_file: gone.md, on_success: d}\n` +
        `  d: {type: step, command: 'echo', dir: x, on_success: done}\n  done: {type: terminal}\n`,
    );
    const v = await wired.service.validate(file);
    expect(v.errors.map((e) => `${e.code} ${e.path}`)).toEqual(['USER.INPUT.MISSING_FILE states.c.prompt_file']);
    // AWF's validate checks only a prompt_file path without a template (that it is there and readable).
    expect(v.warnings.map((e) => `${e.code} ${e.path}`)).toEqual([
      'USER.INPUT.MISSING_FILE states.a.script_file',
      'USER.INPUT.FILE_TOO_LARGE states.b.prompt_file',
    ]);
    expect(v.warnings[0].message).toContain(join(project, '.awf', 'workflows', 'missing.sh'));
    const report = await run(
      `name: wf\ninputs: [{name: n, default: none}]\nstates:\n  initial: a\n` +
        `  a: {type: step, script_file: '{{.inputs.n}}.sh', on_success: done}\n  done: {type: terminal}\n`,
    );
    expect(report.status).toBe('failure');
    expect(report.error).toMatchObject({ code: 'USER.INPUT.MISSING_FILE' });
    expect(report.error?.message).toContain('states.a.script_file');
  });

  it('validate: the text of a script_file is checked as a template (a warning); command with script_file is refused', async () => {
    const file = join(project, '.awf', 'workflows', 'tmpl.yaml');
    put(join(project, '.awf', 'workflows', 'bad.sh'), 'echo {{.inputs.nope}}\n');
    put(
      file,
      `name: t\nstates:\n  initial: a\n  a: {type: step, script_file: bad.sh, on_success: b}\n` +
        `  b: {type: step, command: echo, script_file: bad.sh, on_success: c}\n` +
        `  c: {type: agent, provider: echo_prompt, mode: conversation, prompt_file: bad.sh, on_success: done}\n` +
        `  done: {type: terminal}\n`,
    );
    const v = await wired.service.validate(file);
    expect(v.errors.map((e) => `${e.code} ${e.path}`)).toEqual(
      expect.arrayContaining([
        'WORKFLOW.PARSE.INVALID_FIELD states.b.script_file',
        'WORKFLOW.PARSE.INVALID_FIELD states.c.prompt_file',
      ]),
    );
    // A file's text is not looked at by AWF's validate: a warning (the step fails when it renders it).
    expect(v.warnings.map((e) => `${e.code} ${e.path}`)).toContain(
      `WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE states.a.script_file (${join(project, '.awf', 'workflows', 'bad.sh')})`,
    );
  });

  it('--input x=@prompts/<file>: the prompt text from .awf/prompts, never from outside the prompt dirs', async () => {
    put(join(project, '.awf', 'prompts', 'task.md'), '\n  fix the tests  \n');
    const yaml = `name: wf\ninputs: [{name: task}]\nstates:\n  initial: s\n  s: {type: step, command: 'echo "[$task]"', on_success: done}\n  done: {type: terminal}\n`;
    expect((await run(yaml, { task: '@prompts/task.md' })).steps[0].output).toBe('[fix the tests]\n');
    await expect(run(yaml, { task: '@prompts/../wf.yaml' })).rejects.toMatchObject({
      code: 'USER.INPUT.INVALID_FORMAT',
    });
    await expect(run(yaml, { task: '@prompts/none.md' })).rejects.toMatchObject({ code: 'USER.INPUT.MISSING_FILE' });
  });
});
