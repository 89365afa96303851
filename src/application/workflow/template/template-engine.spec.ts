import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAwfError } from '../../../domain/errors/awf-error';
import { renderTemplate, Template } from './template-engine';
import { FsWorkflowFiles } from '../../../infrastructure/core/fs-workflow-files';
import { shellEscape } from './template-functions';

const data = {
  inputs: { name: 'world', file: "it's a file.txt", empty: '', items: ['a', 'b', 'c'], mode: 'full' },
  states: {
    build: { Output: '  built ok\n', Stderr: '', ExitCode: 0, Status: 'success', Response: { items: [1, 2] } },
    plan: {
      Output: '{"files":["x.ts","y.ts"],"ok":true}',
      Stderr: '',
      ExitCode: 0,
      Status: 'success',
      JSON: { files: ['x.ts', 'y.ts'], ok: true },
      TokensUsed: 42,
    },
  },
  workflow: { ID: 'run-1', Name: 'demo', CurrentState: 'test', StartedAt: '2026-01-01T00:00:00Z' },
  env: { HOME: '/home/u' },
  context: { WorkingDir: '/work', User: 'ada', Hostname: 'box' },
  awf: { prompts_dir: '/home/u/.config/awf/prompts' },
};

function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (isAwfError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected an error');
}

const r = (t: string, d: Record<string, unknown> = data): string => renderTemplate(t, d);

describe('AWF namespaces', () => {
  it('reads inputs, states, workflow, env, context and awf with AWF casing', () => {
    expect(r('hi {{.inputs.name}} from {{.workflow.Name}}/{{.workflow.ID}} in {{.env.HOME}}')).toBe(
      'hi world from demo/run-1 in /home/u',
    );
    expect(r('code={{.states.build.ExitCode}}')).toBe('code=0');
    expect(r('{{.context.User}}@{{.context.Hostname}}:{{.context.WorkingDir}}')).toBe('ada@box:/work');
    expect(r('{{.awf.prompts_dir}}')).toBe('/home/u/.config/awf/prompts');
  });

  it('accepts the namespace-function form, with lowercase keys for context, loop and error', () => {
    expect(r('{{inputs.name}} {{context.working_dir}} {{(context).user}}')).toBe('world /work ada');
    const loop = {
      Item: { id: 7 },
      Index: 1,
      First: false,
      Last: true,
      Length: 2,
      Parent: { Item: 'outer', Index: 0, First: true, Last: false, Length: 3 },
    };
    expect(
      r('{{loop.index}} {{loop.index1}} {{loop.item}} {{loop.parent.item}} {{loop.parent.index1}}', { ...data, loop }),
    ).toBe('1 2 {"id":7} outer 1');
    const error = { Message: 'boom', State: 'build', ExitCode: 3, Type: 'execution' };
    expect(r('{{error.message}}/{{error.exit_code}}/{{.error.State}}/{{.error.Type}}', { ...data, error })).toBe(
      'boom/3/build/execution',
    );
  });

  it("accepts the function form in AWF's Go spelling too ({{loop.Item}}, {{error.Message}}, {{context.User}})", () => {
    const loop = { Item: 'b', Index: 1, First: false, Last: true, Length: 2, Parent: { Item: 'p', Index: 0 } };
    expect(r('{{loop.Index1}}/{{loop.Length}}={{loop.Item}} {{loop.Parent.Item}}', { ...data, loop })).toBe('2/2=b p');
    const error = { Message: 'boom', State: 'build', ExitCode: 3, Type: 'execution' };
    expect(r('{{error.Message}} in {{error.State}} ({{error.ExitCode}})', { ...data, error })).toBe(
      'boom in build (3)',
    );
    expect(r('{{context.WorkingDir}} {{context.User}} {{context.Hostname}}')).toBe('/work ada box');
  });

  it("names the Go spelling when a lower-case field fails (.states.x.output, as some of AWF's docs write it)", () => {
    expect(errorOf(() => r('{{.states.build.output}}'))).toMatchObject({
      code: 'WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE',
      message: expect.stringContaining('use .states.build.Output'),
    });
    expect(errorOf(() => r('{{.workflow.name}}')).message).toContain('use .workflow.Name');
    expect(errorOf(() => r('{{.context.working_dir}}')).message).toContain('use .context.WorkingDir');
  });

  it("gives .loop the fields of AWF's LoopData, Parent nil at the top level", () => {
    const loop = { Item: 'x', Index: 0, First: true, Last: false, Length: 3 };
    expect(
      r(
        '{{.loop.Item}} {{.loop.Index1}}/{{.loop.Length}} {{if .loop.First}}first{{end}}{{if .loop.Parent}}nested{{end}}',
        { ...data, loop },
      ),
    ).toBe('x 1/3 first');
    expect(errorOf(() => r('{{.loop.Parent.Index}}', { ...data, loop })).code).toBe(
      'WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE',
    );
  });

  it('fails on .loop and .error where they do not exist', () => {
    expect(errorOf(() => r('{{.loop.Index}}'))).toMatchObject({ code: 'WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE' });
    expect(errorOf(() => r('{{loop.index}}')).message).toContain('only defined inside a loop');
    expect(errorOf(() => r('{{error.message}}')).message).toContain('only defined in error hooks');
  });

  it('reads .states.X.JSON for output_format: json, and TokensUsed', () => {
    expect(r('{{range .states.plan.JSON.files}}[{{.}}]{{end}} {{.states.plan.TokensUsed}}')).toBe('[x.ts][y.ts] 42');
    expect(r('{{if .states.plan.JSON.ok}}ok{{end}} {{len .states.plan.JSON.files}}')).toBe('ok 2');
  });

  it("gives every state the zero fields of AWF's struct: a step without JSON is false, not an error", () => {
    expect(
      r(
        '[{{if .states.build.JSON}}json{{else}}text{{end}}] [{{.states.build.TokensUsed}}] [{{.states.build.TokensEstimated}}]',
      ),
    ).toBe('[text] [0] [false]');
  });

  it('has .workflow.Duration as Go prints a duration', () => {
    expect(
      r('{{.workflow.Duration}}', {
        ...data,
        workflow: { ...data.workflow, StartedAt: new Date(Date.now() - 65_000).toISOString() },
      }),
    ).toMatch(/^1m5(\.\d+)?s$/);
  });

  it('ranges over array inputs', () => {
    expect(r('{{range $i, $e := .inputs.items}}{{$i}}={{$e}};{{end}}')).toBe('0=a;1=b;2=c;');
    expect(r('{{join .inputs.items ","}}')).toBe('a,b,c');
  });
});

