import { parseExamples } from './doc-examples';
import { consoleCommands, runExample } from './doc-example-runners';
import { docProject } from './doc-example-project';

/** The rules of test/e2e/docs-examples.e2e.spec.ts: every block runs or says why not. */
describe('doc examples', () => {
  it('takes each fenced block with its language, line and the marker above it', () => {
    const md = [
      '# t',
      '',
      '<!-- doc-test: cwd: examples/sample-project; input: dir=. x=1 ; env: A=b -->',
      '',
      '```yaml',
      'a: 1',
      '```',
      '- item',
      '  ```json',
      '  {"k": 1}',
      '  ```',
    ].join('\n');
    expect(parseExamples(md, 'x.md')).toEqual([
      {
        doc: 'x.md',
        line: 5,
        lang: 'yaml',
        code: 'a: 1\n',
        cwd: 'examples/sample-project',
        inputs: { dir: '.', x: '1' },
        env: { A: 'b' },
      },
      { doc: 'x.md', line: 9, lang: 'json', code: '{"k": 1}\n', inputs: {}, env: {} },
    ]);
  });

  it('keeps a skip reason whole, semicolons included', () => {
    const [ex] = parseExamples(
      '<!-- doc-test: env: A=1; skip: output of a run; not a command -->\n```\n$ x\n```\n',
      'x.md',
    );
    expect(ex).toMatchObject({ skip: 'output of a run; not a command', env: { A: '1' } });
  });

  it.each([
    ['a skip without a reason', '<!-- doc-test: skip: -->', /skip needs a reason/],
    ['a one-word reason', '<!-- doc-test: skip: output -->', /skip needs a reason/],
    [
      'an unknown directive',
      '<!-- doc-test: ignore: please do not run this -->',
      /unknown doc-test directive "ignore"/,
    ],
    ['a path out of the project', '<!-- doc-test: cwd: ../elsewhere -->', /relative path inside/],
  ])('refuses %s, naming the line', (_what, marker, message) => {
    expect(() => parseExamples(`text\n${marker}\n\`\`\`bash\necho\n\`\`\`\n`, 'y.md')).toThrow(message);
    expect(() => parseExamples(`text\n${marker}\n\`\`\`bash\necho\n\`\`\`\n`, 'y.md')).toThrow(/^y\.md:2: /);
  });

  it('refuses a fence that never closes', () => {
    expect(() => parseExamples('```bash\necho\n', 'z.md')).toThrow('z.md:1: a code fence that never closes');
  });

  it('runs the $ lines of a console block, continuations included, and not its output', () => {
    expect(consoleCommands('$ echo a \\\n  b\na b\n$ true\n')).toBe('echo a \\\n  b\ntrue');
    expect(() => consoleCommands('just output\n')).toThrow(/without a `\$ ` command/);
  });

  it('fails a block that no runner takes and that carries no marker, saying how to mark it', () => {
    const project = docProject();
    try {
      const [plain] = parseExamples('```\nsome output\n```\n', 'p.md');
      expect(() => runExample(plain, project)).toThrow(
        'a "plain" block is not run: mark it <!-- doc-test: skip: <why> --> or give it a language',
      );
      const [shell] = parseExamples('```bash\nexit 7\n```\n', 'p.md');
      expect(() => runExample(shell, project)).toThrow(/the snippet exited 7/);
    } finally {
      project.cleanup();
    }
  });
});
