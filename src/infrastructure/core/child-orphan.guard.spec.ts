import { accessSync, constants } from 'node:fs';
import { dieWithParent } from './child-orphan.guard';
import { itUnless } from '../../../test/support/skip';

const linuxWithSetpriv =
  process.platform === 'linux' &&
  (process.env.PATH ?? '').split(':').some((d) => {
    try {
      accessSync(`${d}/setpriv`, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

describe('dieWithParent: how a plugin is launched so that it dies with its host', () => {
  itUnless(
    linuxWithSetpriv ? undefined : 'no setpriv on PATH (util-linux, Linux only)',
    'wraps a command it can find in setpriv --pdeathsig KILL, with the resolved path',
    () => {
      const launch = dieWithParent('node', ['plugin.js', '--flag']);
      expect(launch.command).toMatch(/\/setpriv$/);
      expect(launch.args).toEqual([
        '--pdeathsig',
        'KILL',
        '--',
        expect.stringMatching(/^\/.*\/node$/),
        'plugin.js',
        '--flag',
      ]);
      expect(dieWithParent(process.execPath, []).args).toEqual(['--pdeathsig', 'KILL', '--', process.execPath]);
    },
  );

  it('leaves a command it cannot find as it is, so the spawn error names the plugin command', () => {
    expect(dieWithParent('/nonexistent/awf-plugin-x', ['a'])).toEqual({
      command: '/nonexistent/awf-plugin-x',
      args: ['a'],
    });
    expect(dieWithParent('no-such-command-anywhere', [])).toEqual({ command: 'no-such-command-anywhere', args: [] });
  });

  it('can be switched off with AWF_PLUGIN_PDEATHSIG=0', () => {
    expect(dieWithParent(process.execPath, ['p.js'], { ...process.env, AWF_PLUGIN_PDEATHSIG: '0' })).toEqual({
      command: process.execPath,
      args: ['p.js'],
    });
  });
});
