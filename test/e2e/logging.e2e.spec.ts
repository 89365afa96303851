import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, runAwf, scratchDir } from '../support/cli';

// A command step and an agent step whose script agent drives its real `awf mcp-serve`.
const WORKFLOW = readFileSync(resolve(REPO_ROOT, 'test/fixtures/telemetry/review-with-tools.yaml'), 'utf8');

const jsonLines = (text: string) => text.split('\n').filter((l) => l.startsWith('{"level":'));

describe('logging through pino in awf run: pretty next to the progress, JSON where asked', () => {
  const project = scratchDir({
    'notes.txt': 'hello\n',
    '.awf/workflows/review.yaml': WORKFLOW,
    '.awf/config.yaml': 'policy:\n  tools: {deny: [Grep]}\n',
  });
  const env = { AWF_LOG_LEVEL: '', XDG_DATA_HOME: join(project.dir, 'xdg') };
  const awf = (args: string[]) => runAwf(['run', 'review', ...args], { cwd: project.dir, env });
  afterAll(() => project.cleanup());

  it('shows debug lines in human form with --verbose, never a raw JSON line among the progress', () => {
    const r = awf(['--verbose']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('✓ review  success');
    expect(r.stderr).toMatch(/^debug: /m);
    expect(jsonLines(r.stderr)).toEqual([]);
  });

  it('prints nothing of the logs by default but warnings', () => {
    const r = awf([]);
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l && !/^(Workflow |✓ )/.test(l))).toEqual([]);
  });

  it('writes JSON lines on stderr with --log-format json', () => {
    const r = awf(['--log-format', 'json', '--verbose']);
    expect(r.status).toBe(0);
    const lines = jsonLines(r.stderr).map((l) => JSON.parse(l) as { level: number });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.level === 20)).toBe(true);
  });

  it("appends the run's and its mcp-serve's JSON lines to --log-file, and keeps them off stderr", () => {
    const file = join(project.dir, 'awf.log');
    const r = awf(['--log-file', file, '--verbose']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('✓ review  success');
    expect(jsonLines(r.stderr)).toEqual([]);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { pid: number; msg: string; tool?: string });
    const call = lines.find((l) => l.msg === 'tool call')!;
    expect(call).toMatchObject({ tool: 'Read', status: 'ok' });
    expect(lines.some((l) => l.pid !== call.pid)).toBe(true); // awf run's own (debug) lines are there too
  });

  it('refuses a log file it cannot write, and a format it does not know, as user errors', () => {
    const bad = awf(['--log-file', join(project.dir, 'no', 'such', 'dir', 'awf.log')]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^\[USER\.CLI\.INVALID_ARGS\] cannot write the log file ".*awf\.log": ENOENT/m);
    const format = awf(['--log-format', 'xml']);
    expect(format.status).toBe(1);
    expect(format.stderr).toMatch(/invalid log format "xml"/);
  });
});
