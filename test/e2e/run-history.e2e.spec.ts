import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWF_MAIN, spawnAwf } from '../support/cli';
import { awf, processesWith, workflowProject } from './workflow-support';
import { waitForFiles } from '../support/run-watch';

jest.setTimeout(180_000);

/** Three steps; `b` fails (or hangs, with HANG=1) until the file `go` exists; each step logs that it ran. */
const workflow = (marker: string) => `name: three
inputs:
  - name: who
    type: string
    required: true
states:
  initial: a
  a:
    type: step
    command: 'echo a >> ran.log; echo "from-a-{{.inputs.who}}"'
    on_success: b
  b:
    type: step
    command: |
      echo b >> ran.log; touch b-started
      test -f go && exit 0
      if [ "$HANG" = 1 ]; then sh -c 'sleep 120' ${marker}; fi
      exit 1
    on_success: c
    on_failure: failed
  c:
    type: step
    command: 'echo c >> ran.log; echo "c saw {{.states.a.Output}}"'
    on_success: done
  done: {type: terminal, status: success}
  failed: {type: terminal, status: failure}
`;

const json = (r: { stdout: string }) => JSON.parse(r.stdout);

describe('run history and resume', () => {
  it('records each run; history, status and runs show find it by a unique prefix; prune forgets it', () => {
    const p = workflowProject({ 'wf.yaml': workflow('unused'), go: '' });
    try {
      const first = json(awf(['run', 'wf.yaml', '-i', 'who=one', '-f', 'json'], { cwd: p.dir, env: p.env }));
      awf(['run', 'wf.yaml', '-i', 'who=two'], { cwd: p.dir, env: p.env });
      const history = json(awf(['history', '-f', 'json'], { cwd: p.dir, env: p.env }));
      expect(history.schema_version).toBe(1);
      expect(history.runs).toHaveLength(2);
      expect(history.runs[1]).toMatchObject({
        run_id: first.run_id,
        workflow: 'three',
        status: 'success',
        steps: 3,
        terminal: 'done',
      });
      expect(json(awf(['runs', 'list', '--limit', '1', '-f', 'json'], { cwd: p.dir, env: p.env })).runs).toHaveLength(
        1,
      );
      expect(json(awf(['history', '--workflow', 'other', '-f', 'json'], { cwd: p.dir, env: p.env })).runs).toEqual([]);
      expect(json(awf(['history', '--status', 'failure', '-f', 'json'], { cwd: p.dir, env: p.env })).runs).toEqual([]);
      expect(json(awf(['history', '--since', '1h', '-f', 'json'], { cwd: p.dir, env: p.env })).runs).toHaveLength(2);
      expect(
        json(awf(['history', '--since', '2000-01-01', '-f', 'json'], { cwd: p.dir, env: p.env })).runs,
      ).toHaveLength(2);
      expect(awf(['history', '--since', 'yesterday'], { cwd: p.dir, env: p.env }).stderr).toMatch(
        /^\[USER\.CLI\.INVALID_ARGS\] --since "yesterday"/,
      );

      const status = awf(['status', first.run_id.slice(0, 8)], { cwd: p.dir, env: p.env });
      expect(status.status).toBe(0);
      expect(status.stdout).toContain(`run ${first.run_id}`);
      expect(status.stdout).toMatch(/^1 +b +step +success/m);
      expect(
        json(awf(['status', first.run_id.slice(0, 8), '-f', 'json'], { cwd: p.dir, env: p.env })).step_records.map(
          (s: { name: string }) => s.name,
        ),
      ).toEqual(['a', 'b', 'c']);
      expect(awf(['runs', 'show', first.run_id.slice(0, 8)], { cwd: p.dir, env: p.env }).stdout).toContain(
        `run ${first.run_id}`,
      );
      const unknown = awf(['status', 'ffffffff'], { cwd: p.dir, env: p.env });
      expect([unknown.status, unknown.stderr.split('\n')[0]]).toEqual([
        1,
        '[USER.RUN.NOT_FOUND] no run "ffffffff" in the history',
      ]);

      expect(awf(['runs', 'prune', '--older-than', '30d'], { cwd: p.dir, env: p.env }).stdout).toMatch(
        /^removed 0 runs started before /,
      );
      const runDir = join(p.env.XDG_DATA_HOME, 'awf', 'runs', first.run_id);
      expect(existsSync(runDir)).toBe(true);
      const pruned = json(
        awf(['runs', 'prune', '--older-than', '2999-01-01', '-f', 'json'], { cwd: p.dir, env: p.env }),
      );
      expect(pruned.removed).toHaveLength(2);
      expect(existsSync(runDir)).toBe(false);
      expect(json(awf(['history', '-f', 'json'], { cwd: p.dir, env: p.env })).runs).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  it('resumes a failed run at the failed step, with the inputs and the outputs of the steps before it', () => {
    const p = workflowProject({ 'wf.yaml': workflow('unused') });
    try {
      const failed = awf(['run', 'wf.yaml', '-i', 'who=me'], { cwd: p.dir, env: p.env });
      expect(failed.status).toBe(3);
      const id = /Workflow ID: (\S+)/.exec(failed.stderr)![1];
      expect(
        json(awf(['resume-list', '-f', 'json'], { cwd: p.dir, env: p.env })).runs.map(
          (r: { run_id: string }) => r.run_id,
        ),
      ).toEqual([id]);
      writeFileSync(join(p.dir, 'go'), '');
      const resumed = awf(['resume', id.slice(0, 10)], { cwd: p.dir, env: p.env });
      expect(resumed.status).toBe(0);
      expect(resumed.stdout).toMatch(/^c saw from-a-me\n/);
      expect(readFileSync(join(p.dir, 'ran.log'), 'utf8')).toBe('a\nb\nb\nc\n');
      const after = json(awf(['status', id, '-f', 'json'], { cwd: p.dir, env: p.env }));
      expect(after).toMatchObject({ status: 'success', inputs: { who: 'me' } });
      expect(after.step_records.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
        'a:success',
        'b:failure',
        'b:success',
        'c:success',
      ]);
      const again = awf(['resume', id], { cwd: p.dir, env: p.env });
      expect([again.status, again.stderr.split('\n')[0]]).toEqual([
        1,
        `[USER.RUN.NOT_RESUMABLE] run ${id} already succeeded`,
      ]);
      const from = awf(['resume', id, '--from', 'nope'], { cwd: p.dir, env: p.env });
      expect(from.status).toBe(1);
    } finally {
      p.cleanup();
    }
  });

  it('after a kill -9 mid-step, resume finishes the run without running the earlier steps again', async () => {
    const marker = `awf-kill9-${process.pid}-${Date.now()}`;
    const p = workflowProject({ 'wf.yaml': workflow(marker) });
    try {
      const child = spawnAwf(['run', 'wf.yaml', '-i', 'who=k'], { cwd: p.dir, env: { ...p.env, HANG: '1' } });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      await waitForFiles([join(p.dir, 'b-started')]);
      child.kill('SIGKILL');
      await once(child, 'exit');
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
      const id = /Workflow ID: (\S+)/.exec(stderr)![1];
      const killed = json(awf(['status', id, '-f', 'json'], { cwd: p.dir, env: p.env }));
      expect(killed).toMatchObject({ status: 'interrupted', current_step: 'b' });
      expect(killed.step_records.map((s: { name: string }) => s.name)).toEqual(['a']);
      writeFileSync(join(p.dir, 'go'), '');
      const resumed = awf(['resume', id], { cwd: p.dir, env: p.env });
      expect(resumed.status).toBe(0);
      expect(resumed.stdout).toMatch(/^c saw from-a-k\n/);
      expect(readFileSync(join(p.dir, 'ran.log'), 'utf8')).toBe('a\nb\nb\nc\n');
    } finally {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
      p.cleanup();
    }
  });

  it('keeps secret values out of the history: outputs and errors read ***', () => {
    const wf = `name: leaky
inputs:
  - {name: pass, type: string, secret: true}
states:
  initial: say
  say:
    type: step
    command: 'echo "told {{.inputs.pass}}"'
    on_success: fail
  fail:
    type: step
    command: 'echo "bad {{.inputs.pass}}" >&2; exit 3'
    on_success: done
  done: {type: terminal}
`;
    const p = workflowProject({ 'wf.yaml': wf });
    try {
      const run = awf(['run', 'wf.yaml', '-i', 'pass=hunter2-history', '-f', 'json'], { cwd: p.dir, env: p.env });
      expect(run.status).toBe(3);
      const status = awf(['status', json(run).run_id, '-f', 'json'], { cwd: p.dir, env: p.env }).stdout;
      const history = awf(['history', '-f', 'json'], { cwd: p.dir, env: p.env }).stdout;
      expect(json({ stdout: status }).step_records[1].error.message).toContain('bad ***');
      // Not in any file of the history either (step states are stored whole): the database and its WAL.
      const db = join(p.env.XDG_DATA_HOME!, 'awf');
      const files = readdirSync(db).filter((f) => f.startsWith('history.db'));
      expect(files.length).toBeGreaterThan(0);
      const stored = files.map((f) => readFileSync(join(db, f)).toString('latin1')).join('');
      expect(stored).toContain('told ***');
      for (const text of [status, history, stored]) expect(text).not.toContain('hunter2-history');
    } finally {
      p.cleanup();
    }
  });

  it('concurrent runs write one history.db safely', async () => {
    const p = workflowProject({ 'wf.yaml': workflow('unused'), go: '' });
    try {
      const n = 6;
      const runs = Array.from({ length: n }, (_, i) => {
        const child = spawn(process.execPath, [AWF_MAIN, 'run', 'wf.yaml', '-i', `who=${i}`, '-q'], {
          cwd: p.dir,
          env: { ...process.env, ...p.env, AWF_LOG_LEVEL: 'warn' },
        });
        let err = '';
        child.stderr.on('data', (c: Buffer) => (err += c.toString()));
        return once(child, 'exit').then(([code]) => ({ code, err }));
      });
      expect(await Promise.all(runs)).toEqual(Array.from({ length: n }, () => ({ code: 0, err: '' })));
      const history = json(awf(['history', '-f', 'json', '-n', '50'], { cwd: p.dir, env: p.env })).runs;
      expect(history).toHaveLength(n);
      expect(history.every((r: { status: string; steps: number }) => r.status === 'success' && r.steps === 3)).toBe(
        true,
      );
    } finally {
      p.cleanup();
    }
  });
});
