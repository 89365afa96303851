import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEditor, turn } from '../support/acp-editor';
import { policedWorkflow, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

/** An agent step (the script provider, a real MCP client of the proxy) whose Write needs a person. */
const CALLS = `- tool: Glob
  args: {pattern: "*.yaml"}
- tool: Write
  args: {file_path: landed.txt, content: landed}`;

/** The `policy.approval` records of the step's audit trail. */
function approvals(dataDir: string): unknown[] {
  const runs = join(dataDir, 'awf', 'runs');
  return readdirSync(runs).flatMap((run) =>
    readFileSync(join(runs, run, 'work.events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .flatMap((l) => (JSON.parse(l).policy?.approval ? [JSON.parse(l).policy.approval] : [])),
  );
}

describe('awf acp-serve: a policy approve rule asks the editor', () => {
  it.each([
    ['allow_once', true, { answer: 'approve', scope: 'once' }],
    ['allow_always', true, { answer: 'approve', scope: 'step' }],
    ['reject_once', false, { answer: 'deny', scope: 'once' }],
  ] as const)(
    'reports tool calls; an approve rule asks the editor (%s), whose answer is recorded',
    async (answer, lands, rec) => {
      const p = workflowProject({
        '.awf/workflows/guarded.yaml': policedWorkflow('approve: [Write]', CALLS).replace(
          'name: guarded',
          'name: guarded',
        ),
        'acp.yaml': '{}',
      });
      const editor = await startEditor({ cwd: p.dir, env: p.env, answer });
      try {
        const { session } = await editor.session();
        const t = await turn(session, '/guarded');
        expect(editor.permissions).toEqual([
          expect.objectContaining({
            sessionId: session.sessionId,
            toolCall: expect.objectContaining({
              kind: 'edit',
              status: 'pending',
              rawInput: { file_path: 'landed.txt', content: 'landed' },
            }),
            options: [
              { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
              { optionId: 'allow_always', name: 'Allow for the rest of step work', kind: 'allow_always' },
              { optionId: 'reject_once', name: 'Deny', kind: 'reject_once' },
            ],
          }),
        ]);
        // The question shows as a pending tool call that the answer settles; the step's calls come at its end.
        const asked = (u: any): boolean => String(u.toolCallId).startsWith('approval-');
        const question = t.updates.filter((u) => asked(u)).map((u: any) => [u.sessionUpdate, u.status]);
        expect(question).toEqual([
          ['tool_call', 'pending'],
          ['tool_call_update', lands ? 'completed' : 'failed'],
        ]);
        const calls = t.updates.filter((u) => u.sessionUpdate === 'tool_call' && !asked(u));
        expect(calls.map((c: any) => [c.title, c.kind, c.status])).toEqual([
          ['Glob', 'search', 'in_progress'],
          ['Write', 'edit', 'in_progress'],
        ]);
        const ends = t.updates.filter((u) => u.sessionUpdate === 'tool_call_update' && !asked(u));
        expect(ends.map((u: any) => u.status)).toEqual(['completed', lands ? 'completed' : 'failed']);
        expect(existsSync(join(p.dir, 'landed.txt'))).toBe(lands);
        expect(approvals(p.env.XDG_DATA_HOME)).toEqual([
          {
            id: expect.any(String),
            rule: 'step work: approve "Write"',
            ...rec,
            by: 'person',
            who: 'acp-e2e',
            at: expect.any(String),
          },
        ]);
      } finally {
        await editor.close();
        p.cleanup();
      }
    },
  );
});
