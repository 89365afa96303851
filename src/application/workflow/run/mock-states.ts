import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { StepStateData } from '../../../domain/workflow/interpolation.types';

const FIELDS = ['Output', 'Stderr', 'ExitCode'] as const;

/**
 * `-m states.fetch.Output=cached data` (AWF's `--mock`): the states a single step (`-s`) reads,
 * as if those steps had run and succeeded. Split on the first `=`, key and value trimmed (AWF);
 * the fields are Output, Stderr and ExitCode.
 */
export function parseMockFlags(flags: readonly string[]): Record<string, StepStateData> {
  const states: Record<string, StepStateData> = {};
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    const key = eq < 0 ? '' : flag.slice(0, eq).trim();
    const value = flag.slice(eq + 1).trim();
    const m = /^states\.([^.]+)\.([A-Za-z]+)$/.exec(key);
    const field = m && FIELDS.find((f) => f === m[2]);
    if (!m || !field || (field === 'ExitCode' && !/^-?\d+$/.test(value))) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        `--mock "${flag}" must be states.<step>.<${FIELDS.join('|')}>=<value>`,
        { mock: flag },
        'For example: -m states.fetch.Output="cached data" (ExitCode takes an integer).',
      );
    }
    const state = (states[m[1]] ??= { Output: '', Stderr: '', ExitCode: 0, Status: 'success' });
    if (field === 'ExitCode') state.ExitCode = Number(value);
    else state[field] = value;
  }
  return states;
}
