import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

const SECRET = 'tk-7f3a9b2c41';

/** A script agent that writes and reads through the proxy, a loop, then a step that fails until `go` exists. */
const WORKFLOW = `name: transcribed
inputs:
  - {name: token, type: string, secret: true}
states:
  initial: look
  look:
    type: agent
    provider: script
    prompt: 'check with {{.inputs.token}}'
    system_prompt: be careful
    mcp_proxy: {enable: true}
    options:
      calls:
        - tool: Write
          args: {file_path: note.txt, content: 'key {{.inputs.token}}'}
        - tool: Read
          args: {file_path: missing.txt}
          expect: {is_error: true}
    on_success: each
  each:
    type: for_each
    items: '["a","b"]'
    body: [say]
    on_complete: gate
  say:
    type: step
    command: echo {{.loop.Item}}
  gate:
    type: step
    command: test -f go
    on_success: done
  done: {type: terminal}
`;

const ENVELOPE = ['iteration', 'path', 'payload', 'run_id', 'seq', 'timestamp', 'type'];

describe('transcripts: <storage>/transcripts/<run_id>.jsonl and awf runs transcript', () => {
  const p = workflowProject({
    'wf.yaml': WORKFLOW,
    'caller.yaml':
      'name: caller\nstates:\n  initial: call\n  call: {type: call_workflow, workflow: sub, on_success: done}\n  done: {type: terminal}\n',
    '.awf/workflows/sub.yaml':
      'name: sub\nstates:\n  initial: hello\n  hello: {type: step, command: echo hi, on_success: done}\n  done: {type: terminal}\n',
  });
  afterAll(() => p.cleanup());
  const run = (args: string[]) => awf(args, { cwd: p.dir, env: p.env });
  let id = '';
  let file = '';

  it("writes the run's transcript in AWF's envelope, private, with secrets masked, and mirrors it", () => {
    const r = run([
      '-f',
      'json',
      'run',
      'wf.yaml',
      '-i',
      `token=${SECRET}`,
      '--debug-transcript-mirror',
      'mirror.jsonl',
    ]);
    expect(r.status).toBe(3); // gate fails: no `go` yet
    id = JSON.parse(r.stdout).run_id;
    file = join(p.env.XDG_DATA_HOME, 'awf', 'transcripts', `${id}.jsonl`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(readFileSync(join(p.dir, 'mirror.jsonl'), 'utf8')).toBe(text);
    expect(text).not.toContain(SECRET);
    const events = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.every((e) => Object.keys(e).sort().join() === ENVELOPE.join() && e.run_id === id)).toBe(true);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => `${e.type} ${e.path}`.trim())).toEqual([
      'run.started',
      'step.started look',
      'message.user look',
      'tool.call look',
      'tool.result look',
      'tool.call look',
      'tool.result look',
      'message.assistant look',
      'step.completed look',
      'step.started each',
      'step.started loop:0/say',
      'step.completed loop:0/say',
      'step.started loop:1/say',
      'step.completed loop:1/say',
      'step.completed each',
      'step.started gate',
      'step.completed gate',
      'run.completed',
    ]);
    expect(events[2].payload.blocks.map((b: { text: string }) => b.text)).toEqual(['check with ***', 'be careful']);
    expect(events[4].payload).toMatchObject({
      name: 'Write',
      input: { file_path: 8, content: 17 },
      fidelity: 'router',
    });
    expect(events[6].payload.error).toContain('does not exist');
    expect(events[7].payload.blocks[0]).toMatchObject({ type: 'text', fidelity: 'agent_emitted' });
    expect(events[13]).toMatchObject({ iteration: 1 });
    expect(events.at(-1).payload).toMatchObject({ name: 'transcribed', kind: 'workflow', result: 'failure' });
  });

  it('reads it back by a unique id prefix, as text and as JSON', () => {
    const text = run(['runs', 'transcript', id.slice(0, 8)]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`transcript of run ${id} (18 events)`);
    expect(text.stdout).toMatch(/ look +user:\n +check with \*\*\*\n +be careful\n/);
    expect(text.stdout).toMatch(/ look +tool Read error: .*does not exist/);
    expect(text.stdout).toMatch(/ loop:1\/say +step completed \(step\)/);
    const json = run(['-f', 'json', 'runs', 'transcript', id]);
    expect(JSON.parse(json.stdout)).toMatchObject({ run_id: id, file, events: expect.any(Array) });
    expect(JSON.parse(json.stdout).events).toHaveLength(18);
  });

  it('a resumed run goes on in the same file; an unknown id is a coded error', () => {
    writeFileSync(join(p.dir, 'go'), '');
    expect(run(['resume', id]).status).toBe(0);
    const events = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.slice(18).map((e) => `${e.type} ${e.path}`.trim())).toEqual([
      'run.started',
      'step.started gate',
      'step.completed gate',
      'run.completed',
    ]);
    const missing = run(['runs', 'transcript', 'nosuchrun']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^\[USER\.RUN\.NOT_FOUND\] no transcript for run "nosuchrun"/);
  });

  let childFile = '';
  it("writes a called workflow's run to its own file, linked both ways, as AWF does", () => {
    const r = run(['-f', 'json', 'run', 'caller.yaml']);
    expect(r.status).toBe(0);
    const parentId = JSON.parse(r.stdout).run_id;
    const read = (id: string) =>
      readFileSync(join(p.env.XDG_DATA_HOME, 'awf', 'transcripts', `${id}.jsonl`), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
    const parent = read(parentId);
    expect(parent.map((e) => `${e.type} ${e.path}`.trim())).toEqual([
      'run.started',
      'step.started call',
      'step.call_workflow.started call',
      'step.call_workflow.completed call',
      'step.completed call',
      'run.completed',
    ]);
    const childId = parent[2].child_run_id;
    expect(parent[3].child_run_id).toBe(childId);
    const child = read(childId);
    expect(child.map((e) => `${e.type} ${e.path}`.trim())).toEqual([
      'run.started',
      'step.started hello',
      'step.completed hello',
      'run.completed',
    ]);
    expect(child.every((e) => e.run_id === childId && e.parent_run_id === parentId)).toBe(true);
    expect(child.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(run(['runs', 'transcript', childId]).stdout).toContain(`transcript of run ${childId} (4 events)`);
    childFile = join(p.env.XDG_DATA_HOME, 'awf', 'transcripts', `${childId}.jsonl`);
  });

  it('awf runs prune removes the transcripts of the runs it deletes, and of their called workflows', () => {
    expect(run(['runs', 'prune', '--older-than', '2026-01-01']).status).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(run(['runs', 'prune', '--older-than', '0s']).status).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(childFile)).toBe(false);
  });
});
