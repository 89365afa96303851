import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, openEvents } from '../../support/http-api-client';
import { type ApiServer, apiProject, eventually, servedApi, startApi } from './http-api-harness';
import { API_WORKFLOWS, COMPLETED_RUN, kinds } from './workflows.fixture';

jest.setTimeout(90_000);

const start = async (api: ApiServer, workflow: string, inputs: Record<string, string> = {}): Promise<string> =>
  (await call(api.url, 'POST', `/api/workflows/local/${workflow}/run`, { body: { inputs } })).json.body.execution_id;

describe('awf serve: event streams, cancel, resume, stop and restart', () => {
  const project = apiProject(API_WORKFLOWS);
  const api = servedApi(project);

  it('replays only what came after Last-Event-ID, then ends with the run', async () => {
    const id = await start(api, 'hello', { who: 'x' });
    await openEvents(api.url, `/api/executions/${id}/events`).ended;
    const resumed = openEvents(api.url, `/api/executions/${id}/events`, { 'last-event-id': '3' });
    await resumed.ended;
    expect(resumed.frames.map((f) => [f.id, f.data.kind])).toEqual([
      ['4', 'run.completed'],
      ['5', 'workflow.completed'],
    ]);
    const caughtUp = openEvents(api.url, `/api/executions/${id}/events`, { 'last-event-id': '5' });
    await caughtUp.ended;
    expect([await caughtUp.status, caughtUp.frames]).toEqual([200, []]);
  });

  it('forgets a client that goes away mid-stream; DELETE cancels the run, recorded as resumable', async () => {
    const id = await start(api, 'slow');
    const events = openEvents(api.url, `/api/executions/${id}/events`);
    await events.waitFor(2);
    expect(api.hub.listening(id)).toBe(1);
    events.close();
    await eventually(() => api.hub.listening(id) === 0);
    const cancelled = await call(api.url, 'DELETE', `/api/executions/${id}`);
    expect(cancelled.status).toBe(204);
    const replay = openEvents(api.url, `/api/executions/${id}/events`);
    await replay.ended;
    expect(replay.frames.at(-1)?.data).toMatchObject({
      kind: 'workflow.failed',
      status: 'cancelled',
      error: 'cancelled',
    });
    const run = await call(api.url, 'GET', `/api/executions/${id}`);
    expect(run.json.body).toMatchObject({ status: 'cancelled', resumable: true });
    expect((await call(api.url, 'DELETE', `/api/executions/${id}`)).status).toBe(204); // over already: nothing to do
  });

  it('resumes a failed run under the same id; its stream goes on from where it was', async () => {
    const id = await start(api, 'flaky');
    const first = openEvents(api.url, `/api/executions/${id}/events`);
    await first.ended;
    expect(first.frames.at(-1)?.data).toMatchObject({ kind: 'workflow.failed', status: 'failed' });
    writeFileSync(join(project.dir, 'ok'), '');
    const resumed = await call(api.url, 'POST', `/api/executions/${id}/resume`, { body: { from_step: 'current' } });
    expect([resumed.status, resumed.json.body]).toEqual([200, { execution_id: id, status: 'accepted' }]);
    const rest = openEvents(api.url, `/api/executions/${id}/events`, { 'last-event-id': first.frames.at(-1)!.id! });
    await rest.ended;
    expect(kinds(rest.frames)).toEqual(COMPLETED_RUN);
    expect(Number(rest.frames[0].id)).toBe(first.frames.length + 1);
    const again = await call(api.url, 'POST', `/api/executions/${id}/resume`, { body: {} });
    expect([again.status, again.json.code]).toEqual([422, 'USER.RUN.NOT_RESUMABLE']);
    expect(again.json.detail).toMatch(/^cannot resume execution: /);
  });

  it('streams a run of another awf process from the shared history as it is recorded', async () => {
    const other = 'other-process-run';
    const started_at = new Date().toISOString();
    api.index.begin({
      run_id: other,
      workflow: 'elsewhere',
      file: '/x.yaml',
      cwd: project.dir,
      inputs: {},
      started_at,
    });
    const events = openEvents(api.url, `/api/executions/${other}/events`);
    await events.waitFor(1);
    expect(events.frames[0].data).toEqual({ kind: 'run.started', run_id: other, seq: 1, status: 'running' });
    const state = { Output: '', Stderr: '', ExitCode: 0, Status: 'success' as const };
    const step = {
      seq: 0,
      name: 'build',
      type: 'step' as const,
      status: 'success' as const,
      started_at,
      duration_ms: 5,
    };
    api.index.stepFinished(other, { ...step, exit_code: 0, output: '', tool_calls: 0, state });
    api.index.finish(other, { status: 'success', finished_at: new Date().toISOString(), duration_ms: 9 });
    await events.ended;
    expect(kinds(events.frames)).toEqual(COMPLETED_RUN);
    const cancel = await call(api.url, 'DELETE', `/api/executions/${other}`);
    expect(cancel.status).toBe(204); // it has ended: nothing to stop
  });
});

describe('awf serve: stopping (SIGTERM) and starting again over the same history', () => {
  const project = apiProject(API_WORKFLOWS);

  it('cancels the runs in flight, ends their streams, and serves them again after a restart', async () => {
    const first = await startApi(project.dir);
    const done = await start(first, 'hello', { who: 'y' });
    await openEvents(first.url, `/api/executions/${done}/events`).ended;
    const running = await start(first, 'slow');
    const events = openEvents(first.url, `/api/executions/${running}/events`);
    await events.waitFor(2);
    await first.stop();
    await events.ended;
    expect(events.frames.at(-1)?.data).toMatchObject({ kind: 'workflow.failed', status: 'cancelled' });
    expect((await first.index.get(running)).status).toBe('cancelled');

    const second = await startApi(project.dir);
    try {
      const list = await call(second.url, 'GET', '/api/executions');
      expect(
        list.json.body.executions.map((e: { execution_id: string; status: string }) => [e.execution_id, e.status]),
      ).toEqual([
        [running, 'cancelled'],
        [done, 'completed'],
      ]);
      const replay = openEvents(second.url, `/api/executions/${running}/events`);
      await replay.ended;
      expect(replay.frames.at(-1)?.data).toMatchObject({ kind: 'workflow.failed', status: 'cancelled' });
    } finally {
      await second.stop();
    }
  });
});
