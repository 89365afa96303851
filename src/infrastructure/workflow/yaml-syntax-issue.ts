import { relative } from 'node:path';
import type { YAMLError } from 'yaml';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { issue, type ValidationIssue } from '../../domain/workflow/validation-issue.model';

/**
 * A YAML syntax error as a compiler prints one: `file:line:col: what`, and (`withExcerpt`, the
 * first error) the line before, the line itself and a caret under the column. The yaml library
 * puts an indentation error at column 1; the caret goes where the misplaced item starts. An
 * unclosed quote is reported at the end of the file; the caret goes where it was opened.
 */
export function yamlSyntaxIssue(error: YAMLError, text: string, file: string, cwd: string, withExcerpt: boolean) {
  const what = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const at = error.linePos?.[0];
  if (!at) return issue(ErrorCodes.WORKFLOW_YAML_SYNTAX, '', what);
  const lines = text.split('\n');
  const opened = unclosedQuote(what, lines, at.line);
  const line = opened?.line ?? at.line;
  const source = lines[line - 1] ?? '';
  const indent = source.length - source.trimStart().length;
  const column = opened?.column ?? (source.trim() && at.col <= indent ? indent + 1 : at.col);
  const shown = relative(cwd, file).startsWith('..') ? file : relative(cwd, file);
  const found: ValidationIssue = {
    ...issue(
      ErrorCodes.WORKFLOW_YAML_SYNTAX,
      '',
      `${shown}:${line}:${column}: ${opened ? 'this quote is never closed' : what}`,
    ),
    line,
    column,
  };
  if (!withExcerpt) return found;
  const numbered = (n: number) => `${String(n).padStart(6)} | ${lines[n - 1] ?? ''}`.trimEnd();
  const excerpt = [
    ...(line > 1 ? [numbered(line - 1)] : []),
    numbered(line),
    `${' '.repeat(6)} | ${' '.repeat(column - 1)}^`,
  ];
  return { ...found, excerpt: excerpt.join('\n') };
}

/** For `Missing closing "quote`: the last line before `end` where a value opens that quote and does not close it. */
function unclosedQuote(what: string, lines: string[], end: number): { line: number; column: number } | undefined {
  const quote = /^Missing closing (["'])quote/.exec(what)?.[1];
  if (!quote) return undefined;
  for (let n = Math.min(end, lines.length); n >= 1; n--) {
    const open = lines[n - 1].search(new RegExp(`(^|[:\\-\\[,{]\\s*)${quote}`));
    if (open < 0) continue;
    const at = lines[n - 1].indexOf(quote, open);
    if (lines[n - 1].indexOf(quote, at + 1) < 0) return { line: n, column: at + 1 };
  }
  return undefined;
}
