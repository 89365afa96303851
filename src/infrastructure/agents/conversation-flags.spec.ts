/**
 * Each CLI provider's resume flag and session id, against the fake agent CLI (which records
 * its argv): what `conversation.continue_from` relies on. The real CLIs are driven by
 * test/agents/conversation.cli.test.ts.
 */
import { recordingLogger } from '../../../test/agents/agent-cli.harness';
import { runFake } from '../../../test/agents/fake-agent';
import { ClaudeAgentProvider } from './claude.provider';
import { CodexAgentProvider } from './codex.provider';
import { GeminiAgentProvider } from './gemini.provider';
import { OpencodeAgentProvider } from './opencode.provider';

const logger = recordingLogger();
const resume = {
  sessionId: 'sess-42',
  turns: [
    { role: 'user' as const, content: 'remember X' },
    { role: 'assistant' as const, content: 'ok' },
  ],
};
const first = { turns: [], systemPrompt: 'Be terse.' };

describe('conversation flags of the CLI providers', () => {
  it('claude: --resume <session>, --system-prompt on a first turn, session_id from the result', async () => {
    const out = '{"type":"result","is_error":false,"result":"hi","session_id":"c-1","usage":{}}';
    const a = await runFake(new ClaudeAgentProvider(logger), out, { conversation: first });
    expect(a.probe.argv).toEqual(expect.arrayContaining(['--system-prompt', 'Be terse.']));
    expect(a.probe.argv[1]).toBe('Fix the bug.');
    expect(a.result.sessionId).toBe('c-1');
    const b = await runFake(new ClaudeAgentProvider(logger), out, { conversation: resume });
    expect(b.probe.argv).toEqual(expect.arrayContaining(['--resume', 'sess-42']));
    expect(b.probe.argv).not.toContain('--system-prompt');
  });

  it('codex: exec resume <session> <prompt>, the system prompt in front of a first prompt, thread_id as the session', async () => {
    const out =
      '{"type":"thread.started","thread_id":"t-9"}\n{"type":"item.completed","item":{"type":"agent_message","text":"hi"}}';
    const a = await runFake(new CodexAgentProvider(logger), out, { conversation: first });
    expect(a.probe.argv.slice(0, 2)).toEqual(['exec', '--json']);
    expect(a.probe.argv.at(-1)).toBe('Be terse.\n\nFix the bug.');
    expect(a.result.sessionId).toBe('t-9');
    const b = await runFake(new CodexAgentProvider(logger), out, { conversation: resume });
    expect(b.probe.argv.slice(0, 2)).toEqual(['exec', 'resume']);
    expect(b.probe.argv.slice(-3)).toEqual(['--', 'sess-42', 'Fix the bug.']);
  });

  it('gemini: --resume <session>, init.session_id as the session', async () => {
    const out =
      '{"type":"init","session_id":"g-3"}\n{"type":"message","role":"assistant","content":"hi"}\n{"type":"result","status":"success","stats":{}}';
    const a = await runFake(new GeminiAgentProvider(logger), out, { conversation: resume });
    expect(a.probe.argv).toEqual(expect.arrayContaining(['--resume', 'sess-42']));
    expect(a.result.sessionId).toBe('g-3');
  });

  it('opencode: --session <session>, sessionID of its events as the session', async () => {
    const out =
      '{"type":"step_start","sessionID":"o-5","part":{}}\n{"type":"text","sessionID":"o-5","part":{"text":"hi"}}';
    const a = await runFake(new OpencodeAgentProvider(logger), out, { conversation: resume });
    expect(a.probe.argv).toEqual(expect.arrayContaining(['--session', 'sess-42']));
    expect(a.result.sessionId).toBe('o-5');
  });
});
