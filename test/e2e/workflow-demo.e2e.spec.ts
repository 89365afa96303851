import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/cli';
import { awf, processesWith, workflowProject } from './workflow-support';

const SAMPLE_MATH = join(REPO_ROOT, 'examples/sample-project/src/math.js');

jest.setTimeout(150_000);

describe('example (b): the script agent fixes the sample project through the proxy, offline', () => {
  it('runs Grep, Read, Edit and Bash through awf mcp-serve on a scratch copy, and cleans up', () => {
    const before = readFileSync(SAMPLE_MATH, 'utf8');
    const p = workflowProject();
    try {
      const r = awf(['run', 'examples/script-agent-demo.yaml', '-f', 'json'], { env: p.env });
      expect(r.stderr).not.toMatch(/^\[/m);
      expect(r.status).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.steps.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
        'prepare:success',
        'fix:success',
        'cleanup:success',
      ]);
      const calls = JSON.parse(report.steps[1].output);
      expect(calls.map((c: { tool: string; is_error: boolean }) => `${c.tool}:${c.is_error}`)).toEqual([
        'Grep:false',
        'Read:false',
        'Edit:false',
        'Bash:false',
      ]);
      expect(calls[3].text).toContain('all 5 checks passed');
      expect(report.output).toContain('Fixed src/math.js through the proxy');
      expect(readFileSync(SAMPLE_MATH, 'utf8')).toBe(before);
      expect(p.leftovers()).toEqual([]);
      expect(processesWith(p.tmp)).toEqual([]);
    } finally {
      p.cleanup();
    }
  });
});
