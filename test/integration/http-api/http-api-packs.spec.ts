import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { call, openEvents } from '../../support/http-api-client';
import { apiProject, servedApi } from './http-api-harness';
import { API_WORKFLOWS } from './workflows.fixture';

jest.setTimeout(60_000);

const SPECIFY = `name: specify
description: Writes a spec
inputs:
  - {name: topic, type: string, required: true}
states:
  initial: write
  write:
    type: step
    script_file: '{{.awf.scripts_dir}}/write.sh'
    on_success: done
  done: {type: terminal, status: success}
`;

/** `/api/workflows/{pack}/{workflow}`: AWF's routes for an installed pack's workflows, over a real socket. */
describe('awf serve: workflows of installed packs', () => {
  const project = apiProject(API_WORKFLOWS);
  const api = servedApi(project);
  const put = (path: string, text: string): void => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };

  beforeAll(() => {
    // Installed --global: $XDG_DATA_HOME/awf/workflow-packs (the harness points XDG_DATA_HOME into the project).
    const pack = join(project.dir, 'data', 'awf', 'workflow-packs', 'speckit');
    put(join(pack, 'manifest.yaml'), 'name: speckit\nversion: 2.0.0\nworkflows: [specify, broken]\n');
    put(join(pack, 'state.json'), '{"name":"speckit","enabled":true}');
    put(join(pack, 'workflows', 'specify.yaml'), SPECIFY);
    put(join(pack, 'workflows', 'broken.yaml'), 'name: broken\nstates:\n  initial: nowhere\n');
    put(join(pack, 'scripts', 'write.sh'), 'echo "spec of $topic by {{.awf.pack_name}}" > spec.txt\n');
  });

  it('lists them as AWF does (scope: the pack, workflow: its bare name, version: the manifest)', async () => {
    const list = await call(api.url, 'GET', '/api/workflows');
    expect(list.json.body.workflows).toContainEqual({
      name: 'speckit/specify',
      scope: 'speckit',
      workflow: 'specify',
      version: '2.0.0',
      description: 'Writes a spec',
    });
  });

  it('reads and validates one: 200, and 422 for an invalid one', async () => {
    const one = await call(api.url, 'GET', '/api/workflows/speckit/specify');
    expect(one.status).toBe(200);
    expect(one.json.body).toMatchObject({ Name: 'specify', Initial: 'write', Inputs: [{ Name: 'topic' }] });
    const valid = await call(api.url, 'POST', '/api/workflows/speckit/specify/validate');
    expect([valid.status, valid.json]).toEqual([200, { body: { errors: null } }]);
    const broken = await call(api.url, 'POST', '/api/workflows/speckit/broken/validate');
    expect([broken.status, broken.json.code]).toEqual([422, expect.stringMatching(/^WORKFLOW\./)]);
  });

  it("runs one (202) with the pack's scripts, and a project override wins over them", async () => {
    const run = async (): Promise<string> => {
      const started = await call(api.url, 'POST', '/api/workflows/speckit/specify/run', {
        body: { inputs: { topic: 'auth' } },
      });
      expect(started.status).toBe(202);
      const id = started.json.body.execution_id as string;
      await openEvents(api.url, `/api/executions/${id}/events`).ended;
      const done = await call(api.url, 'GET', `/api/executions/${id}`);
      expect(done.json.body).toMatchObject({ workflow_name: 'specify', status: 'completed' });
      return readFileSync(join(project.dir, 'spec.txt'), 'utf8');
    };
    expect(await run()).toBe('spec of auth by speckit\n');
    put(join(project.dir, '.awf', 'scripts', 'speckit', 'write.sh'), 'echo "my spec of $topic" > spec.txt\n');
    expect(await run()).toBe('my spec of auth\n');
  });

  it('answers a pack or workflow that is not installed, or a name that is not one, with a 404', async () => {
    for (const path of [
      '/api/workflows/nopack/specify',
      '/api/workflows/speckit/nope',
      '/api/workflows/speckit/specify.yaml',
      '/api/workflows/Speckit/specify',
      '/api/workflows/speckit/..%2Fworkflows%2Fspecify',
    ]) {
      const r = await call(api.url, 'GET', path);
      expect([path, r.status, r.json.code]).toEqual([path, 404, 'USER.WORKFLOW.NOT_FOUND']);
    }
    const run = await call(api.url, 'POST', '/api/workflows/nopack/specify/run', { body: {} });
    expect([run.status, run.json.detail]).toEqual([404, 'workflow not found: nopack/specify']);
  });
});
