/**
 * The keys AWF parses and ignores are no longer silent: `author` and `tags` are shown by
 * `awf list` (and filtered with --tag), `awf validate` and `awf run <wf> --help`; `env:` as a
 * list refuses to start without those variables and as a mapping sets them (secret-looking
 * values masked); `capture` warns that it does nothing, saying what does; `depends_on` warns where the routes do not
 * already run what it names first.
 */
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const review = `name: review
description: Review the open changes
author: Platform Team
tags: [ci, review]
env:
  STAGE: staging
  DEPLOY_TOKEN: tk-93fe11ab
states:
  initial: show
  show:
    type: step
    command: 'echo "stage=$STAGE token=$DEPLOY_TOKEN"'
    depends_on: [nothing]
    capture: {stdout: out}
    on_success: done
  done: {type: terminal}
`;
const nightly = `name: nightly
tags: [ci]
env: [AWF_E2E_UNSET_VAR]
states:
  initial: s
  s: {type: step, command: 'echo ran', on_success: done}
  done: {type: terminal}
`;
const plain = `name: plain
states:
  initial: done
  done: {type: terminal}
`;

describe('author, tags, env, depends_on and capture (built CLI)', () => {
  const p = workflowProject({
    '.awf/workflows/review.yaml': review,
    '.awf/workflows/nightly.yaml': nightly,
    '.awf/workflows/plain.yaml': plain,
  });
  const run = (args: string[]) => awf(args, { cwd: p.dir, env: { ...p.env, AWF_E2E_UNSET_VAR: '' } });
  afterAll(() => p.cleanup());

  it('awf list shows TAGS and filters with --tag (every tag given must match); -f json has author and tags', () => {
    const all = run(['list']);
    expect(all.stdout).toMatch(/NAME\s+SOURCE\s+VERSION\s+TAGS\s+DESCRIPTION/);
    expect(all.stdout).toMatch(/review\s+local\s+ci,review\s+Review the open changes/);
    const ci = run(['list', '--tag', 'CI', '-f', 'quiet']);
    expect(ci.stdout).toBe('nightly\nreview\n');
    expect(run(['list', '-t', 'ci', '-t', 'review', '-f', 'quiet']).stdout).toBe('review\n');
    expect(run(['list', '--tag', 'deploy']).stdout).toBe('No workflow is tagged "deploy".\n');
    const json = JSON.parse(run(['list', '-f', 'json']).stdout) as { workflows: Record<string, unknown>[] };
    expect(json.workflows.find((w) => w.name === 'review')).toMatchObject({
      author: 'Platform Team',
      tags: ['ci', 'review'],
    });
    expect(json.workflows.find((w) => w.name === 'plain')).not.toHaveProperty('tags');
  });

  it('awf validate and awf run --help show author and tags; depends_on and capture warn', () => {
    const v = run(['validate', 'review']);
    expect(v.stdout).toBe("Workflow 'review' is valid\nAuthor: Platform Team\nTags: ci, review\n");
    expect(v.stderr).toContain(
      'warning: [WORKFLOW.PARSE.NO_EFFECT] states.show.depends_on: "nothing" is not a state of this workflow; ' +
        'depends_on does not order steps',
    );
    expect(v.stderr).toContain('[WORKFLOW.PARSE.NO_EFFECT] states.show.capture: capture has no effect');
    expect(v.status).toBe(0);
    expect(run(['validate', 'review', '--strict']).status).not.toBe(0);
    const help = run(['run', 'review', '--help']);
    expect(help.stdout).toContain(
      'Workflow: review\nDescription: Review the open changes\nAuthor: Platform Team\nTags: ci, review\n',
    );
  });

  it('env: the mapping is set for the run, its secret-looking value masked; the list warns and the run goes on (as AWF)', () => {
    const r = run(['run', 'review']);
    expect(r.stdout).toContain('stage=staging token=***');
    expect(r.stdout + r.stderr).not.toContain('tk-93fe11ab');
    expect(r.status).toBe(0);
    const n = run(['run', 'nightly']);
    expect(n.stderr).toContain(
      'warning: [USER.ENV.MISSING] nightly lists AWF_E2E_UNSET_VAR in env:, and it is not set; the run goes on',
    );
    expect(n.stdout).toContain('ran');
    expect(n.status).toBe(0);
  });
});
