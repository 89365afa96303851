import { ErrorCodes } from '../errors/error-codes';
import { compileGlob, type GlobKind, GlobSyntaxError } from './policy-glob';
import type { ApproveRule, PolicyBudgets, PolicySpec } from './policy.model';

/** One thing wrong with a written policy; all are reported at once. */
export interface PolicyProblem {
  code: string;
  path: string;
  message: string;
}

export const POLICY_PROBLEM = {
  unknownKey: ErrorCodes.POLICY_UNKNOWN_KEY,
  invalid: ErrorCodes.POLICY_INVALID,
  badGlob: ErrorCodes.POLICY_BAD_GLOB,
  noSuchTool: ErrorCodes.POLICY_NO_SUCH_TOOL,
  neverMatches: ErrorCodes.POLICY_NEVER_MATCHES,
} as const;

const SECTIONS: Record<string, Record<string, GlobKind | 'budgets'>> = {
  tools: { allow: 'name', deny: 'name' },
  paths: { read: 'path', write: 'path', deny: 'path' },
  bash: { allow: 'command', deny: 'command' },
};
const TOP = ['tools', 'paths', 'bash', 'budgets', 'approve', 'enforce', 'bash_sandbox'];
const ENFORCE = ['audit', 'strict'];
const BUDGETS = ['calls', 'per_tool', 'write_bytes', 'bash_seconds'];
const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** Parses a written policy; `at` prefixes every problem's path (`states.review.mcp_proxy.policy`). */
export function parsePolicy(raw: unknown, at: string, problems: PolicyProblem[]): PolicySpec {
  const spec: PolicySpec = {};
  if (raw === undefined || raw === null) return spec;
  const r = mapping(raw, at, problems);
  if (!r) return spec;
  unknownKeys(r, TOP, at, problems);
  for (const [section, fields] of Object.entries(SECTIONS)) {
    if (r[section] === undefined || r[section] === null) continue;
    const s = mapping(r[section], `${at}.${section}`, problems);
    if (!s) continue;
    unknownKeys(s, Object.keys(fields), `${at}.${section}`, problems);
    const out: Record<string, string[]> = {};
    for (const [field, kind] of Object.entries(fields)) {
      const list = globList(s[field], kind as GlobKind, `${at}.${section}.${field}`, problems);
      if (list) out[field] = list;
    }
    (spec as Record<string, unknown>)[section] = out;
  }
  if (r.budgets !== undefined && r.budgets !== null) spec.budgets = budgets(r.budgets, `${at}.budgets`, problems);
  if (r.approve !== undefined && r.approve !== null) spec.approve = approveRules(r.approve, `${at}.approve`, problems);
  if (r.enforce !== undefined && r.enforce !== null) {
    if (ENFORCE.includes(r.enforce as string)) spec.enforce = r.enforce as PolicySpec['enforce'];
    else
      problems.push({
        code: POLICY_PROBLEM.invalid,
        path: `${at}.enforce`,
        message: `enforce must be ${ENFORCE.map((e) => `"${e}"`).join(' or ')}`,
      });
  }
  if (r.bash_sandbox !== undefined && r.bash_sandbox !== null)
    spec.bash_sandbox = bashSandbox(r.bash_sandbox, `${at}.bash_sandbox`, problems);
  return spec;
}

/** `5MiB`, `200kb`, `1048576`: a byte count, or undefined when it is not one. */
export function parseByteSize(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  return m && unit ? Math.floor(Number(m[1]) * unit) : undefined;
}

function budgets(raw: unknown, at: string, problems: PolicyProblem[]): PolicyBudgets | undefined {
  const r = mapping(raw, at, problems);
  if (!r) return undefined;
  unknownKeys(r, BUDGETS, at, problems);
  const out: PolicyBudgets = {};
  const count = (key: string, value: unknown): number | undefined => {
    if (value === undefined || value === null) return undefined;
    if (Number.isSafeInteger(value) && (value as number) >= 0) return value as number;
    problems.push({
      code: POLICY_PROBLEM.invalid,
      path: `${at}.${key}`,
      message: `${key} must be a whole number of 0 or more`,
    });
    return undefined;
  };
  const calls = count('calls', r.calls);
  if (calls !== undefined) out.calls = calls;
  const seconds = count('bash_seconds', r.bash_seconds);
  if (seconds !== undefined) out.bash_seconds = seconds;
  if (r.write_bytes !== undefined && r.write_bytes !== null) {
    const bytes = parseByteSize(r.write_bytes);
    if (bytes === undefined)
      problems.push({
        code: POLICY_PROBLEM.invalid,
        path: `${at}.write_bytes`,
        message: 'write_bytes must be a size such as 5MiB, 200kb or 1048576',
      });
    else out.write_bytes = bytes;
  }
  if (r.per_tool !== undefined && r.per_tool !== null) {
    const per = mapping(r.per_tool, `${at}.per_tool`, problems);
    if (per) {
      out.per_tool = {};
      for (const [tool, n] of Object.entries(per)) {
        const value = count(`per_tool.${tool}`, n);
        if (value !== undefined) out.per_tool[tool] = value;
      }
    }
  }
  return out;
}

