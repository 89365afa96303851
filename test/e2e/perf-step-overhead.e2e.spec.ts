import { awf, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

const STEPS = 12;

/** A workflow of script-agent steps, each reading one file through its own `awf mcp-serve`. */
function scripts(): string {
  const states = Array.from(
    { length: STEPS },
    (_, i) => `  s${i + 1}:
    type: agent
    provider: script
    prompt: read it
    mcp_proxy: {enable: true}
    options:
      calls:
        - tool: Read
          args: {file_path: note.txt}
          expect: hello
    on_success: ${i + 1 < STEPS ? `s${i + 2}` : 'done'}`,
  );
  return `name: many-steps\nstates:\n  initial: s1\n${states.join('\n')}\n  done: {type: terminal}\n`;
}

describe('a run of many proxied script steps', () => {
  it('runs every step and leaks no listener on the run signal from one step to the next', () => {
    const p = workflowProject({ 'wf.yaml': scripts(), 'note.txt': 'hello\n' });
    try {
      const r = awf(['run', 'wf.yaml', '-f', 'json'], { cwd: p.dir, env: p.env });
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).steps).toHaveLength(STEPS);
      // Node warns once more than 10 listeners pile up on one AbortSignal.
      expect(r.stderr).not.toContain('MaxListenersExceededWarning');
      expect(p.leftovers()).toEqual([]);
    } finally {
      p.cleanup();
    }
  });
});
