import { logSettings } from './pino-logger.factory';
import { PrettyLogLines } from './pretty-log-line';

const line = (o: object): string => `${JSON.stringify({ level: 30, time: 1, pid: 7, ...o })}\n`;

describe('PrettyLogLines', () => {
  it('writes a warning as the progress does, with only the fields its message does not show', () => {
    const pretty = new PrettyLogLines();
    expect(
      pretty.format(
        line({
          level: 40,
          endpoint: 'http://c:4318',
          error: 'connect ECONNREFUSED',
          msg: 'telemetry not sent to http://c:4318 (connect ECONNREFUSED)',
        }),
      ),
    ).toBe('warning: telemetry not sent to http://c:4318 (connect ECONNREFUSED)\n');
    expect(pretty.format(line({ level: 20, step: 'review', ms: { config: 2 }, msg: 'phases' }))).toBe(
      'debug: phases  step=review ms={"config":2}\n',
    );
    expect(pretty.format(line({ component: 'InstanceLoader', msg: 'CoreModule dependencies initialized' }))).toBe(
      '[InstanceLoader] CoreModule dependencies initialized\n',
    );
  });

  it('prints a warning or an error once, however often it is logged', () => {
    const pretty = new PrettyLogLines();
    const warning = line({ level: 40, provider: 'gemini', msg: 'coexistence mode' });
    expect(pretty.format(warning)).toBe('warning: coexistence mode  provider=gemini\n');
    expect(pretty.format(warning)).toBe('');
    expect(pretty.format(line({ level: 30, msg: 'again' }))).toBe('again\n');
    expect(pretty.format(line({ level: 30, msg: 'again' }))).toBe('again\n');
  });

  it('clears a terminal line first, so a spinner never runs into a log line', () => {
    expect(new PrettyLogLines(true).format(line({ level: 50, msg: 'boom' }))).toBe('\r\x1b[2Kerror: boom\n');
  });
});

describe('logSettings', () => {
  it('gives mcp-serve JSON at info, other commands pretty at warn, a log file JSON at info', () => {
    expect(logSettings({}, ['node', 'awf', 'mcp-serve', '--config=x'])).toEqual({ level: 'info', format: 'json' });
    expect(logSettings({ AWF_LOG_FORMAT: 'pretty' }, ['node', 'awf', 'mcp-serve'])).toMatchObject({ format: 'json' });
    expect(logSettings({}, ['node', 'awf', 'run', 'wf'])).toEqual({ level: 'warn', format: 'pretty' });
    // The tui draws on the terminal: nothing is logged over it, unless to a file.
    expect(logSettings({}, ['node', 'awf', 'tui'])).toEqual({ level: 'silent', format: 'pretty' });
    expect(logSettings({ AWF_LOG_FILE: '/tmp/x.log' }, ['node', 'awf', 'tui'])).toMatchObject({ level: 'info' });
    expect(logSettings({ AWF_LOG_FILE: '/tmp/a.log' }, ['node', 'awf', 'run'])).toEqual({
      level: 'info',
      format: 'json',
      file: '/tmp/a.log',
    });
    expect(logSettings({ AWF_LOG_FORMAT: 'json', AWF_LOG_LEVEL: 'debug' }, ['node', 'awf', 'run'])).toEqual({
      level: 'debug',
      format: 'json',
    });
  });
});