/** `true`, `false`, or `{network: true|false}` (the sandbox on, the network allowed or not). */
function bashSandbox(raw: unknown, at: string, problems: PolicyProblem[]): PolicySpec['bash_sandbox'] {
  if (typeof raw === 'boolean') return raw;
  const r = mapping(raw, at, problems);
  if (!r) return undefined;
  unknownKeys(r, ['network'], at, problems);
  if (r.network === undefined || typeof r.network === 'boolean') return { network: r.network === true };
  problems.push({ code: POLICY_PROBLEM.invalid, path: `${at}.network`, message: 'network must be true or false' });
  return undefined;
}

function approveRules(raw: unknown, at: string, problems: PolicyProblem[]): ApproveRule[] {
  if (!Array.isArray(raw)) {
    problems.push({
      code: POLICY_PROBLEM.invalid,
      path: at,
      message: 'approve must be a list of "Tool", "Tool:pattern" or {match, auto}',
    });
    return [];
  }
  const rules: ApproveRule[] = [];
  raw.forEach((entry, i) => {
    const path = `${at}[${i}]`;
    const e = typeof entry === 'string' ? { match: entry } : entry;
    if (typeof e !== 'object' || e === null || Array.isArray(e) || typeof (e as ApproveRule).match !== 'string') {
      problems.push({
        code: POLICY_PROBLEM.invalid,
        path,
        message: 'an approve entry is "Tool", "Tool:pattern" or {match: "Tool:pattern", auto: true}',
      });
      return;
    }
    unknownKeys(e as Record<string, unknown>, ['match', 'auto'], path, problems);
    const { match, auto } = e as { match: string; auto?: unknown };
    if (auto !== undefined && typeof auto !== 'boolean')
      problems.push({ code: POLICY_PROBLEM.invalid, path: `${path}.auto`, message: 'auto must be true or false' });
    const colon = match.indexOf(':');
    const tool = colon < 0 ? match : match.slice(0, colon);
    if (checkGlob(tool, 'name', path, problems) && colon >= 0)
      checkGlob(match.slice(colon + 1), 'command', path, problems);
    rules.push(auto === true ? { match, auto: true } : { match });
  });
  return rules;
}

function globList(raw: unknown, kind: GlobKind, at: string, problems: PolicyProblem[]): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list)) {
    problems.push({ code: POLICY_PROBLEM.invalid, path: at, message: 'must be a list of patterns' });
    return undefined;
  }
  return list.filter((p, i) => checkGlob(p, kind, `${at}[${i}]`, problems)) as string[];
}

function checkGlob(pattern: unknown, kind: GlobKind, at: string, problems: PolicyProblem[]): boolean {
  try {
    compileGlob(pattern as string, kind);
    return true;
  } catch (err) {
    if (!(err instanceof GlobSyntaxError)) throw err;
    problems.push({ code: POLICY_PROBLEM.badGlob, path: at, message: `bad pattern: ${err.message}` });
    return false;
  }
}

function mapping(raw: unknown, at: string, problems: PolicyProblem[]): Record<string, unknown> | undefined {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Record<string, unknown>;
  problems.push({ code: POLICY_PROBLEM.invalid, path: at, message: 'must be a mapping' });
  return undefined;
}

function unknownKeys(r: Record<string, unknown>, known: string[], at: string, problems: PolicyProblem[]): void {
  const unknown = Object.keys(r).filter((k) => !known.includes(k));
  if (unknown.length) {
    problems.push({
      code: POLICY_PROBLEM.unknownKey,
      path: at,
      message: `unknown key(s): ${unknown.join(', ')} (allowed: ${known.join(', ')})`,
    });
  }
}
