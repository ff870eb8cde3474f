/**
 * Go's text/template parser and lexer errors (src/text/template/parse/parse_test.go parseTests and errorTests,
 * lex_test.go's error items, parse.go's messages): every failure is `template: <name>:<line>: <msg>` exactly as
 * Go prints it, the line being that of the furthest token read.
 */
import { describe, expect, it } from 'vitest';
import { GoTemplateError, goFunc, parseTemplate } from '../../src/go/template/index.js';

const funcs = { contains: goFunc('contains', ['string', 'string'], ['bool'], () => true) };

function parseError(text: string): string | null {
  try {
    parseTemplate('test', text, { funcs });
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(GoTemplateError);
    expect((e as GoTemplateError).phase).toBe('parse');
    return (e as Error).message;
  }
}

const parseErrors: [text: string, message: string][] = [
  ["{{}}", "template: test:1: missing value for command"],
  ["hello{{range", "template: test:1: unclosed action"],
  ["{{end}}", "template: test:1: unexpected {{end}}"],
  ["{{else}}", "template: test:1: unexpected {{else}}"],
  ["{{if .X}}hello{{end}}{{else}}", "template: test:1: unexpected {{else}}"],
  ["{{if .X}}1{{else}}2{{else}}3{{end}}", "template: test:1: expected end; found {{else}}"],
  ["hello{{range .x}}", "template: test:1: unexpected EOF"],
  ["hello{{range .x}}{{else}}", "template: test:1: unexpected EOF"],
  ["hello{{undefined}}", "template: test:1: function \"undefined\" not defined"],
  ["{{$x}}", "template: test:1: undefined variable \"$x\""],
  ["{{with $x := 4}}{{end}}{{$x}}", "template: test:1: undefined variable \"$x\""],
  ["{{template $v}}", "template: test:1: unexpected \"$v\" in template clause"],
  ["{{with $x.Y := 4}}{{end}}", "template: test:1: undefined variable \"$x\""],
  ["{{template .X}}", "template: test:1: unexpected \".X\" in template clause"],
  ["{{printf 3, 4}}", "template: test:1: unexpected \",\" in operand"],
  ["{{with $v, $u := 3}}{{end}}", "template: test:1: too many declarations in with"],
  ["{{range $u, $v, $w := 3}}{{end}}", "template: test:1: too many declarations in range"],
  ["{{printf (printf .).}}", "template: test:1: unexpected <.> in operand"],
  ["{{printf 3`x`}}", "template: test:1: unexpected \"`x`\" in operand"],
  ["{{printf `x`.}}", "template: test:1: unexpected <.> in operand"],
  ["{{if .X}}a{{else if .Y}}b{{end}}{{end}}", "template: test:1: unexpected {{end}}"],
  ["{{range .}}{{end}} {{break}}", "template: test:1: {{break}} outside {{range}}"],
  ["{{range .}}{{end}} {{continue}}", "template: test:1: {{continue}} outside {{range}}"],
  ["{{range .}}{{else}}{{break}}{{end}}", "template: test:1: {{break}} outside {{range}}"],
  ["{{range .}}{{else}}{{continue}}{{end}}", "template: test:1: {{continue}} outside {{range}}"],
  ["{{$x += 1}}{{$x}}", "template: test:1: undefined variable \"$x\""],
  ["{{$x ! 2}}{{$x}}", "template: test:1: undefined variable \"$x\""],
  ["{{$x % 3}}{{$x}}", "template: test:1: undefined variable \"$x\""],
  ["{{range $x := $y := 3}}{{end}}", "template: test:1: undefined variable \"$y\""],
  ["{{$x:=.}}{{$x!2}}", "template: test:1: bad character U+0021 '!'"],
  ["{{$x:=.}}{{$x+2}}", "template: test:1: bad character U+002B '+'"],
  ["{{1.E}}", "template: test:1: illegal number syntax: \"1.E\""],
  ["{{0.1.E}}", "template: test:1: unexpected . after term \"0.1\""],
  ["{{true.E}}", "template: test:1: unexpected . after term \"true\""],
  ["{{'a'.any}}", "template: test:1: unexpected . after term \"'a'\""],
  ["{{\"hello\".guys}}", "template: test:1: unexpected . after term \"\\\"hello\\\"\""],
  ["{{..E}}", "template: test:1: unexpected . after term \".\""],
  ["{{nil.E}}", "template: test:1: unexpected . after term \"nil\""],
  ["{{12|.}}", "template: test:1: non executable command in pipeline stage 2"],
  ["{{.|12|printf}}", "template: test:1: non executable command in pipeline stage 2"],
  ["{{.|printf|\"error\"}}", "template: test:1: non executable command in pipeline stage 3"],
  ["{{12|printf|'e'}}", "template: test:1: non executable command in pipeline stage 3"],
  ["{{.|true}}", "template: test:1: non executable command in pipeline stage 2"],
  ["{{'c'|nil}}", "template: test:1: non executable command in pipeline stage 2"],
  ["{{block \"foo\"}}hello{{end}}", "template: test:1: missing value for block clause"],
  ["{{\n}}", "template: test:2: missing value for command"],
  ["line1\n{{", "template: test:2: unclosed action"],
  ["line1\n{{define `x`}}line2\n{{", "template: test:3: unclosed action"],
  ["line1\n{{\"x\"\n\"y\"\n", "template: test:4: unclosed action started at test:2"],
  ["{{\n\n\n\n\n", "template: test:6: unclosed action started at test:1"],
  ["line1\n{{\nx\n}}", "template: test:3: function \"x\" not defined"],
  ["{{foo}}", "template: test:1: function \"foo\" not defined"],
  ["{{/*}}", "template: test:1: unclosed comment"],
  ["{{/*\nhello\n}}", "template: test:1: unclosed comment"],
  ["{{.X (1 2 3}}", "template: test:1: unclosed left paren"],
  ["{{.X 1 2 3 ) }}", "template: test:1: unexpected right paren"],
  ["{{(.X 1 2 3", "template: test:1: unclosed action"],
  ["{{`x`3}}", "template: test:1: unexpected \"3\" in operand"],
  ["{{a#}}", "template: test:1: bad character U+0023 '#'"],
  ["{{'a}}", "template: test:1: unterminated character constant"],
  ["{{\"a}}", "template: test:1: unterminated quoted string"],
  ["{{`a}}", "template: test:1: unterminated raw quoted string"],
  ["{{0xi}}", "template: test:1: illegal number syntax: \"0xi\""],
  ["{{define `a`}}a{{end}}{{define `a`}}b{{end}}", "template: test:1: template: multiple definition of template \"a\""],
  ["{{range .X}}", "template: test:1: unexpected EOF"],
  ["{{$x := 23}}{{with $x.y := 3}}{{$x 23}}{{end}}", "template: test:1: unexpected \":=\" in operand"],
  ["{{$a,$b,$c := 23}}", "template: test:1: too many declarations in command"],
  ["{{$a}}", "template: test:1: undefined variable \"$a\""],
  ["{{true.any}}", "template: test:1: unexpected . after term \"true\""],
  ["{{12|false}}", "template: test:1: non executable command in pipeline stage 2"],
  ["{{ ( ) }}", "template: test:1: missing value for parenthesized pipeline"],
  ["{{ $v := `\n` }} {{", "template: test:2: unclosed action"],
  ["{{range $k}}{{end}}", "template: test:1: undefined variable \"$k\""],
  ["{{range $k, $v}}{{end}}", "template: test:1: undefined variable \"$v\""],
  ["{{range $k,}}{{end}}", "template: test:1: missing value for range"],
  ["{{range $k, $v := }}{{end}}", "template: test:1: missing value for range"],
  ["{{range $k, .}}{{end}}", "template: test:1: range can only initialize variables"],
  ["{{range $k, 123 := .}}{{end}}", "template: test:1: range can only initialize variables"],
  ["{{+-2}}", "template: test:1: bad number syntax: \"+-2\""],
  ["{{0x123.}}", "template: test:1: illegal number syntax: \"0x123.\""],
  ["{{1e.}}", "template: test:1: illegal number syntax: \"1e\""],
  ["{{0xi.}}", "template: test:1: illegal number syntax: \"0xi\""],
  ["{{1+2.}}", "template: test:1: bad number syntax: \"1+2.\""],
  ["{{'x}}", "template: test:1: unterminated character constant"],
  ["{{'xx'}}", "template: test:1: malformed character constant: 'xx'"],
  ["{{'433937734937734969526500969526500'}}", "template: test:1: malformed character constant: '433937734937734969526500969526500'"],
  ["{{99999999999999999999}}", "template: test:1: integer overflow: \"99999999999999999999\""],
  ["{{\"\\q\"}}", "template: test:1: invalid syntax"],
  ["{{''}}", "template: test:1: invalid syntax"],
  ["{{range .}}{{break 20}}{{end}}", "template: test:1: unexpected \"20\" in {{break}}"],
  ["{{.X}", "template: test:1: bad character U+007D '}'"],
  ["{{.x.}}", "template: test:1: unexpected <.> in operand"],
  ["{{ 1 2 3", "template: test:1: unclosed action"],
  ["{{ .x }", "template: test:1: unexpected \"}\" in operand"],
  ["{{ toYaml . }}", "template: test:1: function \"toYaml\" not defined"],
  ["{{ .x | }}x{{ end }}", "template: test:1: unexpected {{end}}"],
  ["{{ nil := 1 }}", "template: test:1: unexpected \":=\" in operand"],
  ["{{ $x := 1 }}{{ $x.y.z := 2 }}", "template: test:1: unexpected \":=\" in operand"],
  ["{{ 1 | 2 }}", "template: test:1: non executable command in pipeline stage 2"],
  ["{{ \"a\" \"b\" | printf }}x{{ else }}", "template: test:1: unexpected {{else}}"],
  ["{{ with }}{{ end }}", "template: test:1: missing value for with"],
  ["{{ if }}{{ end }}", "template: test:1: missing value for if"],
  ["{{ range }}{{ end }}", "template: test:1: missing value for range"],
  ["{{ template }}", "template: test:1: unexpected \"}}\" in template clause"],
  ["{{ define \"x\" }}", "template: test:1: unexpected EOF"],
  ["{{ define x }}{{ end }}", "template: test:1: unexpected \"x\" in define clause"],
  ["{{ else if }}", "template: test:1: unexpected {{else}}"],
  ["{{ `unterminated", "template: test:1: unterminated raw quoted string"],
  ["{{ \"ab\\\"}}", "template: test:1: unterminated quoted string"],
  ["{{ x@ }}", "template: test:1: bad character U+0040 '@'"],
  ["{{ .a.b@ }}", "template: test:1: bad character U+0040 '@'"],
  ["{{ $x@ }}", "template: test:1: bad character U+0040 '@'"],
  ["{{ 0x }}", "template: test:1: illegal number syntax: \"0x\""],
  ["{{ 1_ }}", "template: test:1: illegal number syntax: \"1_\""],
  ["{{ 1__0 }}", "template: test:1: illegal number syntax: \"1__0\""],
  ["{{ 0b102 }}", "template: test:1: bad number syntax: \"0b102\""],
  ["{{ 08 }}", "template: test:1: integer overflow: \"08\""],
  ["{{ 1e }}", "template: test:1: illegal number syntax: \"1e\""],
  ["{{ .5.x }}", "template: test:1: unexpected . after term \".5\""],
  ["{{ (1 }}", "template: test:1: unclosed left paren"],
  ["{{ 1) }}", "template: test:1: unexpected right paren"],
  // lex_test.go error items
  ['#{{\x01}}', 'template: test:1: unrecognized character in action: U+0001'],
  ['hello-{{/*/}}-world', 'template: test:1: unclosed comment'],
  ['hello-{{/* */ }}-world', 'template: test:1: comment ends before closing delimiter'],
  ['{{$x := 3}}{{$x 2 +}}', 'template: test:1: illegal number syntax: "+"'],
  ['{{"\\x"}}', 'template: test:1: invalid syntax'],
  ['{{ 3k }}', 'template: test:1: bad number syntax: "3k"'],
  ['{{ .a | .b ( }}', 'template: test:1: unclosed left paren'],
  ['{{ :x }}', 'template: test:1: expected :='],
  ['{{ = }}', 'template: test:1: unexpected "=" in command'],
  ['{{ \u00bf }}', "template: test:1: unrecognized character in action: U+00BF '¿'"],
];

