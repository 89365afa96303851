import { parseTags, parseWorkflowEnv } from './workflow-meta.parser';
import type { ValidationIssue } from './validation-issue.model';

describe('top-level env and tags', () => {
  const parse = <T>(fn: (raw: unknown, issues: ValidationIssue[]) => T, raw: unknown) => {
    const issues: ValidationIssue[] = [];
    return { value: fn(raw, issues), issues: issues.map((i) => `${i.code} ${i.path}: ${i.message}`) };
  };

  it("env: AWF's list names required variables; awf's mapping sets them; anything else is refused by path", () => {
    expect(parse(parseWorkflowEnv, ['API_KEY', 'DATABASE_URL'])).toEqual({
      value: { required: ['API_KEY', 'DATABASE_URL'], set: {} },
      issues: [],
    });
    expect(parse(parseWorkflowEnv, { STAGE: 'prod', RETRIES: 3, DRY: false })).toEqual({
      value: { required: [], set: { STAGE: 'prod', RETRIES: '3', DRY: 'false' } },
      issues: [],
    });
    expect(parse(parseWorkflowEnv, ['OK', 'not ok', 7]).issues).toEqual([
      'WORKFLOW.PARSE.INVALID_FIELD env[1]: an environment variable name is letters, digits and _, not "not ok"',
      'WORKFLOW.PARSE.INVALID_FIELD env[2]: an environment variable name is letters, digits and _, not 7',
    ]);
    expect(parse(parseWorkflowEnv, { 'A-B': 'x', NESTED: { a: 1 } }).issues).toEqual([
      'WORKFLOW.PARSE.INVALID_FIELD env.A-B: an environment variable name is letters, digits and _',
      'WORKFLOW.PARSE.INVALID_FIELD env.NESTED: the value must be text, a number or a boolean',
    ]);
    expect(parse(parseWorkflowEnv, 'HOME').issues[0]).toContain('env must be a list of variable names');
    expect(parse(parseWorkflowEnv, undefined)).toEqual({ value: undefined, issues: [] });
  });

  it('tags: a list of words (or a, b); anything else is refused', () => {
    expect(parse(parseTags, ['ci', 'review ', 2]).value).toEqual(['ci', 'review', '2']);
    expect(parse(parseTags, 'ci, nightly').value).toEqual(['ci', 'nightly']);
    expect(parse(parseTags, [{ a: 1 }]).issues).toEqual([
      'WORKFLOW.PARSE.INVALID_FIELD tags: tags must be a list of words',
    ]);
  });
});
