import { startEditor, turn } from '../support/acp-editor';
import { workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const GREET = `name: greet
description: greets from a pack
inputs:
  - name: who
    type: string
    required: true
states:
  initial: say
  say:
    type: step
    command: 'echo "howdy {{.inputs.who}}"'
    on_success: done
  done: {type: terminal, status: success}
`;

describe('awf acp-serve: the workflows of installed packs', () => {
  it('offers them as /<pack>:<workflow>, as AWF names them, and runs one', async () => {
    const pack = '.awf/workflow-packs/hello';
    const p = workflowProject({
      [`${pack}/manifest.yaml`]: 'name: hello\nversion: 1.0.0\nawf_version: ">=0.1.0"\nworkflows: [greet]\n',
      [`${pack}/state.json`]: JSON.stringify({ name: 'hello', enabled: true, source_data: { repository: 'acme/x' } }),
      [`${pack}/workflows/greet.yaml`]: GREET,
      'acp.yaml': '{}\n',
    });
    const editor = await startEditor({ cwd: p.dir, env: p.env });
    try {
      const { session, commands } = await editor.session();
      const names = (commands as { availableCommands: { name: string }[] }).availableCommands.map((c) => c.name);
      expect(names).toContain('hello:greet');
      const t = await turn(session, '/hello:greet who=Ada');
      expect([t.stopReason, t.text]).toEqual(['end_turn', 'howdy Ada\n']);
      expect(await editor.close()).toBe(0);
    } finally {
      p.cleanup();
    }
  });
});
