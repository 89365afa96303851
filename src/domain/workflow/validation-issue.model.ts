/**
 * One problem found in a workflow. `path` is where in the file it is
 * (`states.review.mcp_proxy.policy`), so `awf validate` can print every issue at once.
 */
export interface ValidationIssue {
  code: string;
  path: string;
  message: string;
  severity: 'error' | 'warning';
  /** Where a YAML syntax error is (1-based), and the lines around it with a caret under the column. */
  line?: number;
  column?: number;
  excerpt?: string;
}

export function issue(
  code: string,
  path: string,
  message: string,
  severity: ValidationIssue['severity'] = 'error',
): ValidationIssue {
  return { code, path, message, severity };
}

export function formatIssue(i: ValidationIssue): string {
  return `[${i.code}] ${i.path ? `${i.path}: ` : ''}${i.message}${i.excerpt ? `\n${i.excerpt}` : ''}`;
}
