import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

/** 12 MiB of x between a HEAD and a TAIL line; the next step reads what the run kept of it. */
const workflow = `name: big
states:
  initial: big
  big:
    type: step
    command: "echo HEAD; head -c 12582912 /dev/zero | tr '\\\\0' x; echo; echo TAIL"
    on_success: after
  after:
    type: step
    command: |
      echo 'bytes={{len .states.big.Output}}'
      echo 'first={{index (split .states.big.Output "\\n") 0}}'
      echo 'gap={{index (split .states.big.Output "\\n") 2}}'
      echo 'last={{index (split .states.big.Output "\\n") 4}}'
    on_success: done
  done: {type: terminal, status: success}
`;

const MiB = 1024 * 1024;
const total = 'HEAD\n'.length + 12 * MiB + '\nTAIL\n'.length;

describe('a command step whose output is beyond the capture', () => {
  it('keeps head and tail with a marker and a warning; later steps see what was kept; the history keeps ≤ 1 MiB', () => {
    const p = workflowProject({ 'wf.yaml': workflow });
    try {
      const run = awf(['run', 'wf.yaml', '-f', 'json'], { cwd: p.dir, env: p.env });
      expect(run.status).toBe(0);
      const dropped = total - 10 * MiB;
      expect(run.stderr).toContain(`step "big": its stdout was too long`);
      expect(run.stderr).toContain(`[… ${dropped} bytes truncated …]`);
      const steps = JSON.parse(run.stdout).steps as { name: string; output: string }[];
      const after = steps.find((s) => s.name === 'after')!.output;
      expect(after).toContain('first=HEAD\n');
      expect(after).toContain(`gap=[… ${dropped} bytes truncated …]\n`);
      expect(after).toContain('last=TAIL\n');
      const kept = Number(/bytes=(\d+)/.exec(after)?.[1]);
      expect(kept).toBeGreaterThan(10 * MiB);
      expect(kept).toBeLessThan(10 * MiB + 100);

      const id = JSON.parse(run.stdout).run_id as string;
      const status = JSON.parse(awf(['status', id, '-f', 'json'], { cwd: p.dir, env: p.env }).stdout);
      const big = status.step_records.find((s: { name: string }) => s.name === 'big');
      expect(big.output_bytes).toBeLessThanOrEqual(MiB + 100);
      expect(big.output_bytes).toBeGreaterThan(MiB - 100);

      mkdirSync(join(p.dir, '.awf'), { recursive: true });
      writeFileSync(join(p.dir, '.awf', 'config.yaml'), 'history:\n  max_output_bytes: 65536\n');
      const second = JSON.parse(awf(['run', 'wf.yaml', '-f', 'json'], { cwd: p.dir, env: p.env }).stdout);
      const smaller = JSON.parse(awf(['status', second.run_id, '-f', 'json'], { cwd: p.dir, env: p.env }).stdout);
      expect(smaller.step_records[0].output_bytes).toBeLessThanOrEqual(65536 + 100);
    } finally {
      p.cleanup();
    }
  });
});
