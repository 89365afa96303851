import type { AgentProvider } from '../../../domain/ports/agent-provider.port';
import type { AgentStep } from '../../../domain/workflow/workflow.model';
import { StepConversation } from './agent-conversation';

const step = (extra: Partial<AgentStep> = {}): AgentStep => ({
  name: 'ask',
  type: 'agent',
  provider: 'p',
  prompt: 'hi',
  options: {},
  mode: 'single',
  transitions: [],
  continueOnError: false,
  timeoutMs: 0,
  ...extra,
});
const provider = (resumes?: 'session' | 'history'): AgentProvider => ({
  name: 'p',
  canInterceptBuiltins: false,
  ...(resumes ? { resumes } : {}),
  run: () => Promise.reject(new Error('not run here')),
});

describe("StepConversation: the step's own system prompt (role, then system_prompt)", () => {
  it('is sent on the first turn, to providers that resume and to those that cannot', () => {
    for (const p of [provider('session'), provider('history'), provider()])
      expect(new StepConversation(step(), p, 'p', undefined, 'You review.\n\nBe brief.').request()).toEqual({
        turns: [],
        systemPrompt: 'You review.\n\nBe brief.',
      });
  });

  it('defaults to system_prompt, and without either a single-turn step sends no conversation part', () => {
    expect(new StepConversation(step({ systemPrompt: 'Be brief.' }), provider(), 'p').request()).toEqual({
      turns: [],
      systemPrompt: 'Be brief.',
    });
    expect(new StepConversation(step(), provider('session'), 'p', undefined, undefined).request()).toBeUndefined();
  });

  it('a resumed session keeps the system prompt it started with', () => {
    const prior = { provider: 'p', sessionId: 's1', turns: [], systemPrompt: 'first' };
    const c = new StepConversation(step({ continueFrom: 'before' }), provider('session'), 'p', prior, 'mine');
    expect(c.request()).toEqual({ sessionId: 's1', turns: [] });
    expect(c.record('p').systemPrompt).toBe('first');
  });
});
