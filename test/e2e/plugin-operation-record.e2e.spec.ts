import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../support/cli';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

const workflow = `name: ops
states:
  initial: remember
  remember:
    type: operation
    operation: kv.set
    inputs: {key: city, value: Lyon}
    on_success: recall
  recall:
    type: operation
    operation: kv.get
    inputs: {key: planet}
    on_failure: done
  done: {type: terminal}
`;

describe('a plugin operation step is recorded as a tool call', () => {
  it('has its audit event, its span under the step span, its summary and its line in awf runs show', () => {
    const p = workflowProject({ 'wf.yaml': workflow });
    const env = {
      ...p.env,
      AWF_PLUGINS_PATH: resolve(REPO_ROOT, 'examples/plugins'),
      AWF_KV_FILE: join(p.dir, 'kv.json'),
      AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000',
    };
    try {
      const run = awf(['run', 'wf.yaml', '--otel-exporter', 'file', '-f', 'json'], { cwd: p.dir, env });
      expect(run.stderr).toContain('[EXECUTION.OPERATION.FAILED]');
      const { run_id: id, steps } = JSON.parse(run.stdout) as {
        run_id: string;
        steps: Array<{ name: string; tool_summary?: { calls: number } }>;
      };
      expect(steps.map((s) => [s.name, s.tool_summary?.calls])).toEqual([
        ['remember', 1],
        ['recall', 1],
      ]);

      const runDir = join(p.env.XDG_DATA_HOME, 'awf', 'runs', id);
      const audit = JSON.parse(readFileSync(join(runDir, 'remember.events.jsonl'), 'utf8').trim());
      expect(audit).toMatchObject({ run_id: id, step: 'remember', tool: 'kv_set', source: 'plugin:kv', status: 'ok' });
      expect(audit.args_shape).toEqual({ key: 4, value: 4 });

      const spans = readFileSync(join(p.dir, '.awf', 'traces.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { name: string; span_id: string; parent_span_id?: string });
      const call = spans.find((s) => s.name === 'tool.call kv_get')!;
      expect(spans.find((s) => s.span_id === call.parent_span_id)?.name).toBe('step recall');

      const shown = awf(['runs', 'show', id], { cwd: p.dir, env }).stdout;
      expect(shown).toMatch(/step remember: 1 tool call, 0 errors[^\n]*\n\s+\S+\s+kv_set\s+plugin:kv\s+[\d.]+ ms\s+ok/);
      expect(shown).toMatch(/step recall: 1 tool call, 1 error[^\n]*\n\s+\S+\s+kv_get\s+plugin:kv\s+[\d.]+ ms\s+error/);
    } finally {
      p.cleanup();
    }
  });
});
