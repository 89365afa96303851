import { meaningfulStderrLine } from './plugin-stderr';

describe('the stderr line that says why a plugin failed', () => {
  it("finds Node's error under its crash preamble", () => {
    const stderr = [
      'node:internal/modules/cjs/loader:1228',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module 'awf/plugin-sdk'",
      'Require stack:',
      '- /home/ada/weather/dist/plugin.js',
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
      'Node.js v20.19.5',
    ];
    expect(meaningfulStderrLine(stderr)).toBe("Error: Cannot find module 'awf/plugin-sdk'");
  });

  it('skips the info lines of a logger and keeps an error-level one, with its error', () => {
    const pino = (level: number, msg: string, extra = {}) => JSON.stringify({ level, time: 1, pid: 9, msg, ...extra });
    expect(
      meaningfulStderrLine([
        pino(30, 'Starting Nest application...'),
        pino(30, 'WeatherModule dependencies initialized'),
        pino(50, 'cannot reach the weather service', { err: { message: 'ECONNREFUSED 127.0.0.1:9' } }),
      ]),
    ).toBe('cannot reach the weather service: ECONNREFUSED 127.0.0.1:9');
    expect(
      meaningfulStderrLine([JSON.stringify({ '@level': 'error', '@message': 'bad config', '@timestamp': 'x' })]),
    ).toBe('bad config');
  });

  it('falls back to the first line that is not noise, and to nothing when there is none', () => {
    expect(meaningfulStderrLine([JSON.stringify({ level: 30, msg: 'hello' }), 'weather: no API key set'])).toBe(
      'weather: no API key set',
    );
    expect(meaningfulStderrLine(['kv: starting', 'TypeError: x is not a function'])).toBe(
      'TypeError: x is not a function',
    );
    expect(meaningfulStderrLine(['', JSON.stringify({ level: 30, msg: 'up' })])).toBeUndefined();
    expect(meaningfulStderrLine(['panic: runtime error: index out of range'])).toBe(
      'panic: runtime error: index out of range',
    );
  });
});
