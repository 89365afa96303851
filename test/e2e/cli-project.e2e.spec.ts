import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { awf, workflowProject } from './workflow-support';

describe('awf init', () => {
  it('writes a starter .awf/ whose example workflow runs offline, through the proxy', () => {
    const project = workflowProject();
    try {
      const init = awf(['init'], { cwd: project.dir, env: project.env });
      expect(init.status).toBe(0);
      expect(init.stdout).toMatch(/^Created \.awf\/config\.yaml\nCreated \.awf\/workflows\/example\.yaml\n/);
      expect(awf(['validate', 'example', '--strict'], { cwd: project.dir, env: project.env }).status).toBe(0);
      const run = awf(['run', 'example', '-f', 'json'], { cwd: project.dir, env: project.env });
      expect(run.status).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report.status).toBe('success');
      expect(report.output).toBe('Hello, world, from awf! The agent read .awf/prompts/example.md through the proxy.');
      const agent = report.steps.find((s: { name: string }) => s.name === 'read_prompt');
      expect(agent.tool_calls).toBe(1);
      expect(project.leftovers()).toEqual([]);
    } finally {
      project.cleanup();
    }
  });

  it('refuses to overwrite without --force, writing nothing; --force writes the starter files again', () => {
    const project = workflowProject({ '.awf/workflows/example.yaml': 'mine\n', '.awf/workflows/other.yaml': 'x\n' });
    try {
      const again = awf(['init'], { cwd: project.dir, env: project.env });
      expect(again.status).toBe(1);
      expect(again.stderr).toMatch(/^\[USER\.INIT\.ALREADY_INITIALIZED\] .*\.awf\/workflows\/example\.yaml exist\n/);
      expect(again.stderr).toContain('hint: Pass --force');
      expect(readFileSync(join(project.dir, '.awf/workflows/example.yaml'), 'utf8')).toBe('mine\n');
      expect(() => readFileSync(join(project.dir, '.awf/config.yaml'))).toThrow();
      const forced = awf(['init', '--force', '-f', 'json'], { cwd: project.dir, env: project.env });
      expect(forced.status).toBe(0);
      expect(JSON.parse(forced.stdout)).toMatchObject({
        schema_version: 1,
        created: ['.awf/config.yaml', '.awf/prompts/example.md'],
        replaced: ['.awf/workflows/example.yaml'],
      });
      expect(readFileSync(join(project.dir, '.awf/workflows/example.yaml'), 'utf8')).toContain('name: example');
      expect(readFileSync(join(project.dir, '.awf/workflows/other.yaml'), 'utf8')).toBe('x\n');
    } finally {
      project.cleanup();
    }
  });
});

describe('awf list prompts', () => {
  it('lists $AWF_PROMPTS_PATH, then ./.awf/prompts, then the global dir; an earlier name hides a later one', () => {
    const project = workflowProject({
      '.awf/prompts/review.md': 'local review',
      '.awf/prompts/team/style.md': 'style',
      'config/awf/prompts/review.md': 'global review, hidden',
      'config/awf/prompts/global-only.txt': 'g',
      'extra/first.md': 'env',
      '.awf/workflows/not-a-prompt.yaml': 'name: x\n',
    });
    try {
      const env = { ...project.env, AWF_PROMPTS_PATH: 'extra' };
      const r = awf(['list', 'prompts', '-f', 'json'], { cwd: project.dir, env });
      expect(r.status).toBe(0);
      const prompts = JSON.parse(r.stdout).prompts as { name: string; source: string; size: number }[];
      expect(prompts.map((p) => [p.name, p.source, p.size])).toEqual([
        ['first.md', 'env', 3],
        ['review.md', 'local', 12],
        ['team/style.md', 'local', 5],
        ['global-only.txt', 'global', 1],
      ]);
      const text = awf(['list', 'prompts'], { cwd: project.dir, env }).stdout.split('\n');
      expect(text[0]).toMatch(/^NAME +SOURCE +SIZE +MODIFIED$/);
      expect(text[2]).toMatch(/^review\.md +local +12 B +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(awf(['list', 'p', '-f', 'quiet'], { cwd: project.dir, env }).stdout).not.toContain('not-a-prompt');
    } finally {
      project.cleanup();
    }
  });

  it('says where it looked when there are none', () => {
    const project = workflowProject();
    try {
      const r = awf(['list', 'prompts'], { cwd: project.dir, env: project.env });
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`No prompts found\nSearch paths:\n  - ${join(project.dir, '.awf/prompts')} (local)\n`);
    } finally {
      project.cleanup();
    }
  });
});

