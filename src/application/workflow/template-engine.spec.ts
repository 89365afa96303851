import { isAwfError } from '../../domain/errors/awf-error';
import { renderTemplate, Template } from './template-engine';
import { shellEscape } from './template-functions';

const data = {
  inputs: { name: 'world', file: "it's a file.txt", empty: '' },
  states: { build: { Output: '  built ok\n', Stderr: '', ExitCode: 0, Status: 'success', Response: { items: [1, 2] } } },
  workflow: { ID: 'run-1', Name: 'demo', CurrentState: 'test', StartedAt: '2026-01-01T00:00:00Z' },
  env: { HOME: '/home/u' },
  context: { WorkingDir: '/work', User: 'ada', Hostname: 'box' },
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

describe('Go-template subset', () => {
  it('reads inputs, states, workflow and env with AWF casing', () => {
    expect(renderTemplate('hi {{.inputs.name}} from {{.workflow.Name}}/{{.workflow.ID}} in {{.env.HOME}}', data)).toBe('hi world from demo/run-1 in /home/u');
    expect(renderTemplate('code={{.states.build.ExitCode}}', data)).toBe('code=0');
    expect(renderTemplate('{{.context.User}}@{{.context.Hostname}}:{{.context.WorkingDir}}', data)).toBe('ada@box:/work');
  });

  it('accepts the namespace-function form without the leading dot', () => {
    expect(renderTemplate('{{inputs.name}}', data)).toBe('world');
  });

  it('applies escape, json and trimSpace, as calls and through pipes', () => {
    expect(renderTemplate('cat {{escape .inputs.file}}', data)).toBe(`cat 'it'\\''s a file.txt'`);
    expect(renderTemplate('{{.inputs.file | escape}}', data)).toBe(`'it'\\''s a file.txt'`);
    expect(renderTemplate('[{{trimSpace .states.build.Output}}]', data)).toBe('[built ok]');
    expect(renderTemplate('{{json .inputs.name}}', data)).toBe('"world"');
    expect(renderTemplate('{{.states.build.Output | trimSpace | json}}', data)).toBe('"built ok"');
    expect(renderTemplate('{{json (trimSpace .states.build.Output)}}', data)).toBe('"built ok"');
  });

  it('prints objects as JSON and trims around {{- -}}', () => {
    expect(renderTemplate('{{.states.build.Response}}', data)).toBe('{"items":[1,2]}');
    expect(renderTemplate('a   {{- .inputs.name -}}   b', data)).toBe('aworldb');
  });

  it('leaves text without actions alone and drops comments', () => {
    expect(renderTemplate('no actions: $HOME {x}', data)).toBe('no actions: $HOME {x}');
    expect(renderTemplate('a{{/* note */}}b', data)).toBe('ab');
  });

  it('fails on an undefined reference, naming it (missingkey=error)', () => {
    expect(errorOf(() => renderTemplate('{{.inputs.missing}}', data))).toEqual({ code: 'WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE', message: 'undefined reference .inputs.missing' });
    expect(errorOf(() => renderTemplate('{{.states.deploy.Output}}', data)).message).toContain('.states.deploy');
    expect(errorOf(() => renderTemplate('{{.workflow.name}}', data)).message).toContain('.workflow.name');
  });

  it('rejects syntax it does not support with a clear message', () => {
    expect(errorOf(() => Template.parse('{{if .inputs.name}}x{{end}}')).message).toContain('"if" is not supported');
    expect(errorOf(() => Template.parse('{{upper .inputs.name}}')).message).toContain('unknown function or namespace "upper"');
    expect(errorOf(() => Template.parse('{{.inputs.name')).code).toBe('WORKFLOW.TEMPLATE.SYNTAX');
  });

  it('lists the paths a template reads, for validate', () => {
    expect(Template.parse('{{.inputs.a}} {{escape (trimSpace .states.b.Output)}} {{env.X}}').references()).toEqual([
      ['inputs', 'a'], ['states', 'b', 'Output'], ['env', 'X'],
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