describe('AWF functions', () => {
  it('applies escape, json and trimSpace, as calls and through pipes', () => {
    expect(r('cat {{escape .inputs.file}}')).toBe(`cat 'it'\\''s a file.txt'`);
    expect(r('{{.inputs.file | escape}}')).toBe(`'it'\\''s a file.txt'`);
    expect(r('[{{trimSpace .states.build.Output}}]')).toBe('[built ok]');
    expect(r('{{json .inputs.name}}')).toBe('"world"');
    expect(r('{{.states.build.Output | trimSpace | json}}')).toBe('"built ok"');
    expect(r('{{json (trimSpace .states.build.Output)}}')).toBe('"built ok"');
    expect(r('{{escape .states.build.ExitCode}}')).toBe('0');
  });

  it('splits (trimming each part) and joins', () => {
    expect(r('{{range split "a, b ,c" ","}}<{{.}}>{{end}}')).toBe('<a><b><c>');
    expect(r('{{join (split "x;y" ";") "+"}}')).toBe('x+y');
  });

  it('reads a file with readFile through the files port, refusing directories and files over 1 MB', () => {
    const dir = mkdtempSync(join(tmpdir(), 'awf-tmpl-'));
    const rf = (t: string): string => renderTemplate(t, data, { files: new FsWorkflowFiles(), cwd: dir });
    try {
      writeFileSync(join(dir, 'a.txt'), 'hello\n');
      writeFileSync(join(dir, 'big.txt'), Buffer.alloc((1 << 20) + 1, 'x'));
      expect(rf(`{{readFile "${join(dir, 'a.txt')}" | trimSpace}}`)).toBe('hello');
      expect(rf('{{readFile "a.txt"}}')).toBe('hello\n'); // relative to the run's working directory
      expect(errorOf(() => rf(`{{readFile "${dir}"}}`)).message).toContain('path is a directory');
      expect(errorOf(() => rf(`{{readFile "${join(dir, 'big.txt')}"}}`)).message).toContain('exceeds 1MB size limit');
      expect(errorOf(() => rf(`{{readFile "${join(dir, 'none')}"}}`))).toMatchObject({
        code: 'WORKFLOW.TEMPLATE.EXECUTION_FAILED',
        message: expect.stringContaining('no such file'),
      });
      // Rendered without file access (the validator's dry renders), readFile says so instead of reading.
      expect(errorOf(() => r(`{{readFile "${join(dir, 'a.txt')}"}}`)).message).toContain('no file access');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints objects as JSON and trims around {{- -}}', () => {
    expect(r('{{.states.build.Response}}')).toBe('{"items":[1,2]}');
    expect(r('a   {{- .inputs.name -}}   b')).toBe('aworldb');
  });

  it('leaves text without actions alone and drops comments', () => {
    expect(r('no actions: $HOME {x}')).toBe('no actions: $HOME {x}');
    expect(r('a{{/* note */}}b {{- /* trimmed */ -}} c')).toBe('abc');
  });
});

describe('errors', () => {
  it('fails on an undefined reference, naming it (missingkey=error)', () => {
    expect(errorOf(() => r('{{.inputs.missing}}'))).toEqual({
      code: 'WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE',
      message: 'undefined reference .inputs.missing',
    });
    expect(errorOf(() => r('{{.states.deploy.Output}}')).message).toContain('.states.deploy');
    expect(errorOf(() => r('{{.workflow.name}}')).message).toContain('.workflow.name');
    expect(errorOf(() => r('{{.inputs.name.x}}')).message).toContain("can't evaluate field x in type string");
    expect(errorOf(() => r('{{.states.build.JSON.k}}')).message).toContain('nil pointer evaluating');
  });

  it('reports unknown functions and broken syntax at parse time', () => {
    expect(errorOf(() => Template.parse('{{upper .inputs.name}}'))).toEqual({
      code: 'WORKFLOW.TEMPLATE.SYNTAX',
      message: 'template: function "upper" not defined',
    });
    expect(errorOf(() => Template.parse('{{.inputs.name')).code).toBe('WORKFLOW.TEMPLATE.SYNTAX');
    expect(errorOf(() => Template.parse('{{if .x}}no end')).message).toContain('unexpected EOF');
  });
});

describe('references, for validate', () => {
  it('lists the paths read from the root, in both forms', () => {
    expect(
      Template.parse('{{.inputs.a}} {{escape (trimSpace .states.b.Output)}} {{env.X}} {{$.inputs.c}}').references(),
    ).toEqual([
      { path: ['inputs', 'a'], form: 'field' },
      { path: ['states', 'b', 'Output'], form: 'field' },
      { path: ['env', 'X'], form: 'function' },
      { path: ['inputs', 'c'], form: 'field' },
    ]);
  });

  it('skips fields relative to the dot of range and with, but not of if or the else branches', () => {
    const refs = Template.parse(
      '{{if .inputs.a}}{{.inputs.b}}{{end}}{{range .inputs.l}}{{.Name}}{{$.inputs.c}}{{else}}{{.inputs.d}}{{end}}{{with .states.s}}{{.Output}}{{end}}',
    ).references();
    expect(refs.map((x) => x.path.join('.'))).toEqual([
      'inputs.a',
      'inputs.b',
      'inputs.l',
      'inputs.c',
      'inputs.d',
      'states.s',
    ]);
  });
});

describe('shellEscape (AWF rules)', () => {
  it.each([
    ['', "''"],
    ['plain-word_1.txt', 'plain-word_1.txt'],
    ['two words', "'two words'"],
    ['$(rm -rf /)', "'$(rm -rf /)'"],
    ["a'b", `'a'\\''b'`],
    ['semi;colon', "'semi;colon'"],
  ])('%j → %s', (input, expected) => expect(shellEscape(input)).toBe(expected));
});
