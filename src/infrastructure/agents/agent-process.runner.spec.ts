import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { runAgentProcess } from './agent-process.runner';

const FAKE = resolve(__dirname, '../../../test/agents/fake-agent-cli.js');

describe('runAgentProcess', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-runner-spec-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const spec = (env: Record<string, string>, extra: object = {}) => ({
    provider: 'fake',
    binary: FAKE,
    args: ['a b', '--flag'],
    cwd: dir,
    env: { ...process.env, ...env },
    signal: new AbortController().signal,
    killGraceMs: 500,
    ...extra,
  });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a rejection');
      },
      (e: unknown) => e as AwfError,
    );
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('returns stdout of a CLI that exits 0, started in the step dir with a truthful PWD', async () => {
    const probe = join(dir, 'probe-ok.json');
    const out = await runAgentProcess(
      spec({ FAKE_STDOUT: '{"type":"result"}\n', FAKE_PROBE_FILE: probe, PWD: '/somewhere/else' }),
    );
    expect(out).toMatchObject({ stdout: '{"type":"result"}\n', exitCode: 0 });
    expect(JSON.parse(readFileSync(probe, 'utf8'))).toMatchObject({ argv: ['a b', '--flag'], pwd: dir });
  });

  it('hands each whole stdout line to a watcher as it comes, the last one without a newline too', async () => {
    const lines: string[] = [];
    const text = '{"a":1}\n{"b":"é"}\n\nlast';
    const out = await runAgentProcess(spec({ FAKE_STDOUT: text }, { onStdoutLine: (l: string) => void lines.push(l) }));
    expect(lines).toEqual(['{"a":1}', '{"b":"é"}', '', 'last']);
    expect(out.stdout).toBe(text);
  });

  it('keeps the run going when the watcher throws', async () => {
    const out = await runAgentProcess(
      spec(
        { FAKE_STDOUT: 'x\n' },
        {
          onStdoutLine: () => {
            throw new Error('watcher bug');
          },
        },
      ),
    );
    expect(out).toMatchObject({ stdout: 'x\n', exitCode: 0 });
  });

  it('names a missing binary with EXECUTION.AGENT.BINARY_NOT_FOUND and an install hint', async () => {
    const err = await failure(
      runAgentProcess({ ...spec({}), binary: join(dir, 'no-such-cli'), installHint: 'npm install -g fake' }),
    );
    expect(err.code).toBe('EXECUTION.AGENT.BINARY_NOT_FOUND');
    expect(err.hint).toBe('npm install -g fake');
  });

  it('fails a non-zero exit with EXECUTION.AGENT.EXIT_NONZERO and the last stderr lines', async () => {
    const stderr = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const err = await failure(runAgentProcess(spec({ FAKE_EXIT: '3', FAKE_STDERR: stderr })));
    expect(err.code).toBe('EXECUTION.AGENT.EXIT_NONZERO');
    expect(err.message).toContain('fake exited with code 3');
    expect(err.message).toContain('line 29');
    expect(err.details).toMatchObject({ exit_code: 3 });
    expect((err.details.stderr as string[]).at(-1)).toBe('line 29');
    expect(err.details.stderr).not.toContain('line 0');
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const probe = join(dir, 'probe-hang.json');
    const started = Date.now();
    const err = await failure(
      runAgentProcess(spec({ FAKE_BEHAVIOUR: 'hang', FAKE_PROBE_FILE: probe }, { timeoutMs: 1500 })),
    );
    expect(err.code).toBe('EXECUTION.AGENT.TIMEOUT');
    expect(err.message).toContain('working...');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(alive(Number(readFileSync(`${probe}.grandchild`, 'utf8')))).toBe(false);
  });

  it('stops the group on cancel with EXECUTION.AGENT.CANCELLED', async () => {
    const controller = new AbortController();
    const running = failure(runAgentProcess(spec({ FAKE_BEHAVIOUR: 'hang' }, { signal: controller.signal })));
    setTimeout(() => controller.abort(), 800);
    expect((await running).code).toBe('EXECUTION.AGENT.CANCELLED');
    expect(alive(process.pid)).toBe(true);
  });
});
