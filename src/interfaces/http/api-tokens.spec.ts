import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadApiTokens, tokenOwner } from './api-tokens';

const T1 = 'f00d'.repeat(8);
const T2 = 'beef'.repeat(10);

describe('API tokens (AWF_API_TOKEN and --token-file)', () => {
  let dir: string;
  const file = (text: string, mode = 0o600): string => {
    const path = join(dir, `tokens-${Math.random()}`);
    writeFileSync(path, text);
    chmodSync(path, mode);
    return path;
  };
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'awf-tokens-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names each token: `env` for the variable, the first word of each line of the file', () => {
    const tokens = loadApiTokens(T1, file(`# team\nci ${T2}\n`));
    expect(tokens.map((t) => t.name)).toEqual(['env', 'ci']);
    expect(tokenOwner(tokens, `Bearer ${T2}`)).toBe('ci');
    expect(tokenOwner(tokens, `Bearer ${T1}`)).toBe('env');
    expect(tokenOwner(tokens, `Bearer ${T1}x`)).toBeUndefined();
    expect(tokenOwner(tokens, T1)).toBeUndefined();
    expect(loadApiTokens(undefined, undefined)).toEqual([]);
  });

  it('refuses a file others may read, a line that is not `name token`, a short token, a name twice', () => {
    const refused: Array<[() => unknown, RegExp]> = [
      [() => loadApiTokens(undefined, file(`ci ${T1}\n`, 0o644)), /may be read by others/],
      [() => loadApiTokens(undefined, file(`${T1}\n`)), /line 1: not `name token`/],
      [() => loadApiTokens(undefined, file(`ci ${T1} extra\n`)), /line 1/],
      [() => loadApiTokens(undefined, file('ci short\n')), /at least 32/],
      [() => loadApiTokens(undefined, file('# nothing\n')), /holds no token/],
      [() => loadApiTokens(undefined, join(dir, 'absent')), /cannot read --token-file .*ENOENT/],
      [() => loadApiTokens(undefined, file(`ci ${T1}\nci ${T2}\n`)), /"ci" is given twice/],
      [() => loadApiTokens('too-short', undefined), /AWF_API_TOKEN: a token must be at least 32/],
    ];
    for (const [load, message] of refused)
      expect(load).toThrow(
        expect.objectContaining({ code: 'USER.SERVE.INVALID_TOKEN', message: expect.stringMatching(message) }),
      );
  });
});
