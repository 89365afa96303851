import { flowHarness } from './flow-harness';

jest.setTimeout(60_000);

describe("a workflow's env: (AWF's list of required variables; awf's mapping of values)", () => {
  const h = flowHarness();

  it('the mapping reaches commands, hooks and {{.env.*}} (masking is in the e2e: it is done where awf writes)', async () => {
    const report = await h.run(`
name: envmap
env:
  STAGE: staging
  DEPLOY_TOKEN: tk-8812aa
hooks:
  workflow_start: [{command: 'echo "hook sees $STAGE" > hook.txt'}]
states:
  initial: show
  show:
    type: step
    command: 'echo "$STAGE {{.env.STAGE}} $DEPLOY_TOKEN"'
    on_success: done
  done: {type: terminal, message: '{{.states.show.Output}}'}
`);
    expect(report).toMatchObject({ status: 'success' });
    expect(report.output.trim()).toBe('staging staging tk-8812aa');
    expect(h.read('hook.txt')).toBe('hook sees staging\n');
  });

  it('the list: an unset variable is a warning naming every missing one, and the run goes on (AWF checks nothing)', async () => {
    const wf = `
name: envlist
env: [HOME, AWF_TEST_NOT_SET_1, AWF_TEST_NOT_SET_2]
states:
  initial: touch
  touch: {type: step, command: 'touch ran.txt', on_success: done}
  done: {type: terminal}
`;
    await expect(h.run(wf)).resolves.toMatchObject({ status: 'success' });
    expect(h.files()).toContain('ran.txt');
    expect(h.lines[0]).toBe(
      'warning: [USER.ENV.MISSING] envlist lists AWF_TEST_NOT_SET_1, AWF_TEST_NOT_SET_2 in env:, and they are ' +
        'not set; the run goes on (a step that needs them may fail)',
    );
  });
});
