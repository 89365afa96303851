import { Command } from 'commander';
import { resolve } from 'node:path';
import { childFlags } from '../../domain/settings/process-settings';
import { readStartupArgs, serveConfigArg, startupSettings } from './startup-argv';

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

  it('makes typed settings of --storage, the log level and --skip-plugins, and flags of them for a child', () => {
    const r = read('--storage', 'runs', '--verbose', 'run', 'wf', '--skip-plugins');
    const settings = startupSettings(r.flags, r.skipPlugins);
    expect(settings).toEqual({ storage: resolve('runs'), logLevel: 'debug', skipPlugins: true });
    expect(childFlags(settings)).toEqual([`--storage=${resolve('runs')}`, '--log-level=debug', '--skip-plugins']);
    expect(startupSettings(read('-q', 'list').flags)).toEqual({ logLevel: 'error' });
  });

  it('finds the --config of an mcp-serve start in any form (its project shapes the container)', () => {
    expect(serveConfigArg(['node', 'awf', '--verbose', 'mcp-serve', '--config', '/c.json'])).toBe('/c.json');
    expect(serveConfigArg(['node', 'awf', 'mcp-serve', '--config='])).toBeUndefined();
    expect(serveConfigArg(['node', 'awf', 'run', '--config=/c.json'])).toBeUndefined();
  });
});
