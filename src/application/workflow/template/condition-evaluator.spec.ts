import { Condition } from './condition-evaluator';

const env = {
  inputs: { mode: 'full', count: '3', dry: 'false' },
  states: {
    build: { ExitCode: 0, Output: 'BUILD OK\n', Status: 'success' },
    test: { ExitCode: 2, Output: 'FAIL: 2 tests' },
  },
  env: { CI: 'true' },
};

const when = (expr: string): boolean => Condition.compile(expr).evaluate(env);

describe('when conditions', () => {
  it('compares numbers, strings and coerced inputs', () => {
    expect(when('states.build.ExitCode == 0')).toBe(true);
    expect(when('states.test.ExitCode != 0')).toBe(true);
    expect(when("inputs.mode == 'full'")).toBe(true);
    expect(when('inputs.count > 2 and inputs.count <= 3')).toBe(true);
    expect(when('inputs.dry == false')).toBe(true);
    expect(when('env.CI == true')).toBe(true);
  });

  it('combines with and/or/not/&&/||/! and parentheses', () => {
    expect(when("states.build.ExitCode == 0 and (inputs.mode == 'quick' or inputs.mode == 'full')")).toBe(true);
    expect(when('not (states.test.ExitCode == 0)')).toBe(true);
    expect(when('!(states.test.ExitCode == 0) && states.build.ExitCode == 0 || false')).toBe(true);
  });

  it('has contains/startsWith/endsWith as operators and as functions', () => {
    expect(when("states.test.Output contains 'FAIL'")).toBe(true);
    expect(when("contains(states.test.Output, 'FAIL')")).toBe(true);
    expect(when("states.build.Output startsWith 'BUILD'")).toBe(true);
    expect(when("endsWith(states.test.Output, 'tests')")).toBe(true);
  });

  it('treats a comparison with an undefined path as false instead of failing', () => {
    expect(when('states.deploy.ExitCode == 0')).toBe(false);
    expect(when("inputs.nothing == ''")).toBe(false);
  });

  it('rejects malformed expressions at compile time', () => {
    expect(() => Condition.compile('states.build.ExitCode == = 0')).toThrow(/invalid condition.*cannot read "= 0"/);
    expect(() => Condition.compile('(a == 1')).toThrow(/missing "\)"/);
    expect(() => Condition.compile('rm(1)')).toThrow(/unknown function rm/);
  });

  it('reports the paths it reads', () => {
    expect(Condition.compile("states.a.ExitCode == 0 or inputs.x == 'y'").paths()).toEqual([
      ['states', 'a', 'ExitCode'],
      ['inputs', 'x'],
    ]);
  });
});
