import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GREP_ENGINE_ENV, pickEngine } from '../grep.tool';
import { pathWith, RIPGREP } from '../../../../test/support/optional-tools';
import { itUnless } from '../../../../test/support/skip';

describe('Grep engine choice', () => {
  const empty = mkdtempSync(join(tmpdir(), 'awf-nopath-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('falls back to the JS walker when rg is not on PATH', () => {
    expect(pickEngine({ PATH: empty }).name).toBe('js');
  });

  it('refuses a forced ripgrep that is not installed, instead of silently switching', () => {
    expect(() => pickEngine({ PATH: empty, [GREP_ENGINE_ENV]: 'ripgrep' })).toThrow(/rg is not on PATH/);
  });

  it('honours a forced JS engine even when rg is present', () => {
    expect(pickEngine({ PATH: process.env.PATH, [GREP_ENGINE_ENV]: 'js' }).name).toBe('js');
  });

  itUnless(
    RIPGREP
      ? undefined
      : 'no ripgrep: none on PATH and the pinned codex package is not installed (npm run test:agents installs it)',
    'prefers ripgrep when it is on PATH',
    () => {
      expect(pickEngine({ PATH: pathWith(RIPGREP!) }).name).toBe('ripgrep');
    },
  );
});
