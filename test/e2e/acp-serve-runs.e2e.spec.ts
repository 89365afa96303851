import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEditor, turn } from '../support/acp-editor';
import { runLeftovers, waitForFiles } from '../support/run-watch';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const waiting = (marker: string) => `name: waiting
states:
  initial: wait
  wait:
    type: step
    command: 'touch started; until [ -f go ]; do sleep 0.1; done; echo went # ${marker}'
    on_success: done
  done: {type: terminal, status: success}
`;
const HELLO = `name: hello
states:
  initial: greet
  greet: {type: step, command: 'echo hello', on_success: done}
  done: {type: terminal, status: success}
`;
const CHAT = `name: chat
states:
  initial: talk
  talk:
    type: agent
    provider: script
    mode: conversation
    prompt: hi
    mcp_proxy: {enable: true}
    options:
      calls: [{tool: Glob, args: {pattern: "acp.*"}}]
    on_success: done
  done: {type: terminal}
`;

describe('awf acp-serve: runs in sessions', () => {
  it('refuses a second prompt in flight; session/cancel stops the run and its processes; the session goes on', async () => {
    const marker = `acp-cancel-${process.pid}-${Date.now()}`;
    const p = workflowProject({
      '.awf/workflows/waiting.yaml': waiting(marker),
      '.awf/workflows/hello.yaml': HELLO,
      'acp.yaml': '{}',
    });
    const editor = await startEditor({ cwd: p.dir, env: p.env });
    try {
      const { session } = await editor.session();
      const first = turn(session, '/waiting');
      await waitForFiles([join(p.dir, 'started')]);
      const second = editor.agent.request('session/prompt', {
        sessionId: session.sessionId,
        prompt: [{ type: 'text', text: '/hello' }],
      });
      await expect(second).rejects.toMatchObject({ code: -32602, data: 'USER.ACP.PROMPT_IN_FLIGHT' });
      await editor.agent.notify('session/cancel', { sessionId: session.sessionId });
      const cancelled = await first;
      expect(cancelled.stopReason).toBe('cancelled');
      expect(cancelled.text).toBe('Workflow "waiting" cancelled.\n');
      expect(runLeftovers(p, marker)).toEqual({ processes: [], tempFiles: [] });
      expect((await turn(session, '/hello')).text).toBe('hello\n');
    } finally {
      await editor.close();
      p.cleanup();
    }
  });

  it('SIGTERM cancels the runs of every session, leaves nothing behind and exits 0', async () => {
    const marker = `acp-term-${process.pid}-${Date.now()}`;
    const p = workflowProject({ '.awf/workflows/waiting.yaml': waiting(marker), 'acp.yaml': '{}' });
    const editor = await startEditor({ cwd: p.dir, env: p.env });
    try {
      const { session } = await editor.session();
      const running = session.prompt('/waiting').catch((err: unknown) => err);
      await waitForFiles([join(p.dir, 'started')]);
      const exited = once(editor.child, 'exit');
      editor.child.kill('SIGTERM');
      expect((await exited)[0]).toBe(0);
      await running;
      expect(runLeftovers(p, marker)).toEqual({ processes: [], tempFiles: [] });
      expect(awf(['history'], { cwd: p.dir, env: p.env }).stdout).toMatch(/waiting.*cancelled/);
    } finally {
      await editor.close();
      p.cleanup();
    }
  });

  it('runs the workflows of two sessions side by side', async () => {
    const p = workflowProject({
      '.awf/workflows/waiting.yaml': waiting('side'),
      '.awf/workflows/hello.yaml': HELLO,
      'acp.yaml': '{}',
    });
    const editor = await startEditor({ cwd: p.dir, env: p.env });
    try {
      const a = await editor.session();
      const b = await editor.session();
      expect(a.session.sessionId).not.toBe(b.session.sessionId);
      const slow = turn(a.session, '/waiting');
      await waitForFiles([join(p.dir, 'started')]);
      expect(await turn(b.session, '/hello')).toMatchObject({ stopReason: 'end_turn', text: 'hello\n' });
      writeFileSync(join(p.dir, 'go'), '');
      expect(await slow).toMatchObject({ stopReason: 'end_turn', text: 'went\n' });
    } finally {
      await editor.close();
      p.cleanup();
    }
  });

  it('a conversation step asks for the next message: the next prompt answers it, an empty one ends it', async () => {
    const p = workflowProject({ '.awf/workflows/chat.yaml': CHAT, 'acp.yaml': '{}' });
    const editor = await startEditor({ cwd: p.dir, env: p.env });
    try {
      const { session } = await editor.session();
      const asks = 'Step talk waits for your next message (an empty one ends the conversation).';
      const first = await turn(session, '/chat');
      expect(first.stopReason).toBe('end_turn');
      expect(first.text).toContain('acp.yaml');
      expect(first.text).toContain(asks);
      const second = await turn(session, 'tell me more');
      expect(second.text).toContain(asks);
      const last = await turn(session, '');
      expect(last.stopReason).toBe('end_turn');
      expect(last.text).not.toContain(asks);
      // Two turns of the agent (the first prompt's and the second's), each with its Glob.
      expect(last.updates.filter((u) => u.sessionUpdate === 'tool_call')).toHaveLength(2);
      // The run is over: the next prompt starts a workflow again.
      expect((await turn(session, 'more?')).text).toMatch(/^Invalid prompt/);
    } finally {
      await editor.close();
      p.cleanup();
    }
  });
});