describe('awf config show', () => {
  it('prints the merged settings with their sources, secrets masked', () => {
    const project = workflowProject();
    try {
      mkdirSync(join(project.dir, '.awf'));
      writeFileSync(
        join(project.dir, '.awf/config.yaml'),
        'inputs:\n  who: team\n  API_KEY_PROD: sk-live-123456\n  note: uses s3cr3t-value\n' +
          'telemetry:\n  service_name: from-file\n' +
          'mcp_servers:\n  gh:\n    command: gh-mcp\n    env:\n      GITHUB_TOKEN: ghp_abcdef123\n      HOME_DIR: ${HOME}\n' +
          'agents:\n  openai_compatible:\n    base_url: http://127.0.0.1:11434/v1\n    api_key: sk-local-999\n' +
          'history:\n  max_output_bytes: 65536\n',
      );
      const env = { ...project.env, OTEL_TRACES_EXPORTER: 'console', MY_SECRET: 's3cr3t-value' };
      const r = awf(['--storage', 'store', 'config', 'show', '-f', 'json'], { cwd: project.dir, env });
      expect(r.status).toBe(0);
      expect(r.stdout).not.toMatch(/sk-live|ghp_abc|s3cr3t|sk-local/);
      const shown = JSON.parse(r.stdout);
      expect(shown).toMatchObject({ exists: true, inputs: { who: 'team', API_KEY_PROD: '***', note: 'uses ***' } });
      const setting = (key: string) => shown.settings.find((s: { key: string }) => s.key === key);
      expect(setting('storage')).toEqual({ key: 'storage', value: join(project.dir, 'store'), source: '--storage' });
      expect(setting('telemetry.exporter')).toMatchObject({ value: 'console', source: 'env OTEL_TRACES_EXPORTER' });
      expect(setting('telemetry.service_name')).toMatchObject({ value: 'from-file', source: '.awf/config.yaml' });
      expect(setting('mcp_servers.gh').value.env).toEqual({ GITHUB_TOKEN: '***', HOME_DIR: '${HOME}' });
      expect(setting('agents.openai_compatible.base_url')).toMatchObject({ value: 'http://127.0.0.1:11434/v1' });
      expect(setting('agents.openai_compatible.api_key')).toMatchObject({ value: '***', source: '.awf/config.yaml' });
      expect(setting('history.max_output_bytes')).toMatchObject({ value: 65536, source: '.awf/config.yaml' });
      const text = awf(['config', 'show'], { cwd: project.dir, env: project.env }).stdout;
      expect(text).toMatch(/^Config: .*\.awf\/config\.yaml\n\nKEY +VALUE +SOURCE\n/);
      expect(text).toMatch(/\ninputs\.API_KEY_PROD +\*\*\* +\.awf\/config\.yaml\n/);
    } finally {
      project.cleanup();
    }
  });

  it('shows the defaults when there is no config file', () => {
    const project = workflowProject();
    try {
      const r = awf(['config', 'show'], { cwd: project.dir, env: project.env });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^Config: none \(\.awf\/config\.yaml not found; defaults apply\)\n/);
      expect(r.stdout).toMatch(/\nstorage +\S+data\/awf +env XDG_DATA_HOME\n/);
      expect(r.stdout).toMatch(/\nhistory\.max_output_bytes +1048576 +default\n/);
    } finally {
      project.cleanup();
    }
  });
});
