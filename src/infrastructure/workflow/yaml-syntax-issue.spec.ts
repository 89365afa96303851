import { parseDocument } from 'yaml';
import { formatIssue } from '../../domain/workflow/validation-issue.model';
import { yamlSyntaxIssue } from './yaml-syntax-issue';

const first = (text: string, excerpt = true) =>
  formatIssue(yamlSyntaxIssue(parseDocument(text).errors[0], text, '/p/wf.yaml', '/p', excerpt));

describe('yamlSyntaxIssue', () => {
  it('points an unclosed quote where it was opened, not at the end of the file', () => {
    expect(first('name: x\nstates:\n  a:\n    command: "echo hi\n    on_success: done\n')).toBe(
      [
        '[WORKFLOW.PARSE.YAML_SYNTAX] wf.yaml:4:14: this quote is never closed',
        '     3 |   a:',
        '     4 |     command: "echo hi',
        '       |              ^',
      ].join('\n'),
    );
  });

  it('keeps the yaml library’s column where it is right, and gives no excerpt when asked for none', () => {
    expect(first('a: b: c\n')).toBe(
      '[WORKFLOW.PARSE.YAML_SYNTAX] wf.yaml:1:4: Nested mappings are not allowed in compact mappings\n' +
        '     1 | a: b: c\n       |    ^',
    );
    expect(first('a: b: c\n', false)).toBe(
      '[WORKFLOW.PARSE.YAML_SYNTAX] wf.yaml:1:4: Nested mappings are not allowed in compact mappings',
    );
  });
});
