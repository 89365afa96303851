import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { RunReport } from '../../../domain/workflow/run-report.model';
import { renderError } from '../cli-errors';
import { renderRunReport } from './run-report.renderer';

const error = { code: 'USER.PLUGIN.NOT_FOUND', message: 'operation "x.y" not found', hint: 'awf plugin list' };
const report: RunReport = {
  workflow: 'wf',
  run_id: 'r1',
  status: 'failure',
  duration_ms: 3,
  output: '',
  steps: [
    {
      name: 's',
      type: 'operation',
      status: 'failure',
      duration_ms: 1,
      exit_code: -1,
      output: '',
      tool_calls: 0,
      error,
    },
  ],
  error,
};
const same = (s: string): string => s;

describe('-f json and --no-hints', () => {
  it('the run report keeps its hints by default and drops every one with --no-hints', () => {
    expect(JSON.parse(renderRunReport(report, 'json', same))).toMatchObject({ error, steps: [{ error }] });
    const bare = JSON.parse(renderRunReport(report, 'json', same, false));
    const { hint: _hint, ...rest } = error;
    expect(bare.error).toEqual(rest);
    expect(bare.steps[0].error).toEqual(rest);
  });

  it('an error object has its hint unless --no-hints', () => {
    const err = new AwfError(ErrorCodes.PLUGIN_NOT_FOUND, 'no plugin "x"', {}, 'awf plugin list');
    expect(JSON.parse(renderError(err, 'json')).error.hint).toBe('awf plugin list');
    expect(JSON.parse(renderError(err, 'json', same, { hints: false })).error).not.toHaveProperty('hint');
    expect(renderError(err, 'text', same, { hints: false })).toBe('[USER.PLUGIN.NOT_FOUND] no plugin "x"\n');
  });
});
