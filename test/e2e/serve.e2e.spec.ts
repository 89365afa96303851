import { once } from 'node:events';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { serve } from '../support/awf-serve';
import { call } from '../support/http-api-client';
import { awf, processesWith, workflowProject } from './workflow-support';
import { waitForFiles } from '../support/run-watch';

jest.setTimeout(120_000);

const MARKER = 'awf-serve-e2e-slow';
const TOKEN = '5e12'.repeat(10);

const files = {
  '.awf/workflows/hello.yaml': `name: hello
inputs:
  - {name: who, type: string, required: true}
states:
  initial: greet
  greet:
    type: step
    command: 'echo "hello {{.inputs.who}} [$AWF_API_TOKEN]" > greeting.txt'
    on_success: done
  done: {type: terminal, status: success}
`,
  '.awf/workflows/slow.yaml': `name: slow
states:
  initial: wait
  wait:
    type: step
    command: "touch started; sh -c 'sleep 120' ${MARKER}"
    on_success: done
  done: {type: terminal, status: success}
`,
};

const json = (r: { stdout: string }) => JSON.parse(r.stdout);

describe('awf serve (the built CLI)', () => {
  const project = workflowProject(files);
  afterAll(() => project.cleanup());

  it('runs a workflow started over HTTP into `awf history`; SIGTERM cancels the run in flight and exits 0', async () => {
    const server = await serve(project);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const started = await call(server.url, 'POST', '/api/workflows/local/hello/run', {
      body: { inputs: { who: 'ada' } },
    });
    expect(started.status).toBe(202);
    const done = started.json.body.execution_id as string;
    for (let r = await call(server.url, 'GET', `/api/executions/${done}`); r.json.body.status === 'running';)
      r = await new Promise((res) => setTimeout(res, 100)).then(() =>
        call(server.url, 'GET', `/api/executions/${done}`),
      );
    expect(readFileSync(join(project.dir, 'greeting.txt'), 'utf8')).toBe('hello ada []\n');
    const history = json(awf(['history', '-f', 'json'], { cwd: project.dir, env: project.env }));
    expect(history.runs).toContainEqual(
      expect.objectContaining({ run_id: done, workflow: 'hello', status: 'success' }),
    );

    const slow = (await call(server.url, 'POST', '/api/workflows/local/slow/run', { body: {} })).json.body.execution_id;
    await waitForFiles([join(project.dir, 'started')]);
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect(server.out()).toContain('Shutting down server...\nServer stopped.\n');
    expect(processesWith(MARKER)).toEqual([]);
    const resumable = awf(['resume-list'], { cwd: project.dir, env: project.env });
    expect(resumable.stdout).toMatch(new RegExp(`${slow}\\s+slow\\s+cancelled`));

    const again = await serve(project);
    const runs = await call(again.url, 'GET', '/api/executions');
    expect(runs.json.body.executions.map((e: { execution_id: string }) => e.execution_id)).toEqual([slow, done]);
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
  });

  it('listens beyond loopback only with a token, and then asks every request for it', async () => {
    const refused = awf(['serve', '--host', '0.0.0.0'], { cwd: project.dir, env: project.env });
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringContaining('[USER.SERVE.UNSAFE_BIND]')]);
    const loose = join(project.dir, 'tokens');
    writeFileSync(loose, `ci ${TOKEN}\n`);
    chmodSync(loose, 0o644);
    const open = awf(['serve', '--token-file', loose], { cwd: project.dir, env: project.env });
    expect([open.status, open.stderr]).toEqual([1, expect.stringContaining('[USER.SERVE.INVALID_TOKEN]')]);
    const port = awf(['serve', '--port', '70000'], { cwd: project.dir, env: project.env });
    expect([port.status, port.stderr]).toEqual([1, expect.stringContaining('[USER.CLI.INVALID_ARGS]')]);
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const taken = (holder.address() as { port: number }).port;
    const busy = awf(['serve', '--port', String(taken)], { cwd: project.dir, env: project.env });
    holder.close();
    expect([busy.status, busy.stderr]).toEqual([1, expect.stringContaining('[USER.SERVE.CANNOT_LISTEN]')]);

    const server = await serve(project, ['--host', '0.0.0.0', '--allowed-host', '127.0.0.1'], { AWF_API_TOKEN: TOKEN });
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    expect((await call(url, 'GET', '/api/workflows')).status).toBe(401);
    // The API's description and its page need no token; their files come from the installed package.
    const doc = await call(url, 'GET', '/openapi.json');
    expect([doc.status, doc.json.openapi, doc.json.info.title]).toEqual([200, '3.1.0', 'awf serve']);
    expect((await call(url, 'GET', '/docs/swagger-ui-bundle.js')).status).toBe(200);
    const run = await call(url, 'POST', '/api/workflows/local/hello/run', {
      body: { inputs: { who: 'bo' } },
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(run.status).toBe(202);
    await waitForFiles([join(project.dir, 'greeting.txt')]);
    for (let i = 0; i < 100 && !readFileSync(join(project.dir, 'greeting.txt'), 'utf8').includes('bo'); i++)
      await new Promise((r) => setTimeout(r, 50));
    // The server's token is not handed to the steps it runs.
    expect(readFileSync(join(project.dir, 'greeting.txt'), 'utf8')).toBe('hello bo []\n');
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
  });
});
