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
      started_at: '2026-12-04T10:00:00.000Z',
      duration_ms: 1,
      exit_code: -1,
      output: '',
      state: { Output: '', Stderr: '', ExitCode: -1, Status: 'failure' },
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

  it("prints each step's result without the history's part of it (state, started_at, next)", () => {
    const [step] = JSON.parse(renderRunReport(report, 'json', same)).steps;
    expect(Object.keys(step).sort()).toEqual([
      'duration_ms',
      'error',
      'exit_code',
      'name',
      'output',
      'status',
      'tool_calls',
      'type',
    ]);
  });

  it('an error object has its hint unless --no-hints', () => {
    const err = new AwfError(ErrorCodes.PLUGIN_NOT_FOUND, 'no plugin "x"', {}, 'awf plugin list');
    expect(JSON.parse(renderError(err, 'json')).error.hint).toBe('awf plugin list');
    expect(JSON.parse(renderError(err, 'json', same, { hints: false })).error).not.toHaveProperty('hint');
    expect(renderError(err, 'text', same, { hints: false })).toBe('[USER.PLUGIN.NOT_FOUND] no plugin "x"\n');
  });
});
