/**
 * The built CLI runs AWF's github.* operations against a local server that speaks GitHub's REST
 * wire format (GitHub cannot be reached here): the repository from the project's git remote,
 * the API base from GITHUB_API_URL, the token from GITHUB_TOKEN, results as
 * `.states.X.Response.*`; a missing token is USER.GITHUB.NO_TOKEN, exit 1, before any request.
 */
import { execFileSync } from 'node:child_process';
import { FakeGithub } from '../support/github-api.server';
import { spawnAwf } from '../support/cli';
import { workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const triage = `name: triage
description: Label and answer a new issue
inputs:
  - {name: issue, type: integer, required: true}
states:
  initial: read
  read:
    type: operation
    operation: github.get_issue
    inputs: {number: '{{.inputs.issue}}'}
    on_success: sort
  sort:
    type: operation
    operation: github.batch
    inputs:
      strategy: all_succeed
      operations:
        - {name: github.add_labels, number: '{{.inputs.issue}}', labels: [triaged]}
        - {name: github.add_comment, number: '{{.inputs.issue}}', body: 'Thanks! Filed under {{(index .states.read.Response.labels 0).name}}.'}
    on_success: show
  show:
    type: step
    command: 'echo "{{.states.read.Response.title}} [{{.states.read.Response.state}}] {{.states.sort.Response.succeeded}}/{{.states.sort.Response.total}}"'
    on_success: done
  done: {type: terminal}
`;

/** awf run, asynchronously: the fake GitHub answers from this process, so spawnSync would block it. */
function run(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; out: string; err: string }> {
  const child = spawnAwf(args, { cwd, env });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  child.stdin.end();
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, out, err })));
}

describe('awf run with github.* operations (built CLI, local GitHub stand-in)', () => {
  const gh = new FakeGithub();
  const p = workflowProject({ '.awf/workflows/triage.yaml': triage });
  beforeAll(async () => {
    await gh.start();
    execFileSync('git', ['init', '-q'], { cwd: p.dir });
    execFileSync('git', ['remote', 'add', 'origin', 'git@127.0.0.1:acme/widgets.git'], { cwd: p.dir });
  });
  afterAll(async () => {
    await gh.stop();
    p.cleanup();
  });

  it('reads the issue, labels and comments in one batch, prints what it read', async () => {
    gh.seed('acme/widgets', { number: 12, title: 'Dark mode', labels: ['feature'] });
    const env = { ...p.env, GITHUB_API_URL: gh.base, GITHUB_TOKEN: 'ghp_writer', GH_TOKEN: '', GH_REPO: '' };
    const r = await run(['run', 'triage', '-i', 'issue=12'], p.dir, env);
    expect(r.err).not.toContain('ghp_writer');
    expect(r.out).toContain('Dark mode [OPEN] 2/2');
    expect(r.status).toBe(0);
    const issue = gh.repos.get('acme/widgets')!.get(12)!;
    expect(issue.labels).toEqual(['feature', 'triaged']);
    expect(issue.comments.map((c) => c.body)).toEqual(['Thanks! Filed under feature.']);
    // The batch's two run at once, so their order is not fixed.
    expect(gh.seen.map((s) => `${s.method} ${s.path}`).sort()).toEqual([
      'GET /repos/acme/widgets/issues/12',
      'POST /repos/acme/widgets/issues/12/comments',
      'POST /repos/acme/widgets/issues/12/labels',
    ]);
  });

  it('without a token: [USER.GITHUB.NO_TOKEN], exit 1, and GitHub is never asked', async () => {
    gh.seen.length = 0;
    const env = { ...p.env, GITHUB_API_URL: gh.base, GITHUB_TOKEN: '', GH_TOKEN: '' };
    const r = await run(['run', 'triage', '-i', 'issue=12'], p.dir, env);
    expect(r.err).toContain('[USER.GITHUB.NO_TOKEN]');
    expect(r.err).toContain('set GITHUB_TOKEN or GH_TOKEN, or log in with `gh auth login`');
    expect(r.status).toBe(1);
    expect(gh.seen).toEqual([]);
  });
});
