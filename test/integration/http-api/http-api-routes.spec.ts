import { call, openEvents } from '../../support/http-api-client';
import { apiProject, eventually, servedApi } from './http-api-harness';
import { API_WORKFLOWS, COMPLETED_RUN, kinds } from './workflows.fixture';

jest.setTimeout(60_000);

describe('awf serve: AWF routes over a real socket', () => {
  const project = apiProject(API_WORKFLOWS);
  const api = servedApi(project);

  it('lists, reads and validates workflows in AWF shapes, inside its {body} envelope', async () => {
    const list = await call(api.url, 'GET', '/api/workflows');
    expect(list.status).toBe(200);
    expect(list.json.body.workflows).toContainEqual({
      name: 'hello',
      scope: 'env',
      workflow: 'hello',
      version: '1.2.0',
      description: 'says hello',
    });
    const hello = await call(api.url, 'GET', '/api/workflows/local/hello');
    expect(hello.json.body).toMatchObject({
      Name: 'hello',
      Initial: 'greet',
      Inputs: [{ Name: 'who', Required: true }],
    });
    expect(hello.json.body.Steps.greet).toMatchObject({ Type: 'command', OnSuccess: 'done' });
    const valid = await call(api.url, 'POST', '/api/workflows/local/hello/validate');
    expect([valid.status, valid.json]).toEqual([200, { body: { errors: null } }]);
    const broken = await call(api.url, 'POST', '/api/workflows/local/broken/validate');
    expect(broken.status).toBe(422);
    expect(broken.headers['content-type']).toBe('application/problem+json');
    expect(broken.json).toMatchObject({
      title: 'Unprocessable Entity',
      status: 422,
      code: expect.stringMatching(/^WORKFLOW\./),
    });
    expect(broken.json.detail).toContain('nowhere');
  });

  it('answers an unknown workflow, scope or path with an RFC 7807 404', async () => {
    for (const path of [
      '/api/workflows/local/nope',
      '/api/workflows/somepack/hello',
      '/api/workflows/local/..%2F..%2Fetc%2Fpasswd',
      '/api/workflows/local/hello.yaml/validate',
    ]) {
      const r = await call(api.url, path.endsWith('validate') ? 'POST' : 'GET', path);
      expect([path, r.status, r.json.code]).toEqual([path, 404, 'USER.WORKFLOW.NOT_FOUND']);
      expect(r.json.detail).toMatch(/^workflow not found: /);
    }
    const route = await call(api.url, 'GET', '/api/nothing-here');
    expect([route.status, route.json.code]).toEqual([404, 'USER.SERVE.NOT_FOUND']);
  });

  it('starts a run detached (202), streams it to its end, and keeps it in executions and history', async () => {
    const started = await call(api.url, 'POST', '/api/workflows/local/hello/run', { body: { inputs: { who: 'ada' } } });
    expect(started.status).toBe(202);
    expect(started.json.body).toEqual({ execution_id: expect.any(String), status: 'accepted' });
    const id = started.json.body.execution_id as string;
    const events = openEvents(api.url, `/api/executions/${id}/events`);
    await events.ended;
    expect(kinds(events.frames)).toEqual(COMPLETED_RUN);
    expect(events.frames.map((f) => f.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(events.frames[2].data).toEqual({
      kind: 'step.completed',
      run_id: id,
      seq: 3,
      step: 'greet',
      status: 'completed',
    });
    const run = await call(api.url, 'GET', `/api/executions/${id}`);
    expect(run.json.body).toMatchObject({
      execution_id: id,
      workflow_name: 'hello',
      status: 'completed',
      inputs: { who: 'ada' },
      steps: [{ name: 'greet', type: 'command', status: 'completed', exit_code: 0 }],
    });
    const list = await call(api.url, 'GET', '/api/executions');
    expect(list.json.body.executions[0]).toMatchObject({ execution_id: id, status: 'completed' });
    const history = await call(api.url, 'GET', '/api/history?workflow=hello&status=success');
    expect(history.json.body.entries[0]).toMatchObject({ id, workflow_name: 'hello', status: 'success' });
    const stats = await call(api.url, 'GET', '/api/history/stats?workflow=hello');
    expect(stats.json.body).toMatchObject({ TotalExecutions: 1, SuccessCount: 1, FailedCount: 0, CancelledCount: 0 });
    const calls = await call(api.url, 'GET', `/api/executions/${id}/tool-calls`);
    expect(calls.json.body).toMatchObject({ run_id: id, workflow: 'hello', status: 'success', steps: [] });
  });

  it('refuses bad bodies with a problem that says what is wrong', async () => {
    const run = '/api/workflows/local/hello/run';
    const cases: Array<[Parameters<typeof call>[3], number, RegExp]> = [
      [{ raw: '{"inputs":', headers: { 'content-type': 'application/json' } }, 400, /not valid JSON/],
      [{ raw: 'who=ada', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415, /must be JSON/],
      [{ body: [1, 2] }, 400, /JSON object/],
      [{ body: { inputs: 'who=ada' } }, 400, /"inputs" must be an object/],
      [
        { raw: `{"inputs":{"who":"${'x'.repeat(1_100_000)}"}}`, headers: { 'content-type': 'application/json' } },
        413,
        /over 1048576 bytes/,
      ],
      [{ body: { inputs: {} } }, 422, /^failed to start execution: .*who/s],
    ];
    for (const [options, status, detail] of cases) {
      const r = await call(api.url, 'POST', run, options);
      expect([r.status, r.headers['content-type']]).toEqual([status, 'application/problem+json']);
      expect(r.json.detail).toMatch(detail);
    }
  });

  it('answers unknown execution ids with RFC 7807 404 on every route', async () => {
    const id = 'no-such-run';
    for (const [method, path] of [
      ['GET', `/api/executions/${id}`],
      ['DELETE', `/api/executions/${id}`],
      ['GET', `/api/executions/${id}/events`],
      ['GET', `/api/executions/${id}/tool-calls`],
      ['POST', `/api/executions/${id}/resume`],
      ['POST', `/api/executions/${id}/respond`],
    ]) {
      const body = method === 'POST' ? { body: path.endsWith('respond') ? { response: { Value: 'x' } } : {} } : {};
      const r = await call(api.url, method, path, body);
      expect([method, path, r.status, r.json?.detail]).toEqual([method, path, 404, `execution not found: ${id}`]);
    }
  });

  it('pages executions newest first with limit and next_cursor', async () => {
    const ids: string[] = [];
    for (const who of ['a', 'b', 'c']) {
      const r = await call(api.url, 'POST', '/api/workflows/local/hello/run', { body: { inputs: { who } } });
      ids.unshift(r.json.body.execution_id);
    }
    await eventually(async () =>
      (await Promise.all(ids.map((id) => api.index.get(id)))).every((r) => r.status === 'success'),
    );
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null && seen.length < 4) {
      const page = await call(
        api.url,
        'GET',
        `/api/executions?workflow=hello&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.json.body.executions.map((e: { execution_id: string }) => e.execution_id));
      cursor = page.json.body.next_cursor;
    }
    expect(seen.slice(0, 3)).toEqual(ids);
    const bad = await call(api.url, 'GET', '/api/executions?limit=0');
    expect([bad.status, bad.json.code]).toEqual([400, 'USER.SERVE.BAD_REQUEST']);
  });
});
