import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, openEvents } from '../../support/http-api-client';
import { policedWorkflow } from '../../e2e/workflow-support';
import { apiProject, eventually, servedApi } from './http-api-harness';

jest.setTimeout(90_000);

const write = (file: string, expect = ''): string =>
  `- tool: Write\n  args: {file_path: ${file}, content: landed}${expect ? `\n  expect: ${expect}` : ''}`;

/** An agent step (the script provider, a real MCP client of the proxy) whose Write needs a person. */
const WORKFLOWS = {
  'approved.yaml': policedWorkflow('approve: [Write]', write('approved.txt')),
  'denied.yaml': policedWorkflow(
    'approve: [Write]',
    write('denied.txt', '{is_error: true, contains: POLICY.APPROVAL_DENIED}'),
  ),
};

describe('awf serve: approvals over HTTP', () => {
  const project = apiProject(WORKFLOWS);
  const api = servedApi(project);

  const start = async (workflow: string): Promise<string> =>
    (await call(api.url, 'POST', `/api/workflows/local/${workflow}/run`, { body: {} })).json.body.execution_id;
  const pending = async (id: string): Promise<any[]> =>
    (await call(api.url, 'GET', `/api/executions/${id}/approvals`)).json.body.approvals;
  const waitForQuestion = async (id: string): Promise<any> => {
    let list: any[] = [];
    await eventually(async () => (list = await pending(id)).length > 0, 60_000);
    return list[0];
  };

  it('a Write waits for a person; approving it lands the file, and the stream and audit say who', async () => {
    const id = await start('approved');
    const events = openEvents(api.url, `/api/executions/${id}/events`);
    const question = await waitForQuestion(id);
    expect(question).toMatchObject({
      step: 'work',
      tool: 'Write',
      arguments: { file_path: 'approved.txt', content: 'landed' },
      rule: 'step work: approve "Write"',
    });
    expect(existsSync(join(project.dir, 'approved.txt'))).toBe(false);
    const answer = await call(api.url, 'POST', `/api/executions/${id}/approvals/${question.approval_id}`, {
      body: { decision: 'approve', scope: 'once' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.body).toMatchObject({ decision: 'approve', scope: 'once', by: 'local' });
    await events.ended;
    const kinds = events.frames.map((f) => f.data.kind);
    expect(kinds).toEqual(expect.arrayContaining(['approval.required', 'approval.resolved', 'workflow.completed']));
    expect(kinds.indexOf('approval.required')).toBeLessThan(kinds.indexOf('approval.resolved'));
    expect(readFileSync(join(project.dir, 'approved.txt'), 'utf8')).toBe('landed');
    expect(await pending(id)).toEqual([]);
    // Answered twice: the second is refused, saying it is settled.
    const again = await call(api.url, 'POST', `/api/executions/${id}/approvals/${question.approval_id}`, {
      body: { decision: 'deny' },
    });
    expect([again.status, again.json.code]).toEqual([409, 'USER.SERVE.CONFLICT']);
    const calls = (await call(api.url, 'GET', `/api/executions/${id}/tool-calls`)).json.body.steps[0].events;
    // The approval record every approval path writes: the question's id, the rule, the answer and who gave it.
    expect(calls[0].policy).toEqual({
      decision: 'approved',
      rule: 'step work: approve "Write" (person local)',
      approval: {
        id: question.approval_id,
        rule: 'step work: approve "Write"',
        answer: 'approve',
        scope: 'once',
        by: 'person',
        who: 'local',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
  });

  it('denying refuses the call with POLICY.APPROVAL_DENIED; bad answers and unknown ids are refused', async () => {
    const id = await start('denied');
    const question = await waitForQuestion(id);
    const url = `/api/executions/${id}/approvals/${question.approval_id}`;
    const bad = await call(api.url, 'POST', url, { body: { decision: 'maybe' } });
    expect([bad.status, bad.json.detail]).toEqual([400, '"decision" must be "approve" or "deny"']);
    const unknown = await call(api.url, 'POST', `/api/executions/${id}/approvals/nope`, { body: { decision: 'deny' } });
    expect(unknown.status).toBe(404);
    expect((await call(api.url, 'GET', '/api/executions/no-such-run/approvals')).status).toBe(404);
    expect((await call(api.url, 'POST', url, { body: { decision: 'deny' } })).status).toBe(200);
    await eventually(async () => (await api.index.get(id)).status === 'success', 60_000);
    expect(existsSync(join(project.dir, 'denied.txt'))).toBe(false);
    const calls = (await call(api.url, 'GET', `/api/executions/${id}/tool-calls`)).json.body.steps[0].events;
    expect(calls[0].policy).toMatchObject({ decision: 'rejected', code: 'POLICY.APPROVAL_DENIED' });
    expect(calls[0].policy.rule).toBe('step work: approve "Write" (person local)');
    expect(calls[0].policy.approval).toMatchObject({ id: question.approval_id, answer: 'deny', who: 'local' });
  });
});
