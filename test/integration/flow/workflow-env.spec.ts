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

  it('the list: a run does not start while a named variable is unset, and says which', async () => {
    const wf = `
name: envlist
env: [HOME, AWF_TEST_NOT_SET_1, AWF_TEST_NOT_SET_2]
states:
  initial: touch
  touch: {type: step, command: 'touch ran.txt', on_success: done}
  done: {type: terminal}
`;
    await expect(h.run(wf)).rejects.toMatchObject({
      code: 'USER.ENV.MISSING',
      message:
        'envlist needs AWF_TEST_NOT_SET_1, AWF_TEST_NOT_SET_2 in the environment (its env: list), and they are not set',
    });
    expect(h.files()).not.toContain('ran.txt');
  });
});
