/**
 * The engine against the behaviour Go's text/template documents (pkg.go.dev/text/template:
 * "Actions", "Arguments", "Pipelines", "Variables", "Functions", and the examples there).
 * Where awf differs on purpose (maps print as JSON, nil prints as nothing) the test says so.
 */
import { isAwfError } from '../../../domain/errors/awf-error';
import { renderTemplate, Template } from './template-engine';

const data = {
  inputs: { s: 'str', zero: '0', empty: '', list: ['a', 'b'], none: [] as string[], map: { b: 2, a: 1 }, nomap: {} },
  n: { zero: 0, one: 1, neg: -2, pi: 3.14159 },
  t: true,
  f: false,
  nil: null,
};
const r = (t: string, d: Record<string, unknown> = data): string => renderTemplate(t, d);

function failure(t: string, d: Record<string, unknown> = data): { code: string; message: string } {
  try {
    r(t, d);
  } catch (err) {
    if (isAwfError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error(`expected ${t} to fail`);
}

describe('actions', () => {
  it('if / else if / else, with Go truth (false, 0, nil, empty string, list and map are false)', () => {
    const truth = (x: string): string => r(`{{if ${x}}}T{{else}}F{{end}}`);
    expect(['.t', '.n.one', '.inputs.s', '.inputs.zero', '.inputs.list', '.inputs.map'].map(truth).join('')).toBe(
      'TTTTTT',
    );
    expect(['.f', '.n.zero', '.inputs.empty', '.inputs.none', '.inputs.nomap', '.nil'].map(truth).join('')).toBe(
      'FFFFFF',
    );
    expect(r('{{if .f}}1{{else if .n.zero}}2{{else if .t}}3{{else}}4{{end}}')).toBe('3');
  });

  it('with sets the dot; else with chains (Go 1.23)', () => {
    expect(r('{{with .inputs.s}}<{{.}}>{{end}}')).toBe('<str>');
    expect(r('{{with .inputs.empty}}x{{else with .inputs.s}}[{{.}}]{{else}}none{{end}}')).toBe('[str]');
    expect(r('{{with .f}}x{{else}}{{.inputs.s}}{{end}}')).toBe('str');
  });

  it('range over lists, maps in sorted key order, and integers; else when empty', () => {
    expect(r('{{range .inputs.list}}({{.}}){{end}}')).toBe('(a)(b)');
    expect(r('{{range $k, $v := .inputs.map}}{{$k}}={{$v}} {{end}}')).toBe('a=1 b=2 ');
    expect(r('{{range $i := 3}}{{$i}}{{end}}')).toBe('012');
    expect(r('{{range .inputs.none}}x{{else}}empty{{end}}')).toBe('empty');
    expect(r('{{range $e := .inputs.list}}{{$e}}{{end}}')).toBe('ab');
  });

  it('break and continue inside range', () => {
    expect(r('{{range $i, $e := .inputs.list}}{{if eq $i 1}}{{break}}{{end}}{{$e}}{{end}}')).toBe('a');
    expect(r('{{range .inputs.list}}{{if eq . "a"}}{{continue}}{{end}}{{.}}{{end}}')).toBe('b');
  });

  it('refuses to range over a string', () => {
    expect(failure('{{range .inputs.s}}{{end}}').message).toContain("range can't iterate over str");
  });

  it('define, template and block', () => {
    expect(r('{{define "T"}}<{{.}}>{{end}}{{template "T" .inputs.s}}{{template "T" "x"}}')).toBe('<str><x>');
    expect(r('{{block "B" .inputs.s}}[{{.}}]{{end}}')).toBe('[str]');
    expect(failure('{{template "nope"}}').message).toContain('no such template "nope"');
  });

  it('trims whitespace around {{- and -}} (the Go doc example)', () => {
    expect(r('{{23 -}} < {{- 45}}')).toBe('23<45');
  });

  it('drops comments, which must be the whole action', () => {
    expect(r('a{{/* c */}}b{{- /* c */ -}} c')).toBe('abc');
    expect(failure('{{/* c */ .x}}').message).toContain('comment ends before closing delimiter');
  });
});

describe('pipelines and variables (the Go doc examples)', () => {
  it.each([
    ['{{"\\"output\\""}}', '"output"'],
    ['{{`"output"`}}', '"output"'],
    ['{{printf "%q" "output"}}', '"output"'],
    ['{{"output" | printf "%q"}}', '"output"'],
    ['{{printf "%q" (print "out" "put")}}', '"output"'],
    ['{{"put" | printf "%s%s" "out" | printf "%q"}}', '"output"'],
    ['{{"output" | printf "%s" | printf "%q"}}', '"output"'],
    ['{{with "output"}}{{printf "%q" .}}{{end}}', '"output"'],
    ['{{with $x := "output" | printf "%q"}}{{$x}}{{end}}', '"output"'],
    ['{{with $x := "output"}}{{printf "%q" $x}}{{end}}', '"output"'],
    ['{{with $x := "output"}}{{$x | printf "%q"}}{{end}}', '"output"'],
  ])('%s → %s', (t, out) => expect(r(t)).toBe(out));

  it('declares, assigns, and scopes variables to their control structure', () => {
    expect(r('{{$x := 1}}{{if .t}}{{$x = 2}}{{end}}{{$x}}')).toBe('2');
    expect(r('{{$x := "a"}}{{range .inputs.list}}{{$x = .}}{{end}}{{$x}}')).toBe('b');
    expect(failure('{{if .t}}{{$y := 1}}{{end}}{{$y}}').message).toContain('undefined variable "$y"');
    expect(r('{{range .inputs.list}}{{$.inputs.s}}{{end}}')).toBe('strstr');
  });

  it('passes the previous result as the last argument, and refuses a literal as a later stage', () => {
    expect(r('{{.inputs.list | len}}')).toBe('2');
    expect(failure('{{.inputs.s | "x"}}').message).toContain('non executable command in pipeline stage 2');
  });

  it('refuses arguments to something that is not a function', () => {
    expect(failure('{{"a" 1}}').message).toContain("can't give argument to non-function");
    expect(failure('{{.inputs.s 1}}').message).toContain('is not a method but has arguments');
    expect(failure('{{nil}}').message).toContain('nil is not a command');
  });

  it('calls function-valued fields like Go methods', () => {
    expect(r('{{.m.Twice 21}} {{.m.Hi}}', { m: { Twice: (n: number) => n * 2, Hi: () => 'hi' } })).toBe('42 hi');
  });
});

describe('literals', () => {
  it.each([
    ['{{0x1F}}', '31'],
    ['{{1_000}}', '1000'],
    ['{{017}}', '15'],
    ['{{0o17}}', '15'],
    ['{{0b101}}', '5'],
    ['{{1e3}}', '1000'],
    ['{{-3}}', '-3'],
    ['{{.5}}', '0.5'],
    ["{{'a'}}", '97'],
    ["{{'\\n'}}", '10'],
    ['{{"tab\\there"}}', 'tab\there'],
    ['{{"\\u00e9\\x41"}}', 'éA'],
    ['{{true}}', 'true'],
  ])('%s → %s', (t, out) => expect(r(t)).toBe(out));

  it('refuses bad numbers and unterminated strings', () => {
    expect(failure('{{3k}}').code).toBe('WORKFLOW.TEMPLATE.SYNTAX');
    expect(failure('{{"abc}}').message).toContain('unterminated quoted string');
  });
});

describe('predefined functions', () => {
  it('and / or return an argument and short-circuit', () => {
    expect(r('{{and 1 0 .missing}}')).toBe('0');
    expect(r('{{or "" .inputs.s .missing}}')).toBe('str');
    expect(r('{{and 1 "x"}}|{{or 0 ""}}|{{not .f}}|{{not .inputs.s}}')).toBe('x||true|false');
  });

  it('len counts bytes of strings, elements of lists and maps', () => {
    expect(r('{{len "héllo"}} {{len .inputs.list}} {{len .inputs.map}}')).toBe('6 2 2');
    expect(failure('{{len 3}}').message).toContain('len of type int');
  });

  it('index reads lists, maps (missing key: zero value), and string bytes', () => {
    expect(r('{{index .inputs.list 1}}|{{index .inputs.map "a"}}|{{index .inputs.map "z"}}|{{index "abc" 1}}')).toBe(
      'b|1||98',
    );
    expect(r('{{index .nested 0 "k"}}', { nested: [{ k: 'v' }] })).toBe('v');
    expect(failure('{{index .inputs.list 5}}').message).toContain('index out of range: 5');
  });

  it('slice cuts strings and lists', () => {
    expect(r('{{slice "abcdef" 1 3}}|{{slice "abcdef" 2}}|{{slice .inputs.list 1}}')).toBe('bc|cdef|["b"]');
    expect(failure('{{slice "abc" 2 1}}').message).toContain('invalid slice index: 2 > 1');
  });

  it('compares basic values; eq takes several; mixed types are an error', () => {
    expect(r('{{eq 1 1}} {{eq "a" "b" "a"}} {{ne 1 2}} {{lt 1 2}} {{le 2 2}} {{gt "b" "a"}} {{ge 1 2}}')).toBe(
      'true true true true true true false',
    );
    expect(r('{{eq .nil nil}} {{eq .inputs.s nil}}')).toBe('true false');
    expect(failure('{{eq "1" 1}}').message).toContain('incompatible types for comparison');
    expect(failure('{{lt true false}}').message).toContain('invalid type for comparison');
    expect(failure('{{eq .inputs.list .inputs.list}}').message).toContain('non-comparable type');
  });

  it('print adds spaces between operands when neither is a string; println always', () => {
    expect(r('{{print 1 2}}|{{print "a" 1 "b"}}|{{println "a" 1}}')).toBe('1 2|a1b|a 1\n');
  });

  it("printf with Go verbs, widths, flags and Go's error forms", () => {
    expect(
      r('{{printf "%5.2f|%-4s|%04d|%x|%X|%o|%b|%c|%t|%v|%T|%T" 3.14159 "ab" 42 255 255 8 5 65 true "v" "s" 1.5}}'),
    ).toBe(' 3.14|ab  |0042|ff|FF|10|101|A|true|v|string|float64');
    expect(r('{{printf "%e|%+d|%.1s|%%|%x" 1234.5 3 "xyz" "hi"}}')).toBe('1.234500e+03|+3|x|%|6869');
    expect(r('{{printf "%d %d" 1}}|{{printf "%d" 1 2}}|{{printf "%d" "s"}}')).toBe(
      '1 %!d(MISSING)|1%!(EXTRA int=2)|%!d(string=s)',
    );
  });

  it('html, js and urlquery escape as Go does', () => {
    expect(r(`{{html "<a href='x'>&\\"</a>"}}`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&#34;&lt;/a&gt;');
    expect(r(`{{js "it's <b>=\\"\\n"}}`)).toBe('it\\\'s \\u003Cb\\u003E\\u003D\\"\\u000A');
    expect(r('{{urlquery "a b&c=d/é"}}')).toBe('a+b%26c%3Dd%2F%C3%A9');
  });

  it('checks the number of arguments', () => {
    expect(failure('{{not 1 2}}').message).toContain('wrong number of args for not: want 1 got 2');
    expect(failure('{{trimSpace}}').message).toContain('wrong number of args for trimSpace');
  });
});

describe('parse errors', () => {
  it.each([
    ['{{break}}', '{{break}} outside {{range}}'],
    ['{{$nope}}', 'undefined variable "$nope"'],
    ['{{else}}', 'unexpected {{else}}'],
    ['{{end}}', 'unexpected {{end}}'],
    ['{{if .t}}{{define "x"}}{{end}}{{end}}', '{{define}} not at top level'],
    ['{{(.x}}', 'unclosed'],
    ['{{.x)}}', 'unexpected right paren'],
    ['{{if}}{{end}}', 'missing value for if'],
    ['{{"x".y}}', 'unexpected . after term'],
    ['{{nofunc 1}}', 'function "nofunc" not defined'],
  ])('%s: %s', (t, message) => {
    let thrown: unknown;
    try {
      Template.parse(t);
    } catch (err) {
      thrown = err;
    }
    expect(isAwfError(thrown) && thrown.code).toBe('WORKFLOW.TEMPLATE.SYNTAX');
    expect((thrown as Error).message).toContain(message);
  });
});

describe('missing keys (missingkey=error)', () => {
  it('fails on a missing map key, a field of nil, and a field of a non-map', () => {
    expect(failure('{{.inputs.nope}}')).toMatchObject({ code: 'WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE' });
    expect(failure('{{.nil.x}}').message).toContain('nil pointer evaluating');
    expect(failure('{{.inputs.list.x}}').message).toContain("can't evaluate field x in type []interface {}");
  });

  it('deliberately differs in printing: maps and lists as JSON, nil as nothing', () => {
    expect(r('{{.inputs.map}}|{{.inputs.list}}|{{.nil}}')).toBe('{"b":2,"a":1}|["a","b"]|');
  });
});
