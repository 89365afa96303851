import { parsePolicy, type PolicyProblem } from '../policy/policy.parser';
import { bashSandboxOf } from './bash-sandbox';

const off = { bash_sandbox: false, bash_sandbox_network: false };

describe('bashSandboxOf', () => {
  it('is off unless the limits or a policy layer turn it on', () => {
    expect(bashSandboxOf(off)).toBeUndefined();
    expect(bashSandboxOf(off, [{ origin: 'step a', bash_sandbox: false }])).toBeUndefined();
    expect(bashSandboxOf({ ...off, bash_sandbox: true })).toEqual({
      network: false,
      origins: ['limits.bash_sandbox'],
    });
  });

  it('keeps the network closed unless every source that turned the sandbox on allows it', () => {
    expect(bashSandboxOf({ bash_sandbox: true, bash_sandbox_network: true })?.network).toBe(true);
    expect(bashSandboxOf(off, [{ origin: 'step a', bash_sandbox: { network: true } }])?.network).toBe(true);
    const layered = bashSandboxOf(off, [
      { origin: '.awf/config.yaml', bash_sandbox: true },
      { origin: 'step a', bash_sandbox: { network: true } },
    ]);
    expect(layered).toEqual({ network: false, origins: ['.awf/config.yaml: bash_sandbox', 'step a: bash_sandbox'] });
    // A step's `false` cannot turn off what the defaults turned on.
    expect(
      bashSandboxOf(off, [
        { origin: 'd', bash_sandbox: true },
        { origin: 's', bash_sandbox: false },
      ]),
    ).toEqual({
      network: false,
      origins: ['d: bash_sandbox'],
    });
  });
});

describe('the policy key bash_sandbox', () => {
  const parse = (raw: unknown): { spec: unknown; problems: PolicyProblem[] } => {
    const problems: PolicyProblem[] = [];
    return { spec: parsePolicy({ bash_sandbox: raw }, 'policy', problems).bash_sandbox, problems };
  };

  it('takes true, false or {network: true|false}', () => {
    expect(parse(true)).toEqual({ spec: true, problems: [] });
    expect(parse(false)).toEqual({ spec: false, problems: [] });
    expect(parse({ network: true })).toEqual({ spec: { network: true }, problems: [] });
    expect(parse({})).toEqual({ spec: { network: false }, problems: [] });
  });

  it('reports anything else with its path', () => {
    expect(parse('yes').problems.map((p) => [p.code, p.path])).toEqual([
      ['USER.POLICY.INVALID', 'policy.bash_sandbox'],
    ]);
    expect(parse({ network: 'on' }).problems.map((p) => p.message)).toEqual(['network must be true or false']);
    expect(parse({ net: true }).problems.map((p) => p.code)).toEqual(['USER.POLICY.UNKNOWN_KEY']);
  });
});
