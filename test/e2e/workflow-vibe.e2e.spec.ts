/**
 * `awf run` with a mistral_vibe step behind the proxy. Vibe cannot be installed on these
 * machines (PyPI only), so a stand-in takes its place: it reads the VIBE_HOME awf made, starts
 * the proxy named there with the MCP SDK's client, calls Read by Vibe's name for it, and prints
 * Vibe's json or streaming output. The run must read the file through the proxy, audit the
 * call, send a later turn as a transcript, and leave no temp VIBE_HOME behind.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../support/cli';
import { awf, processesWith, workflowProject } from './workflow-support';

const STAND_IN = resolve(REPO_ROOT, 'test/fixtures/agents/vibe-stand-in.js');

const workflow = (output: string) => `name: vibe
states:
  initial: ask
  ask:
    type: agent
    provider: mistral_vibe
    system_prompt: Be terse.
    prompt: Read notes.txt.
    options: {binary: ${JSON.stringify(STAND_IN)}, output_format: ${output}, max_turns: 4}
    mcp_proxy: {enable: true, intercept_builtins: true}
    on_success: recall
  recall:
    type: agent
    provider: mistral_vibe
    conversation: {continue_from: ask}
    prompt: What did it say?
    options: {binary: ${JSON.stringify(STAND_IN)}, output_format: ${output}}
    on_success: done
  done: {type: terminal}
`;

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

jest.setTimeout(120_000);

describe.each(['json', 'streaming'])('a mistral_vibe step behind the proxy (--output %s, stand-in CLI)', (output) => {
  it('calls Read through awf mcp-serve, audits it, resends the turns later, and leaves nothing behind', () => {
    const p = workflowProject({ 'wf.yaml': workflow(output), 'notes.txt': 'status: draft\n' });
    const userHome = join(p.dir, 'vibe-home');
    mkdirSync(userHome);
    writeFileSync(
      join(userHome, 'config.toml'),
      'active_model = "devstral"\n\n[[mcp_servers]]\nname = "mine"\ntransport = "stdio"\ncommand = "mine"\n',
    );
    writeFileSync(join(userHome, '.env'), 'MISTRAL_API_KEY=from-dotenv\n');
    const probeFile = join(p.dir, 'probe.jsonl');
    const env = {
      ...p.env,
      VIBE_HOME: userHome,
      VIBE_STAND_IN_PROBE: probeFile,
      VIBE_STAND_IN_CALL: JSON.stringify({ tool: 'awf-proxy_Read', args: { file_path: 'notes.txt' } }),
    };
    try {
      const r = awf(['run', 'wf.yaml', '-f', 'json'], { cwd: p.dir, env });
      expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ status: 0, stderr: '' });
      const report = JSON.parse(r.stdout);
      expect(report.steps.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
        ['ask', 'success'],
        ['recall', 'success'],
      ]);
      expect(report.steps[0].output).toMatch(/^DONE: .*status: draft/s);

      const [ask, recall] = lines(probeFile) as Array<{ argv: string[]; vibeHome: string; config: string }>;
      expect(ask.argv).toEqual([
        '--prompt',
        'Be terse.\n\nRead notes.txt.',
        '--agent',
        'default',
        '--output',
        output,
        '--max-turns',
        '4',
        '--enabled-tools',
        'awf-proxy_*',
      ]);
      expect(ask.vibeHome).not.toBe(userHome);
      expect(ask.config).toContain('active_model = "devstral"');
      expect(ask.config).not.toContain('"mine"');
      expect(ask.config).toMatch(/\[\[mcp_servers\]\]\nname = "awf-proxy"\ntransport = "stdio"/);
      expect(lines(probeFile)[0].dotenv).toBe('MISTRAL_API_KEY=from-dotenv\n');
      expect(recall.argv[1]).toMatch(
        /^Continue the conversation .*\nSystem: Be terse\.\nUser: Read notes\.txt\.\nAssistant: DONE: .*\nUser: What did it say\?$/s,
      );
      expect(recall.vibeHome).toBe(userHome);

      const runDir = join(p.dir, 'data', 'awf', 'runs', report.run_id);
      const audit = lines(join(runDir, 'ask.events.jsonl'));
      expect(audit.map((e) => [e.tool, e.status, e.step])).toEqual([['Read', 'ok', 'ask']]);
      expect(p.leftovers().filter((e) => e.startsWith('awf-'))).toEqual([]);
      expect(processesWith(p.tmp)).toEqual([]);
      expect(readdirSync(userHome).sort()).toEqual(['.env', 'config.toml']);
    } finally {
      p.cleanup();
    }
  });
});

describe('awf validate refuses Copilot and Vibe options their runs would refuse', () => {
  it('names the step, the option and the code', () => {
    const p = workflowProject({
      'wf.yaml': `name: opts
states:
  initial: a
  a: {type: agent, provider: github_copilot, prompt: p, options: {mode: yolo}, on_success: b}
  b: {type: agent, provider: mistral_vibe, prompt: p, options: {workdir: ../outside}, on_success: done}
  done: {type: terminal}
`,
    });
    try {
      const r = awf(['validate', 'wf.yaml'], { cwd: p.dir, env: p.env });
      expect(r.status).not.toBe(0);
      const out = r.stdout + r.stderr;
      expect(out).toContain('[USER.AGENT.INVALID_OPTIONS] states.a.options: github_copilot: options.mode must be');
      expect(out).toContain('[USER.AGENT.INVALID_OPTIONS] states.b.options: mistral_vibe: options.workdir must be');
    } finally {
      p.cleanup();
    }
  });
});
