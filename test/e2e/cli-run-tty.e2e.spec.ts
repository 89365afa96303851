import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runAwf, scratchDir } from '../support/cli';
import { ttySession } from '../support/tty-session';

// A real pseudo-terminal on a shared machine: generous bounds, never timing assertions.
jest.setTimeout(240_000);

const WORKFLOW = `name: tty
inputs:
  - name: who
    type: string
    required: true
    description: whom to greet
  - name: password
    type: string
    required: true
    secret: true
states:
  initial: a
  a:
    type: step
    command: echo "a {{.inputs.who}}" >> trace
    on_success: b
  b:
    type: step
    command: echo "b {{.inputs.who}} {{.inputs.password}}" >> trace
    on_success: c
  c:
    type: step
    command: echo "c {{.inputs.who}}" >> trace
    on_success: done
  done:
    type: terminal
    status: success
`;

describe('awf run on a terminal: missing inputs are asked for, --interactive and -b pause', () => {
  const project = scratchDir({ 'wf.yaml': WORKFLOW });
  const env = { AWF_STORAGE: join(project.dir, 'store') };
  afterAll(() => project.cleanup());
  const trace = () => readFileSync(join(project.dir, 'trace'), 'utf8');
  beforeEach(() => rmSync(join(project.dir, 'trace'), { force: true }));

  it('asks for each required input that has no value; a secret one is not echoed', async () => {
    const tty = ttySession(['run', 'wf.yaml'], { cwd: project.dir, env });
    await tty.waitFor('who (string) - whom to greet: ');
    tty.type('you');
    await tty.waitFor('password (string): ');
    tty.type('hunter2');
    expect(await tty.done()).toBe(0);
    expect(trace()).toBe('a you\nb you hunter2\nc you\n');
    expect(tty.screen()).not.toContain('hunter2');
  });

  it('--interactive: shows each step with its command, then continue, inspect, edit, skip', async () => {
    const tty = ttySession(['run', 'wf.yaml', '--interactive', '-i', 'who=me', '-i', 'password=pw'], {
      cwd: project.dir,
      env,
    });
    await tty.waitFor(
      '[Step 1/3] a\nType: step\nCommand: echo "a me" >> trace\n  on_success → b\n'.replace(/\n/g, '\r\n'),
    );
    await tty.waitFor('[c]ontinue [s]kip [a]bort [i]nspect [e]dit > ');
    tty.type('c');
    await tty.waitFor('[Step 2/3] b');
    await tty.waitFor('[r]etry > ');
    tty.type('i');
    await tty.waitFor('who: me');
    await tty.waitFor('> ');
    tty.type('e');
    await tty.waitFor('Input to edit: ');
    tty.type('who');
    await tty.waitFor('New value for who (current: me): ');
    tty.type('you');
    await tty.waitFor('> ');
    tty.type('c');
    await tty.waitFor('[Step 3/3] c');
    await tty.waitFor('> ');
    tty.type('s');
    expect(await tty.done()).toBe(0);
    expect(trace()).toBe('a me\nb you ***\n'.replace('***', 'pw'));
    expect(tty.screen()).toContain("Skipped step 'c'");
  });

  it('-b pauses only at the named steps; abort there cancels the run, which can be resumed', async () => {
    const tty = ttySession(['run', 'wf.yaml', '-b', 'b', '-i', 'who=me', '-i', 'password=pw'], {
      cwd: project.dir,
      env,
    });
    await tty.waitFor('[Step 2/3] b');
    expect(tty.screen()).not.toContain('[Step 1/3]');
    await tty.waitFor('> ');
    tty.type('a');
    // As in AWF, an abort the user chose is not a failure: exit 0, the run recorded as cancelled.
    expect(await tty.done()).toBe(0);
    expect(tty.screen()).toContain('Workflow aborted by user.');
    expect(trace()).toBe('a me\n');
    const history = runAwf(['history', '-f', 'json'], { cwd: project.dir, env });
    expect(JSON.parse(history.stdout).runs[0]).toMatchObject({ workflow: 'tty', status: 'cancelled' });
  });
});
