import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeGithub } from '../../../test/support/github-api.server';
import type { BuiltinOperation } from '../../domain/workflow/ports/builtin-operation.port';
import { GithubAccess } from './github-access';
import { githubOperations } from './github.operations';
import { GithubRestClient } from './github-rest.client';

const signal = new AbortController().signal;
const REPO = 'acme/widgets';

describe('github.* (AWF built-ins) over REST, against a local server speaking GitHub wire format', () => {
  const gh = new FakeGithub();
  let dir: string;
  /** A PATH with git and without gh. */
  let gitOnly: string;
  beforeAll(async () => {
    await gh.start();
    dir = mkdtempSync(join(tmpdir(), 'awf-github-'));
    gitOnly = join(dir, 'git-only');
    mkdirSync(gitOnly);
    symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(gitOnly, 'git'));
  });
  afterAll(async () => {
    await gh.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    gh.repos.clear();
    gh.seen.length = 0;
    gh.remaining = 5000;
    gh.seed(REPO, { number: 7, title: 'Crash on start', body: 'It crashes.', labels: ['bug'] });
  });

  /** The eight operations with this env (PATH without gh unless given) and cwd. */
  const ops = (env: NodeJS.ProcessEnv, cwd = dir) => {
    const all = githubOperations(new GithubRestClient(new GithubAccess({ PATH: gitOnly, ...env }, () => cwd)));
    return (name: string, inputs: Record<string, unknown>) =>
      (all.find((o) => o.name === `github.${name}`) as BuiltinOperation).execute(inputs, signal);
  };
  const writer = () => ops({ GITHUB_TOKEN: 'ghp_writer', GITHUB_API_URL: gh.base });

  it("get_issue: AWF's outputs in gh's shape, GitHub's headers sent, `fields` applied", async () => {
    const run = writer();
    expect(await run('get_issue', { number: '7', repo: REPO })).toEqual({
      success: true,
      outputs: {
        number: 7,
        title: 'Crash on start',
        body: 'It crashes.',
        state: 'OPEN',
        labels: [{ id: 'LA_bug', name: 'bug', description: '', color: 'd73a4a' }],
      },
    });
    expect(gh.seen[0]).toMatchObject({
      method: 'GET',
      path: '/repos/acme/widgets/issues/7',
      authorization: 'Bearer ghp_writer',
      apiVersion: '2022-11-28',
      accept: 'application/vnd.github+json',
    });
    expect(await run('get_issue', { number: 7, repo: REPO, fields: ['title', 'url'] })).toEqual({
      success: true,
      outputs: { title: 'Crash on start', url: 'https://github.example/acme/widgets/issues/7' },
    });
    const bad = await run('get_issue', { number: 7, repo: REPO, fields: 'title,colour' });
    expect(bad).toMatchObject({ success: false, code: 'USER.GITHUB.INVALID_INPUT' });
    expect(bad.error).toContain('unknown field(s) colour (known: number, title');
    expect(await run('get_issue', { number: 'seven', repo: REPO })).toMatchObject({
      code: 'USER.GITHUB.INVALID_INPUT',
      error: 'number must be a positive integer, not "seven"',
    });
  });

  it('create_pr, get_pr, already_exists; create_issue, add_labels, add_comment, list_comments (paged, limit)', async () => {
    const run = writer();
    const pr = await run('create_pr', {
      title: 'Fix',
      head: 'fix-crash',
      base: 'main',
      body: 'Fixes #7',
      draft: 'true',
      repo: REPO,
    });
    expect(pr).toEqual({
      success: true,
      outputs: { number: '8', url: 'https://github.example/acme/widgets/pull/8', already_exists: 'false' },
    });
    expect(gh.seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/repos/acme/widgets/pulls',
      body: { title: 'Fix', head: 'fix-crash', base: 'main', body: 'Fixes #7', draft: true },
    });
    const again = await run('create_pr', { title: 'Fix', head: 'fix-crash', base: 'main', repo: REPO });
    expect(again.outputs).toEqual({ number: '8', url: expect.stringMatching(/pull\/8$/), already_exists: 'true' });
    gh.repos.get(REPO)!.get(8)!.pull!.merged_at = '2026-12-01T10:00:00Z';
    expect((await run('get_pr', { number: 8, repo: REPO })).outputs).toMatchObject({
      state: 'MERGED',
      headRefName: 'fix-crash',
      baseRefName: 'main',
      mergeable: 'UNKNOWN',
      mergedAt: '2026-12-01T10:00:00Z',
    });
    const noBranch = await run('create_pr', { title: 'x', head: 'no-such-branch', base: 'main', repo: REPO });
    expect(noBranch).toMatchObject({ success: false, code: 'USER.GITHUB.REJECTED' });
    expect(noBranch.error).toContain('GitHub refused it (422 Validation Failed');

    const issue = await run('create_issue', { title: 'Docs', labels: ['docs'], assignees: '["octocat"]', repo: REPO });
    expect(issue.outputs).toEqual({ number: '9', url: 'https://github.example/acme/widgets/issues/9' });
    expect(gh.seen.at(-1)?.body).toEqual({ title: 'Docs', labels: ['docs'], assignees: ['octocat'] });
    expect((await run('add_labels', { number: 7, labels: 'p1, triaged', repo: REPO })).outputs).toEqual({
      labels: 'p1,triaged',
    });
    expect(gh.repos.get(REPO)!.get(7)!.labels).toEqual(['bug', 'p1', 'triaged']);
    for (let i = 1; i <= 105; i++) {
      const c = await run('add_comment', { number: 7, body: `note ${i}`, repo: REPO });
      if (i === 1)
        expect(c.outputs).toEqual({ comment_id: '9000', url: expect.stringContaining('#issuecomment-9000') });
    }
    const all = await run('list_comments', { number: 7, repo: REPO });
    expect(all.outputs.total).toBe(105);
    expect((all.outputs.comments as unknown[])[104]).toEqual({
      id: 'IC_kw9104',
      author: { login: 'octocat' },
      authorAssociation: 'OWNER',
      body: 'note 105',
      createdAt: expect.any(String),
      url: expect.stringContaining('#issuecomment-9104'),
    });
    expect(gh.seen.filter((s) => s.path.includes('/comments?')).map((s) => s.path)).toEqual([
      '/repos/acme/widgets/issues/7/comments?per_page=100',
      '/repos/acme/widgets/issues/7/comments?per_page=100&page=2',
    ]);
    expect((await run('list_comments', { number: 7, limit: 3, repo: REPO })).outputs.total).toBe(3);
  });

  it('errors say what to do: no token, 401, 403 with the permission, 404, rate limit with its reset, unreachable', async () => {
    const none = await ops({ GITHUB_API_URL: gh.base })('get_issue', { number: 7, repo: REPO });
    expect(none).toEqual({
      success: false,
      outputs: {},
      code: 'USER.GITHUB.NO_TOKEN',
      error: 'no GitHub token: set GITHUB_TOKEN or GH_TOKEN, or log in with `gh auth login`',
    });
    expect(gh.seen).toHaveLength(0);
    const wrong = await ops({ GH_TOKEN: 'ghp_expired', GITHUB_API_URL: gh.base })('get_issue', {
      number: 7,
      repo: REPO,
    });
    expect(wrong).toMatchObject({ code: 'USER.GITHUB.AUTH_FAILED' });
    expect(wrong.error).toContain('GitHub refused the token from GH_TOKEN (401 Bad credentials)');
    expect(wrong.error).not.toContain('ghp_expired');
    const reader = ops({ GITHUB_TOKEN: 'ghp_reader', GITHUB_API_URL: gh.base });
    const denied = await reader('add_comment', { number: 7, body: 'hi', repo: REPO });
    expect(denied).toMatchObject({ code: 'USER.GITHUB.FORBIDDEN' });
    expect(denied.error).toContain('403 (Resource not accessible by personal access token)');
    expect(denied.error).toContain('it needs issues=write');
    const missing = await reader('get_issue', { number: 404, repo: REPO });
    expect(missing).toMatchObject({
      code: 'USER.GITHUB.NOT_FOUND',
      error: 'issue #404 of acme/widgets: not found (404), or the token from GITHUB_TOKEN cannot see it',
    });
    gh.remaining = 0;
    const limited = await reader('get_issue', { number: 7, repo: REPO });
    expect(limited).toMatchObject({ code: 'EXECUTION.GITHUB.RATE_LIMITED' });
    expect(limited.error).toContain("GitHub's rate limit of 5000 requests (core) is spent; it resets at ");
    expect(limited.error).toContain(new Date(gh.resetAt * 1000).toISOString());
    const closed = await freePort();
    const down = await ops({ GITHUB_TOKEN: 't', GITHUB_API_URL: `http://127.0.0.1:${closed}/api/v3` })('get_pr', {
      number: 1,
      repo: REPO,
    });
    expect(down).toMatchObject({ code: 'EXECUTION.GITHUB.REQUEST_FAILED' });
    expect(down.error).toContain(`cannot reach http://127.0.0.1:${closed}: ECONNREFUSED`);
    const badUrl = await ops({ GITHUB_TOKEN: 't', GITHUB_API_URL: 'ftp://x' })('get_pr', { number: 1, repo: REPO });
    expect(badUrl.code).toBe('USER.GITHUB.INVALID_INPUT');
  });

  it('repository: the input, then GH_REPO, then the origin remote on that GitHub, then GITHUB_REPOSITORY', async () => {
    const project = join(dir, 'project');
    mkdirSync(project, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: project });
    const env = { GITHUB_TOKEN: 'ghp_writer', GITHUB_API_URL: gh.base };
    const noRemote = await ops(env, project)('get_issue', { number: 7 });
    expect(noRemote).toMatchObject({ code: 'USER.GITHUB.NO_REPO' });
    expect(noRemote.error).toContain('has no git remote named origin (or git is not on PATH); pass repo: owner/name');
    expect((await ops({ ...env, GITHUB_REPOSITORY: REPO }, project)('get_issue', { number: 7 })).success).toBe(true);
    execFileSync('git', ['remote', 'add', 'origin', 'https://user:secret@elsewhere.example/acme/widgets.git'], {
      cwd: project,
    });
    const elsewhere = await ops(env, project)('get_issue', { number: 7 });
    expect(elsewhere.error).toContain(
      'the origin remote (https://elsewhere.example/acme/widgets.git) is not a repository on 127.0.0.1',
    );
    execFileSync('git', ['remote', 'set-url', 'origin', 'git@127.0.0.1:acme/widgets.git'], { cwd: project });
    expect((await ops(env, project)('get_issue', { number: 7 })).outputs.title).toBe('Crash on start');
    gh.seed('other/repo', { number: 1, title: 'From GH_REPO' });
    expect((await ops({ ...env, GH_REPO: 'other/repo' }, project)('get_issue', { number: 1 })).outputs.title).toBe(
      'From GH_REPO',
    );
    expect((await ops(env, project)('get_issue', { number: 1, repo: 'nope' })).error).toContain(
      'repo "nope" is not owner/name',
    );
  });

  it('token from `gh auth token --hostname <host>` when gh is on PATH and no variable is set', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    const log = join(dir, 'gh-args');
    writeFileSync(join(bin, 'gh'), `#!/bin/sh\necho "$@" > '${log}'\necho ghp_writer\n`);
    chmodSync(join(bin, 'gh'), 0o755);
    const res = await ops({ PATH: `${bin}:/usr/bin:/bin`, GITHUB_API_URL: gh.base })('get_issue', {
      number: 7,
      repo: REPO,
    });
    expect(res.success).toBe(true);
    expect(readFileSync(log, 'utf8').trim()).toBe('auth token --hostname 127.0.0.1');
    expect(gh.seen[0].authorization).toBe('Bearer ghp_writer');
  });

  it('batch: results in order, strategies decide the step, inputs nested or beside name', async () => {
    const run = writer();
    const labels = (n: number) => ({ name: 'github.add_labels', number: n, labels: ['batch'], repo: REPO });
    gh.seed(REPO, { number: 2, title: 'two' });
    const best = await run('batch', {
      operations: [labels(7), labels(999), { name: 'github.get_issue', inputs: { number: 2, repo: REPO } }],
    });
    expect(best.success).toBe(true);
    expect(best.outputs).toMatchObject({ total: 3, succeeded: 2, failed: 1 });
    const results = best.outputs.results as {
      Name: string;
      Success: boolean;
      Outputs: Record<string, unknown>;
      Code: string;
    }[];
    expect(results.map((r) => [r.Name, r.Success, r.Code])).toEqual([
      ['github.add_labels', true, ''],
      ['github.add_labels', false, 'USER.GITHUB.NOT_FOUND'],
      ['github.get_issue', true, ''],
    ]);
    expect(results[2].Outputs.title).toBe('two');
    const all = await run('batch', { strategy: 'all_succeed', concurrency: 1, operations: [labels(999), labels(7)] });
    expect(all).toMatchObject({ success: false, code: 'USER.GITHUB.NOT_FOUND', outputs: { succeeded: 0, failed: 2 } });
    expect((all.outputs.results as { Error: string }[])[1].Error).toBe('not run: an earlier operation failed');
    const any = await run('batch', { strategy: 'any_succeed', concurrency: 1, operations: [labels(7), labels(2)] });
    expect(any.outputs).toMatchObject({ succeeded: 1, failed: 1 });
    expect(gh.seen.filter((s) => s.path.endsWith('/2/labels'))).toHaveLength(0);
    expect((await run('batch', { strategy: 'fastest', operations: [labels(7)] })).code).toBe(
      'USER.GITHUB.INVALID_INPUT',
    );
    expect((await run('batch', { operations: [{ name: 'github.batch' }] })).error).toContain(
      'operations[0].name "github.batch" is not one of github.get_issue',
    );
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
