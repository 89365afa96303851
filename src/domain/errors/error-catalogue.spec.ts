import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOGUE, lookUpErrorCodes } from './error-catalogue';
import { ErrorCodes, exitCodeFor } from './error-codes';
import { POLICY_REFUSAL } from '../policy/policy.model';

const SRC = join(__dirname, '..', '..');
const CODE_LITERAL = /['"`]((?:USER|WORKFLOW|EXECUTION|SYSTEM)\.[A-Z_]+\.[A-Z_]+|POLICY\.[A-Z_]+)['"`]/g;

/** Every code written as a literal anywhere in src/ (specs aside): what awf can print. */
function literalCodes(): Map<string, string> {
  const found = new Map<string, string>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'),
  );
  for (const file of files)
    for (const m of readFileSync(join(SRC, file), 'utf8').matchAll(CODE_LITERAL)) found.set(m[1], file);
  return found;
}

describe('the error catalogue (awf error)', () => {
  const byCode = new Map(ERROR_CATALOGUE.map((e) => [e.code, e]));

  it('has every code of error-codes.ts and every policy refusal, once', () => {
    const expected = [...Object.values(ErrorCodes), ...Object.values(POLICY_REFUSAL)];
    expect([...byCode.keys()].sort()).toEqual([...new Set(expected)].sort());
    expect(byCode.size).toBe(ERROR_CATALOGUE.length);
  });

  it('covers every code literal in the source, so nothing awf prints is missing', () => {
    const missing = [...literalCodes()].filter(([code]) => !byCode.has(code)).map(([c, f]) => `${c} (${f})`);
    expect(missing).toEqual([]);
  });

  it.each(ERROR_CATALOGUE.map((e) => [e.code, e] as const))('%s says what happened and what to do', (code, e) => {
    expect(e.description.length).toBeGreaterThan(20);
    expect(e.resolution.length).toBeGreaterThan(15);
    expect(e.exitCode).toBe(code.startsWith('POLICY.') ? null : exitCodeFor(code));
    for (const related of e.related ?? []) expect(byCode.has(related)).toBe(true);
  });

  it('looks a code up exactly, by prefix, in any case; nothing for an unknown one', () => {
    expect(lookUpErrorCodes('user.cli.invalid_args').map((e) => e.code)).toEqual(['USER.CLI.INVALID_ARGS']);
    const prefix = lookUpErrorCodes('WORKFLOW.VALIDATION').map((e) => e.code);
    expect(prefix.length).toBeGreaterThan(3);
    expect(prefix.every((c) => c.startsWith('WORKFLOW.VALIDATION.'))).toBe(true);
    expect(lookUpErrorCodes('NOPE.NOT.THERE')).toEqual([]);
    expect(lookUpErrorCodes()).toHaveLength(ERROR_CATALOGUE.length);
  });
});
