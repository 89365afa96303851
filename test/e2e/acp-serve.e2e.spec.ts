import { join } from 'node:path';
import { codes, startEditor, turn } from '../support/acp-editor';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const HELLO = `name: hello
description: says hello
inputs:
  - name: who
    type: string
    required: true
  - name: greeting
    type: string
    default: hello
states:
  initial: greet
  greet:
    type: step
    command: 'echo "{{.inputs.greeting}} {{.inputs.who}}"'
    on_success: done
  done: {type: terminal, status: success}
`;

describe('awf acp-serve: an editor runs workflows over the Agent Client Protocol', () => {
  it('lists the workflows as slash commands, runs one with its inputs, streams its output, exits 0 on EOF', async () => {
    const p = workflowProject({ '.awf/workflows/hello.yaml': HELLO, 'acp.yaml': '{}\n' });
    const editor = await startEditor({ cwd: p.dir, env: p.env });
    try {
      expect(editor.init).toMatchObject({ protocolVersion: 1, agentInfo: { name: 'awf' } });
      const { session, commands } = await editor.session();
      expect(session.sessionId).toMatch(/^sess_[0-9a-f-]{36}$/);
      expect(commands).toEqual({
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          {
            name: 'hello',
            description: 'says hello',
            input: { hint: 'who=… [greeting=…]' },
            _meta: {
              awf: {
                requiredInputs: [{ name: 'who', type: 'string' }],
                optionalInputs: [{ name: 'greeting', type: 'string' }],
              },
            },
          },
        ],
      });
      const t = await turn(session, '/hello who="Ada Lovelace" --input greeting=hi');
      expect(t.stopReason).toBe('end_turn');
      expect(t.text).toBe('hi Ada Lovelace\n');
      expect(t.updates).toContainEqual({
        sessionUpdate: 'agent_thought_chunk',
        content: { type: 'text', text: 'Step greet started\n' },
      });
      // The run went through the one workflow service: it is in the history like any other.
      expect(awf(['history'], { cwd: p.dir, env: p.env }).stdout).toMatch(/hello/);
      expect(await editor.close()).toBe(0);
      expect(editor.stderr()).toBe('');
    } finally {
      await editor.close();
      p.cleanup();
    }
  });

  it('ends the turn of a prompt it cannot run with a USER.ACP code that says why', async () => {
    const p = workflowProject({ '.awf/workflows/hello.yaml': HELLO, 'acp.yaml': '{}\n' });
    const editor = await startEditor({ cwd: p.dir, env: p.env });
    try {
      const { session } = await editor.session();
      const unknown = await turn(session, '/nope x=1');
      expect(unknown).toMatchObject({
        stopReason: 'end_turn',
        text: 'Invalid prompt: no workflow "nope" (workflows: hello)\n',
      });
      expect(codes(unknown)).toEqual([{ code: 'USER.ACP.INVALID_PROMPT', cause: 'USER.WORKFLOW.NOT_FOUND' }]);
      const missing = await turn(session, '/hello');
      expect(missing.text).toMatch(/^Invalid prompt: .*inputs\.who: required/s);
      expect(codes(missing)).toEqual([{ code: 'USER.ACP.INVALID_PROMPT', cause: 'USER.INPUT.VALIDATION_FAILED' }]);
      const undeclared = await turn(session, '/hello who=x colour=red');
      expect(undeclared.text).toMatch(/inputs\.colour: not declared by the workflow/);
      const plain = await turn(session, 'please say hello');
      expect(plain.text).toMatch(/^Invalid prompt: a prompt must begin with a \/<workflow> command/);
      expect(codes(plain)).toEqual([{ code: 'USER.ACP.INVALID_PROMPT' }]);
      const image = await turn(session, [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]);
      expect(image).toMatchObject({
        stopReason: 'end_turn',
        text: 'Unsupported content: image blocks are not supported\n',
      });
      expect(codes(image)).toEqual([{ code: 'USER.ACP.UNSUPPORTED_BLOCK' }]);
      await expect(
        editor.agent.request('session/prompt', { sessionId: 'sess_nope', prompt: [{ type: 'text', text: '/hello' }] }),
      ).rejects.toMatchObject({ code: -32602, data: 'USER.ACP.UNKNOWN_SESSION' });
      const huge = [{ type: 'text' as const, text: `/hello who=${'a'.repeat(1 << 20)}` }];
      await expect(
        editor.agent.request('session/prompt', { sessionId: session.sessionId, prompt: huge }),
      ).rejects.toMatchObject({ code: -32602, data: 'USER.ACP.INVALID_PROMPT' });
      await expect(editor.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] })).rejects.toMatchObject({
        code: -32602,
      });
      // The session is still usable after all that.
      expect((await turn(session, '/hello who=again')).text).toBe('hello again\n');
    } finally {
      await editor.close();
      p.cleanup();
    }
  });

  it('masks secret inputs in everything the editor gets', async () => {
    const secret = `s3cr3t-${Date.now()}`;
    const p = workflowProject({
      '.awf/workflows/deploy.yaml': `name: deploy
inputs:
  - {name: vault, secret: true}
states:
  initial: go
  go: {type: step, command: 'echo "using {{.inputs.vault}}"; exit 3', on_success: done}
  done: {type: terminal, status: success}
`,
      'acp.yaml': '{}',
    });
    const editor = await startEditor({ cwd: p.dir, env: p.env });
    try {
      const { session } = await editor.session();
      const t = await turn(session, `/deploy vault=${secret}`);
      expect(t.text).toContain('using ***\n');
      expect(t.text).toMatch(/Workflow "deploy" failed: \[EXECUTION\.STEP\.FAILED\] step "go" failed \(exit code 3\)/);
      expect(JSON.stringify(t.updates)).not.toContain(secret);
    } finally {
      await editor.close();
      p.cleanup();
    }
  });

  it('refuses a config it cannot use, with USER.ACP.INVALID_CONFIG (exit 1)', () => {
    const p = workflowProject({ 'acp.yaml': 'workflows_dir: nowhere\n', 'list.yaml': '- a\n' });
    try {
      for (const [config, why] of [
        ['missing.yaml', /cannot read the acp-serve config missing\.yaml/],
        ['acp.yaml', /workflows_dir "nowhere" in acp\.yaml is not a directory/],
        ['list.yaml', /must be a mapping/],
      ] as const) {
        const r = awf(['acp-serve', '--config', config], { cwd: p.dir, env: p.env });
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(/\[USER\.ACP\.INVALID_CONFIG\]/);
        expect(r.stderr).toMatch(why);
        expect(r.stdout).toBe('');
      }
      expect(awf(['acp-serve'], { cwd: p.dir, env: p.env }).stderr).toMatch(/--config/);
    } finally {
      p.cleanup();
    }
  });

  it('serves only the workflows of the config`s workflows_dir', async () => {
    const other = HELLO.replace('name: hello', 'name: other');
    const p = workflowProject({
      '.awf/workflows/hidden.yaml': other,
      'editor-flows/hello.yaml': HELLO,
      'acp.yaml': `workflows_dir: ${join('editor-flows')}\n`,
    });
    const editor = await startEditor({ cwd: p.dir, env: p.env });
    try {
      const { session, commands } = await editor.session();
      expect((commands as any).availableCommands.map((c: any) => c.name)).toEqual(['hello']);
      expect(codes(await turn(session, '/hidden who=x'))).toEqual([
        { code: 'USER.ACP.INVALID_PROMPT', cause: 'USER.WORKFLOW.NOT_FOUND' },
      ]);
      expect((await turn(session, '/hello who=dir')).text).toBe('hello dir\n');
    } finally {
      await editor.close();
      p.cleanup();
    }
  });
});
