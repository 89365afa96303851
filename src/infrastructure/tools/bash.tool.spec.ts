import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValueSecretMasker } from '../../application/secret-masker.service';
import { builtinContext, builtinSandbox, builtinTools, text } from '../../../test/support/builtin-context';
import { isRunning } from '../../../test/support/builtin-e2e';

describe('BashTool', () => {
  const box = builtinSandbox();
  const masker = new ValueSecretMasker({ DEPLOY_TOKEN: 's3cr3t-value' });
  const tools = builtinTools(masker);
  const bash = (args: Record<string, unknown>, limits = {}, signal?: AbortSignal) =>
    tools.callTool('Bash', args, builtinContext(box.root, limits, signal));
  afterAll(() => box.cleanup());

  it('runs in the sandbox root and returns stdout and stderr', async () => {
    const result = await bash({ command: 'pwd; echo oops >&2', description: 'show cwd' });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe(`${box.root}\n[stderr]\noops\n`);
  });

  it('makes a non-zero exit an error carrying the code and both streams', async () => {
    const result = await bash({ command: 'echo out; echo boom >&2; exit 2' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Exit code 2\nout\n[stderr]\nboom');
  });

  it('closes stdin so a reading command does not hang', async () => {
    expect(text(await bash({ command: 'cat; echo done' }))).toBe('done\n');
  });

  it('kills the process group on timeout, grandchildren included', async () => {
    const marker = join(box.root, 'grandchild.pid');
    // /proc is the host's procfs, so /proc/self names the host pid also inside Bash's PID namespace.
    const result = await bash({
      command: `sh -c "sh -c 'readlink /proc/self > ${marker}; exec sleep 30' & wait"`,
      timeout: 1500,
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/timed out after 1500 ms; its process group was killed/);
    const pid = Number(readFileSync(marker, 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
    expect(isRunning(pid)).toBe(false);
  });

  it('kills the group when the call is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await bash({ command: 'sleep 30' }, {}, controller.signal);
    expect(text(result)).toMatch(/cancelled/);
  });

  it('cuts output over the limit in the middle with a count', async () => {
    const result = await bash({ command: 'seq 1 100000' }, { bash_output_max_chars: 1000 });
    const out = text(result);
    expect(out.startsWith('1\n2\n3\n')).toBe(true);
    expect(out.endsWith('99999\n100000\n')).toBe(true);
    expect(out).toMatch(/\[\d+ characters cut from the middle of the output\]/);
    expect(out.length).toBeLessThan(1200);
  });

  it('passes only allowlisted variables plus the configured passthrough', async () => {
    process.env.AWF_TEST_SENTINEL_SECRET = 'sentinel-123';
    process.env.AWF_TEST_PASSED = 'visible';
    try {
      const out = text(await bash({ command: 'env' }, { env_passthrough: ['AWF_TEST_PASSED'] }));
      expect(out).not.toContain('sentinel-123');
      expect(out).toContain('AWF_TEST_PASSED=visible');
      expect(out).toMatch(/^PATH=/m);
    } finally {
      delete process.env.AWF_TEST_SENTINEL_SECRET;
      delete process.env.AWF_TEST_PASSED;
    }
  });

  it('masks secret values in the output', async () => {
    writeFileSync(join(box.root, 'leak.txt'), 'token is s3cr3t-value\n');
    expect(text(await bash({ command: 'cat leak.txt' }))).toBe('token is ***\n');
  });

  it('validates its arguments', async () => {
    expect(text(await bash({}))).toMatch(/missing required argument "command"/);
    expect(text(await bash({ command: 'true', timeout: 600001 }))).toMatch(/"timeout" must be at most 600000/);
    expect(text(await bash({ command: 'true', timeout: '5' }))).toMatch(/"timeout" must be an integer/);
    expect(text(await bash({ command: 'pwd', cwd: '/' }))).toMatch(/outside the sandbox root/);
    expect(text(await bash({ command: 'pwd', cwd: 'missing-dir' }))).toBe(
      'Bash: cwd missing-dir is not an existing directory',
    );
    expect(text(await bash({ command: 'pwd', cwd: 'leak.txt' }))).toBe(
      'Bash: cwd leak.txt is not an existing directory',
    );
  });

  it('reports "(no output)" for a silent success', async () => {
    expect(await bash({ command: 'true' })).toEqual({ content: [{ type: 'text', text: '(no output)' }] });
  });
});
