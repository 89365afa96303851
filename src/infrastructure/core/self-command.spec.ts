import { join } from 'node:path';
import { useProcessSettings } from '../../domain/settings/process-settings';
import { selfCommand } from './self-command';

describe('selfCommand: how awf starts itself again', () => {
  afterEach(() => useProcessSettings({}));

  it("passes this process's flags to a child it starts now, and none into a command kept for later", () => {
    useProcessSettings({ storage: '/data', logLevel: 'debug', logFile: '/logs/awf.log', skipPlugins: true });
    expect(selfCommand(['mcp-serve', '--config=/c.json'], '/dist').args).toEqual([
      '--max-semi-space-size=4',
      join('/dist', 'main.js'),
      'mcp-serve',
      '--config=/c.json',
      '--storage=/data',
      '--log-level=debug',
      '--log-file=/logs/awf.log',
      '--skip-plugins',
    ]);
    expect(selfCommand(['mcp-serve', '--config=/c.json'], '/dist', false).args).toEqual([
      '--max-semi-space-size=4',
      join('/dist', 'main.js'),
      'mcp-serve',
      '--config=/c.json',
    ]);
  });
});
