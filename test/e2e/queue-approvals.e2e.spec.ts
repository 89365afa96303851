import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, type Served } from '../support/awf-serve';
import { runAwfAsync, spawnAwf } from '../support/cli';
import { call, openEvents } from '../support/http-api-client';
import { QUEUE_BACKENDS, type QueueServer } from '../support/queue-servers';
import { describeUnless } from '../support/skip';
import { policedWorkflow, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const TOKEN = 'wapp'.repeat(10);
const auth = { authorization: `Bearer ${TOKEN}` };
/** A script agent whose one Write needs a person's approval; `expect` is what the agent must see. */
const writes = (name: string, file: string, expect = '') =>
  policedWorkflow('approve: [Write]', `- tool: Write\n  args: {file_path: ${file}, content: x}${expect}`).replace(
    'name: guarded',
    `name: ${name}`,
  );
const REFUSED = '\n  expect: {is_error: true, contains: POLICY.APPROVAL_DENIED}';
const files = {
  '.awf/workflows/approved.yaml': writes('approved', 'yes.txt'),
  '.awf/workflows/refused.yaml': writes('refused', 'no.txt', REFUSED),
  '.awf/workflows/twice.yaml': writes('twice', 'one.txt', '\n- tool: Write\n  args: {file_path: two.txt, content: x}'),
};
const exited = (p: ChildProcess): Promise<number | null> =>
  p.exitCode !== null ? Promise.resolve(p.exitCode) : new Promise((r) => p.once('exit', (code) => r(code)));

/** ADR 310: a step on a worker asks; the person answers through awf serve's HTTP API. */
describe.each(QUEUE_BACKENDS)(
  'approvals of runs on workers, answered through awf serve, on a real $name',
  (backend) => {
    describeUnless(backend.skip, 'asked on the worker, answered over HTTP', () => {
      let queue: QueueServer;
      let server: Served;
      const project = workflowProject(files);
      const env: Record<string, string> = { ...project.env, AWF_QUEUE_SECRET: 'e2e-secret-0123456789' };
      const children: ChildProcess[] = [];
      const worker = (timeoutMs: number): void => {
        const args = ['worker', '--queue', queue.url, '--workdir', join(project.dir, 'w')];
        const p = spawnAwf(args, { cwd: project.dir, env: { ...env, AWF_APPROVAL_TIMEOUT_MS: String(timeoutMs) } });
        children.push(p);
      };
      const start = async (name: string) => {
        const started = await call(server.url, 'POST', `/api/workflows/local/${name}/run`, { headers: auth, body: {} });
        const id = started.json.body.execution_id as string;
        return { id, events: openEvents(server.url, `/api/executions/${id}/events`, auth) };
      };
      const question = async (id: string): Promise<Record<string, unknown>> => {
        for (;;) {
          const listed = await call(server.url, 'GET', `/api/executions/${id}/approvals`, { headers: auth });
          if (listed.status !== 200) throw new Error(`${listed.status} ${listed.text}`);
          if (listed.json.body.approvals[0]) return listed.json.body.approvals[0];
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const answer = (id: string, approvalId: unknown, body: unknown, headers: Record<string, string> = auth) =>
        call(server.url, 'POST', `/api/executions/${id}/approvals/${approvalId as string}`, { headers, body });
      const ending = (frames: Array<{ data: { kind: string; status?: string } }>) => frames.at(-1)!.data;

      beforeAll(async () => {
        queue = await backend.start();
        if (backend.name === 'PostgreSQL') env.AWF_HISTORY_URL = queue.url;
        server = await serve(project, ['--queue', queue.url], { ...env, AWF_API_TOKEN: TOKEN });
      });
      afterEach(async () => {
        for (const p of children.splice(0)) {
          p.kill('SIGTERM');
          await exited(p);
        }
      });
      afterAll(async () => {
        server?.child.kill('SIGTERM');
        await server?.exit;
        await queue?.stop();
        project.cleanup();
      });

      it('approved over HTTP (only with the token): the tool runs on the worker; the answer is kept once', async () => {
        worker(60_000);
        const { id, events } = await start('approved');
        const asked = await question(id);
        expect(asked).toMatchObject({ step: 'work', tool: 'Write', rule: 'step work: approve "Write"' });
        expect(asked.arguments).toEqual({ file_path: 'yes.txt', content: 'x' });
        expect((await answer(id, asked.approval_id, { decision: 'approve' }, {})).status).toBe(401);
        const ok = await answer(id, asked.approval_id, { decision: 'approve', scope: 'once' });
        expect([ok.status, ok.json.body]).toEqual([200, expect.objectContaining({ decision: 'approve', by: 'env' })]);
        expect((await answer(id, asked.approval_id, { decision: 'deny' })).status).toBe(409);
        await events.ended;
        expect(ending(events.frames)).toMatchObject({ kind: 'workflow.completed' });
        const kinds = events.frames.map((f) => f.data.kind);
        expect(kinds).toEqual(expect.arrayContaining(['approval.required', 'approval.resolved']));
        expect(readFileSync(join(project.dir, 'w', id, 'yes.txt'), 'utf8')).toBe('x');
      });

      it('denied over HTTP: the call is refused and the tool does not run', async () => {
        worker(60_000);
        const { id, events } = await start('refused');
        const asked = await question(id);
        expect((await answer(id, asked.approval_id, { decision: 'deny' })).status).toBe(200);
        await events.ended;
        // The script expected the refusal: the run succeeds only if the agent was refused.
        expect(ending(events.frames)).toMatchObject({ kind: 'workflow.completed' });
        expect(existsSync(join(project.dir, 'w', id, 'no.txt'))).toBe(false);
      });

      it('no answer before the timeout: denied, and the question leaves the list', async () => {
        worker(3000);
        const { id, events } = await start('refused');
        const asked = await question(id);
        await events.ended;
        expect(ending(events.frames)).toMatchObject({ kind: 'workflow.completed' });
        const resolved = events.frames.find((f) => f.data.kind === 'approval.resolved')!.data;
        expect(resolved).toMatchObject({ status: 'denied', approval: expect.objectContaining({ by: 'timeout' }) });
        expect((await call(server.url, 'GET', '/api/approvals', { headers: auth })).json.body.approvals).toEqual([]);
        expect((await answer(id, asked.approval_id, { decision: 'approve' })).status).toBe(409);
        expect(existsSync(join(project.dir, 'w', id, 'no.txt'))).toBe(false);
      });

      it('a run queued by awf run --queue has nobody to ask: denied at once, not after the timeout', async () => {
        worker(600_000); // longer than this test may take: only an answer at once passes
        const r = await runAwfAsync(['run', 'refused', '--queue', queue.url], { cwd: project.dir, env });
        expect([r.status, r.stderr]).toEqual([0, expect.stringContaining('refused succeeded')]);
      });

      it('scope step, answered once, approves the rule for the rest of the step on its worker', async () => {
        worker(60_000);
        const { id, events } = await start('twice');
        const asked = await question(id);
        expect(asked.scopes).toEqual(['once', 'step']);
        // An exact grant would be kept on the worker, out of serve's list: refused, the question still open.
        const exact = await answer(id, asked.approval_id, { decision: 'approve', scope: 'exact' });
        expect([exact.status, exact.json.code]).toEqual([400, 'USER.SERVE.BAD_REQUEST']);
        expect((await answer(id, asked.approval_id, { decision: 'approve', scope: 'step' })).status).toBe(200);
        await events.ended;
        expect(ending(events.frames)).toMatchObject({ kind: 'workflow.completed' });
        expect(events.frames.filter((f) => f.data.kind === 'approval.required')).toHaveLength(1);
        expect(readFileSync(join(project.dir, 'w', id, 'two.txt'), 'utf8')).toBe('x');
      });
    });
  },
);
