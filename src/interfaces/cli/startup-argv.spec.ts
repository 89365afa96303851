import { Command } from 'commander';
import { applyStartupFlags, readStartupArgs, serveConfigArg } from './startup-argv';

const read = (...args: string[]) => readStartupArgs(['node', 'awf', ...args], new Command(), {});

describe('what awf reads of argv before commander parses it', () => {
  it('finds the command after global flags with values (-f json is not the command)', () => {
    expect(read('-f', 'json', 'mcp-serve', '--config=x').command).toBe('mcp-serve');
    expect(read('--storage', '/tmp/s', 'run', 'wf.yaml').command).toBe('run');
    expect(read().command).toBeUndefined();
  });

  it('reads the global flags anywhere, in every form commander takes', () => {
    expect(read('run', 'wf.yaml', '-fjson').flags.format).toBe('json');
    expect(read('run', 'wf.yaml', '--format=json', '--no-hints').flags).toMatchObject({ format: 'json', hints: false });
    expect(read('validate', '--dir', 'x', '-q', '--log-level', 'warn').flags).toMatchObject({
      quiet: true,
      logLevel: 'warn',
    });
  });

  it('keeps what it read up to a bad value, which the real parse reports', () => {
    const r = read('-f', 'json', '--log-level', 'loud', 'run');
    expect(r.flags.format).toBe('json');
    expect(r.flags.logLevel).toBeUndefined();
  });

  it('hands --storage and the log level to child processes through the environment', () => {
    const env: NodeJS.ProcessEnv = {};
    applyStartupFlags(read('--storage', 'runs', '--verbose', 'run').flags, env);
    expect(env.AWF_STORAGE).toMatch(/\/runs$/);
    expect(env.AWF_LOG_LEVEL).toBe('debug');
  });

  it('finds the --config of an mcp-serve start in any form (its project shapes the container)', () => {
    expect(serveConfigArg(['node', 'awf', '--verbose', 'mcp-serve', '--config', '/c.json'])).toBe('/c.json');
    expect(serveConfigArg(['node', 'awf', 'mcp-serve', '--config='])).toBeUndefined();
    expect(serveConfigArg(['node', 'awf', 'run', '--config=/c.json'])).toBeUndefined();
  });
});