describe('parse errors (parse_test.go parseTests/errorTests, lex.go)', () => {
  it.each(parseErrors)('%j', (text, message) => {
    expect(parseError(text)).toBe(message);
  });
});

const parseOK: string[] = [
  "{{ ((((((((((1)))))))))) }}",
  '',
  '{{/*\n\n\n*/}}',
  ' \t\n',
  'some text',
  '{{.X}}',
  '{{printf}}',
  '{{$}}',
  '{{with $x := 3}}{{$x 23}}{{end}}',
  '{{$.I}}',
  '{{printf `%d` 23}}',
  '{{.X|.Y}}',
  '{{$x := .X|.Y}}',
  '{{.X (.Y .Z) (.A | .B .C) (.E)}}',
  '{{(.Y .Z).Field}}',
  '{{if .X}}hello{{end}}',
  '{{if .X}}true{{else}}false{{end}}',
  '{{if .X}}true{{else if .Y}}false{{end}}',
  '+{{if .X}}X{{else if .Y}}Y{{else if .Z}}Z{{end}}+',
  '{{range .X}}hello{{end}}',
  '{{range .X.Y.Z}}hello{{end}}',
  '{{range .X}}hello{{range .Y}}goodbye{{end}}{{end}}',
  '{{range .X}}true{{else}}false{{end}}',
  '{{range .X|.M}}true{{else}}false{{end}}',
  '{{range $x := .SI}}{{.}}{{end}}',
  '{{range $x, $y := .SI}}{{.}}{{end}}',
  '{{range .SI}}{{.}}{{break}}{{end}}',
  '{{range .SI}}{{.}}{{continue}}{{end}}',
  "{{range .SI 1 -3.2i true false 'a' nil}}{{end}}",
  '{{template `x`}}',
  '{{template `x` .Y}}',
  '{{with .X}}hello{{else with .Y}}goodbye{{end}}',
  '{{with .X}}X{{else with .Y}}Y{{else with .Z}}Z{{end}}',
  'x \r\n\t{{- 3}}',
  '{{3 -}}\n\n\ty',
  'x \r\n\t{{- 3 -}}\n\n\ty',
  'x\n{{-  3   -}}\ny',
  'x \r\n\t{{- /* hi */}}',
  '{{/* hi */ -}}\n\n\ty',
  'x \r\n\t{{- /* */ -}}\n\n\ty',
  '{{block "foo" .}}hello{{end}}',
  '{{\n"x"\n|\nprintf\n}}',
  '{{/*\nhello\n*/}}',
  '{{range .SI}}{{.}}{{ continue }}{{end}}',
  '{{$x := 0}}{{$x}}',
  '{{range $x := 0}}{{$x}}{{end}}',
  '{{ (( 1 )) }}',
  '{{ ((( 1 ))) | printf }}',
  '{{ if ((( true ))) }}YES{{ end }}',
];

describe('templates that parse (parse_test.go parseTests)', () => {
  it.each(parseOK)('%j', (text) => {
    expect(parseError(text)).toBeNull();
  });
});

describe('break and continue are functions when the function map defines them (TestKeywordsAndFuncs)', () => {
  it('parses {{break 20}} as a call of a function named break', () => {
    const withBreak = { break: goFunc('break', ['interface {}'], ['interface {}'], ([v]) => v ?? null) };
    expect(parseTemplate('t', '{{range .}}{{break 20}}{{end}}', { funcs: withBreak }).execute([1])).toBe('20');
    expect(parseError('{{range .X}}{{break 20}}{{end}}')).toBe('template: test:1: unexpected "20" in {{break}}');
  });
});

describe('parenthesised pipelines are bounded', () => {
  it('fails beyond the maximum expression depth', () => {
    const deep = `{{ ${'('.repeat(1001)}1${')'.repeat(1001)} }}`;
    expect(parseError(deep)).toBe('template: test:1: max expression depth exceeded');
  });
});
