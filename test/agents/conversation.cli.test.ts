/**
 * Conversations across steps, with the real agent CLIs: `ask` starts a conversation with a
 * system prompt, `recall` resumes it with `conversation: {continue_from: ask}` — Claude's
 * `--resume`, Codex's `exec resume`, Gemini's `--resume`, Copilot's `--resume=`, OpenCode's
 * `--session`, and openai_compatible resending the turns. The scripted model must see the earlier turn (the
 * word to remember) in the resumed request, and the system prompt in the first.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentWorld, awfRun, type CliName, PROVIDER_OF } from './agent-cli.harness';
import { startScriptedModel, type ScriptedModel } from './scripted-model.server';

type Provider = string;
const PROVIDERS: Provider[] = ['claude', 'codex', 'gemini', 'github_copilot', 'opencode', 'openai_compatible'];

function workflow(provider: Provider, options: Record<string, unknown>, proxy: boolean): string {
  const opts = Object.entries(options)
    .map(([k, v]) => `      ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  const step = (name: string, extra: string) => `  ${name}:
    type: agent
    provider: ${provider}
    timeout: 4m
${extra}
    options:
${opts}
${proxy ? '    mcp_proxy: {enable: true}\n' : ''}`;
  return `name: conversation-proof
states:
  initial: ask
${step('ask', '    system_prompt: "SYSTEM-SAYS-BE-TERSE"\n    prompt: "Remember the word PAPAYA-7731."\n    on_success: recall')}    on_failure: failed
${step('recall', '    conversation: {continue_from: ask}\n    prompt: "Which word did I ask you to remember?"\n    on_success: done')}    on_failure: failed
  done: {type: terminal, message: "{{.states.recall.Output}}"}
  failed: {type: terminal, status: failure, message: "conversation failed"}
`;
}

describe.each(PROVIDERS)('a %s conversation continued by a later step', (provider) => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(() => model.close());

  it('resumes the earlier step: the model sees the first turn in the resumed request', async () => {
    model.reset([], 'DONE');
    const cli = (Object.keys(PROVIDER_OF) as CliName[]).find((c) => PROVIDER_OF[c] === provider) ?? 'claude';
    const world = agentWorld(cli, model.url);
    const root = join(world.project, '..');
    const tmp = join(root, 'tmp');
    mkdirSync(tmp);
    const options =
      provider === 'openai_compatible'
        ? { base_url: `${model.url}/v1`, model: 'scripted', api_key: 'scripted' }
        : world.options;
    // Gemini's session store moves with its private home when awf injects the proxy: prove it survives.
    writeFileSync(join(root, 'wf.yaml'), workflow(provider, options, provider === 'gemini'));
    try {
      const run = await awfRun(['run', join(root, 'wf.yaml'), '-f', 'json'], world.project, {
        ...world.env,
        TMPDIR: tmp,
        AWF_STORAGE: join(root, 'storage'),
      });
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(run.stdout);
      expect(report.steps.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
        ['ask', 'success'],
        ['recall', 'success'],
      ]);

      const bodies = model.requests.map((r) => JSON.stringify(r.body));
      const first = bodies.findIndex((b) => b.includes('PAPAYA-7731'));
      expect(first).toBeGreaterThanOrEqual(0);
      expect(bodies[first]).toContain('SYSTEM-SAYS-BE-TERSE');
      const resumed = bodies.filter((b) => b.includes('Which word did I ask you to remember?'));
      expect(resumed.length).toBeGreaterThan(0);
      // The resumed request carries the earlier turn: the user's word, and the model's answer to it.
      expect(resumed.some((b) => b.includes('PAPAYA-7731'))).toBe(true);
    } finally {
      world.cleanup();
    }
  });
});
