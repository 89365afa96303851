/**
 * Agent `role` and `skills` with the built CLI, against a scripted Chat Completions model on
 * 127.0.0.1 that logs what it was sent: the role's AGENTS.md, then the step's system_prompt, is
 * the system message (replacing options.system_prompt, with a warning); each SKILL.md comes
 * before the prompt as AWF's <skill_content> block. A missing role or skill is refused by
 * `validate` (exit 1); a role that only the run can name fails the run before the model is asked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel, type ScriptedModel } from '../agents/scripted-model.server';
import { runAwfAsync } from '../support/telemetry-serve';
import { awf, workflowProject } from './workflow-support';

const step = (url: string, extra: string, options = '') => `name: ask
inputs:
  - {name: who, default: reviewer}
states:
  initial: ask
  ask:
    type: agent
    provider: openai_compatible
${extra}
    prompt: "Review {{.inputs.who}}'s change"
    options: {base_url: "${url}/v1", model: scripted, api_key: k${options}}
    on_success: done
  done: {type: terminal}
`;

describe('awf run / validate: agent role and skills', () => {
  let model: ScriptedModel;
  const p = workflowProject({
    '.awf/roles/reviewer/AGENTS.md': '---\ntitle: Reviewer\n---\nYou are a careful reviewer.\n',
    '.awf/skills/lint/SKILL.md': 'Run the linter before you comment.',
    '.awf/skills/lint/rules/style.md': 'no tabs',
  });
  const write = (name: string, extra: string, options?: string) =>
    writeFileSync(join(p.dir, '.awf/workflows', `${name}.yaml`), step(model.url, extra, options));

  beforeAll(async () => {
    model = await startScriptedModel();
    mkdirSync(join(p.dir, '.awf/workflows'), { recursive: true });
    write(
      'full',
      '    role: reviewer\n    skills: [lint]\n    system_prompt: Answer in one word.',
      ', system_prompt: replaced',
    );
    write('ghost-role', '    role: ghost');
    write('ghost-skill', '    skills: [lint, {path: ../nowhere}]');
    write('late-role', '    role: "{{.inputs.who}}"');
  });
  afterAll(async () => {
    await model.close();
    p.cleanup();
  });

  it('sends the role + system_prompt as the system message and the skills before the prompt', async () => {
    model.reset([]);
    const r = await runAwfAsync(['run', 'full'], { cwd: p.dir, env: p.env });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('ok\n'); // the scripted model's answer when it is offered no tools
    expect(r.stderr).toContain("options.system_prompt is replaced by the step's role and system_prompt");
    expect(model.requests).toHaveLength(1);
    const messages = model.requests[0].body.messages as { role: string; content: string }[];
    expect(messages).toEqual([
      { role: 'system', content: 'You are a careful reviewer.\n\nAnswer in one word.' },
      {
        role: 'user',
        content:
          '<skill_content name="lint">\nRun the linter before you comment.\n\n' +
          `Skill directory: ${join(p.dir, '.awf/skills/lint')}\n` +
          'Relative paths in this skill are relative to the skill directory.\n\n' +
          '<skill_resources>\n<file>rules/style.md</file>\n</skill_resources>\n</skill_content>\n\n' +
          "Review reviewer's change",
      },
    ]);
  });

  it('validate warns of a missing role (AWF does not look; --strict: exit 1) and refuses a missing skill, saying where it looked', () => {
    const role = awf(['validate', 'ghost-role'], { cwd: p.dir, env: p.env });
    expect(role.stderr).toContain(
      `warning: [USER.INPUT.MISSING_ROLE] states.ask.role: role "ghost" not found: no ghost/AGENTS.md in ${p.dir}/.awf/roles, `,
    );
    expect(role.status).toBe(0);
    const strict = awf(['validate', 'ghost-role', '--strict'], { cwd: p.dir, env: p.env });
    expect(strict.stderr).toContain('[USER.INPUT.MISSING_ROLE] states.ask.role: role "ghost" not found');
    expect(strict.status).toBe(1);
    const skill = awf(['validate', 'ghost-skill'], { cwd: p.dir, env: p.env });
    expect(skill.stderr).toContain(
      `[USER.INPUT.MISSING_SKILL] states.ask.skills[1]: skill "../nowhere": ${p.dir}/.awf/nowhere/SKILL.md is missing`,
    );
    expect(skill.stderr).not.toContain('skills[0]');
    expect(skill.status).toBe(1);
  });

  it('a role named by an input is found when the step runs, and a missing one stops the run before the model', async () => {
    model.reset([]);
    expect(awf(['validate', 'late-role'], { cwd: p.dir, env: p.env }).status).toBe(0);
    const ok = await runAwfAsync(['run', 'late-role'], { cwd: p.dir, env: p.env });
    expect(ok.status).toBe(0);
    expect((model.requests[0].body.messages as { role: string }[])[0]).toEqual({
      role: 'system',
      content: 'You are a careful reviewer.',
    });
    model.reset([]);
    const r = await runAwfAsync(['run', 'late-role', '-i', 'who=ghost'], { cwd: p.dir, env: p.env });
    expect(r.stderr).toContain('[USER.INPUT.MISSING_ROLE] states.ask.role: role "ghost" not found');
    expect(r.status).toBe(1);
    expect(model.requests).toHaveLength(0);
  });
});
