// The shared history through the built CLI: runs recorded in a real PostgreSQL (started here) are
// read back by `runs`, `runs show`, `status` and `resume` of another process that never saw the
// run's files; history.db files of the awf before Kysely are migrated by `awf history migrate`.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_POSTGRES, type PostgresServer, startPostgres } from '../support/postgres-server';
import { describeUnless } from '../support/skip';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

const json = (r: { stdout: string; stderr: string }) => {
  if (!r.stdout) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
};
/** `b` fails until the file `go` exists; each step logs that it ran. */
const WORKFLOW = `name: shared
states:
  initial: a
  a: {type: step, command: 'echo a >> ran.log; echo from-a', on_success: b}
  b: {type: step, command: 'echo b >> ran.log; test -f go', on_success: c, on_failure: failed}
  c: {type: step, command: 'echo "c saw {{.states.a.Output}}"', on_success: done}
  done: {type: terminal, status: success}
  failed: {type: terminal, status: failure}
`;

describeUnless(NO_POSTGRES, 'a shared history in PostgreSQL (--history, AWF_HISTORY_URL)', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('records runs there; another storage dir lists, shows, reports and resumes them', () => {
    const url = server.createDatabase('cli');
    const p = workflowProject({ 'wf.yaml': WORKFLOW });
    // Two machines' worth of storage: the second has no history.db and no run directories.
    const other = { ...p.env, XDG_DATA_HOME: join(p.dir, 'elsewhere'), AWF_HISTORY_URL: url };
    try {
      const failed = awf(['--history', url, 'run', 'wf.yaml', '-f', 'json'], { cwd: p.dir, env: p.env });
      expect(failed.status).toBe(3);
      const runId = json(failed).run_id as string;
      const listed = json(awf(['runs', 'list', '-f', 'json'], { cwd: p.dir, env: other })).runs;
      expect(listed).toEqual([
        expect.objectContaining({ run_id: runId, workflow: 'shared', status: 'failure', steps: 2 }),
      ]);
      const status = awf(['status', runId.slice(0, 8)], { cwd: p.dir, env: other });
      expect(status.stdout).toMatch(/failure/);
      expect(json(awf(['runs', 'show', runId, '-f', 'json'], { cwd: p.dir, env: other })).run_id).toBe(runId);
      writeFileSync(join(p.dir, 'go'), '');
      const resumed = awf(['resume', runId, '-f', 'json'], { cwd: p.dir, env: other });
      expect(json(resumed)).toMatchObject({ run_id: runId, status: 'success' });
      // `a` ran once: the resumed run took its state from PostgreSQL.
      expect(readFileSync(join(p.dir, 'ran.log'), 'utf8')).toBe('a\nb\nb\n');
      const steps = json(awf(['runs', 'list', '-f', 'json'], { cwd: p.dir, env: other })).runs[0].steps;
      expect(steps).toBe(4); // a, b (failed); b, c after the resume
      expect(awf(['history', 'migrate'], { cwd: p.dir, env: other }).stdout).toMatch(/is up to date \(0003_run_host\)/);
    } finally {
      p.cleanup();
    }
  });

  it('stops with SYSTEM.HISTORY.UNREACHABLE (exit 4) and the password masked when PostgreSQL does not answer', () => {
    const p = workflowProject({ 'wf.yaml': WORKFLOW });
    try {
      const url = `postgres://awf:hunter2@127.0.0.1:${server.port + 1}/awf`;
      const r = awf(['runs', 'list'], { cwd: p.dir, env: { ...p.env, AWF_HISTORY_URL: url } });
      expect(r.status).toBe(4);
      expect(r.stderr).toContain(`SYSTEM.HISTORY.UNREACHABLE`);
      expect(r.stderr).toContain(`postgres://awf:***@127.0.0.1:${server.port + 1}/awf`);
      expect(r.stderr + r.stdout).not.toContain('hunter2');
    } finally {
      p.cleanup();
    }
  });
});

describe('awf history migrate on a history.db of the awf before Kysely', () => {
  it('migrates it in place after a copy, says so, and the runs are still there', () => {
    const p = workflowProject();
    try {
      const storage = join(p.dir, 'store');
      mkdirSync(storage);
      copyFileSync(join(__dirname, '../fixtures/history/main-2ea73ce.history.db'), join(storage, 'history.db'));
      const env = { ...p.env, AWF_HISTORY_URL: '' };
      const out = awf(['--storage', storage, 'history', 'migrate'], { cwd: p.dir, env }).stdout;
      expect(out).toMatch(
        /migrated .*history\.db to 0003_run_host: applied 0001_runs, 0002_tool_call_event, 0003_run_host/,
      );
      expect(out).toMatch(/the file as it was is kept in .*history\.db\..*\.bak/);
      const runs = json(awf(['--storage', storage, 'runs', 'list', '-f', 'json'], { cwd: p.dir, env })).runs;
      expect(runs.map((r: { workflow: string; status: string }) => [r.workflow, r.status])).toEqual([
        ['two-steps', 'success'],
        ['two-steps', 'success'],
      ]);
    } finally {
      rmSync(p.dir, { recursive: true, force: true });
    }
  });
});
