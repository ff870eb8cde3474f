/**
 * Go's text/template execution tests (src/text/template/exec_test.go, Go 1.24), transcribed with their data.
 * Cases that need Go types the value model has no use for (channels, complex numbers, unsafe pointers, int-keyed
 * maps, typed nil pointers) are left out.
 */
import { describe, expect, it } from 'vitest';
import { GoNumber, type GoValue, typedMap, typedSlice } from '../../src/go/template/index.js';
import { Struct, intMap, ints, run, tVal, testFuncs, uint } from './fixtures.js';

type ExecCase = [name: string, input: string, output: string, data: GoValue, ok: boolean];

const bigInt = '0x7fffffffffffffff';
const bigUint = '0x8000000000000000';

const rangeTestInt = '{{range $v := .}}{{printf "%T%d" $v $v}}{{end}}';
const rangeTestData = (t: string): string => [0, 1, 2, 3, 4].map((i) => `${t}${i}`).join('');
const rangeInt = (t: string, n: number): GoValue => (t === 'int' ? BigInt(n) : new GoNumber(t as GoNumber['type'], BigInt(n)));

const execTests: ExecCase[] = [
  // Trivial cases.
  ['empty', '', '', null, true],
  ['text', 'some text', 'some text', null, true],
  ['nil action', '{{nil}}', '', null, false],

  // Ideal constants.
  ['ideal int', '{{typeOf 3}}', 'int', 0n, true],
  ['ideal float', '{{typeOf 1.0}}', 'float64', 0n, true],
  ['ideal exp float', '{{typeOf 1e1}}', 'float64', 0n, true],
  ['ideal int', `{{typeOf ${bigInt}}}`, 'int', 0n, true],
  ['ideal too big', `{{typeOf ${bigUint}}}`, '', 0n, false],
  ['ideal nil without type', '{{nil}}', '', 0n, false],

  // Fields of structs.
  ['.X', '-{{.X}}-', '-x-', tVal, true],
  ['.U.V', '-{{.U.V}}-', '-v-', tVal, true],
  ['.unexported', '{{.unexported}}', '', tVal, false],

  // Fields on maps.
  ['map .one', '{{.MSI.one}}', '1', tVal, true],
  ['map .two', '{{.MSI.two}}', '2', tVal, true],
  ['map .NO', '{{.MSI.NO}}', '<no value>', tVal, true],
  ['map .one interface', '{{.MXI.one}}', '1', tVal, true],
  ['map .WRONG args', '{{.MSI.one 1}}', '', tVal, false],

  // Dots of all kinds to test basic evaluation.
  ['dot int', '<{{.}}>', '<13>', 13n, true],
  ['dot uint', '<{{.}}>', '<14>', uint('uint', 14), true],
  ['dot float', '<{{.}}>', '<15.1>', 15.1, true],
  ['dot bool', '<{{.}}>', '<true>', true, true],
  ['dot string', '<{{.}}>', '<hello>', 'hello', true],
  ['dot slice', '<{{.}}>', '<[-1 -2 -3]>', ints(-1, -2, -3), true],
  ['dot map', '<{{.}}>', '<map[two:22]>', intMap({ two: 22 }), true],

  // Variables.
  ['$ int', '{{$}}', '123', 123n, true],
  ['$.I', '{{$.I}}', '17', tVal, true],
  ['$.U.V', '{{$.U.V}}', 'v', tVal, true],
  ['declare in action', '{{$x := $.U.V}}{{$x}}', 'v', tVal, true],
  ['simple assignment', '{{$x := 2}}{{$x = 3}}{{$x}}', '3', tVal, true],
  ['nested assignment', '{{$x := 2}}{{if true}}{{$x = 3}}{{end}}{{$x}}', '3', tVal, true],
  [
    'nested assignment changes the last declaration',
    '{{$x := 1}}{{if true}}{{$x := 2}}{{if true}}{{$x = 3}}{{end}}{{end}}{{$x}}',
    '1',
    tVal,
    true,
  ],

  // Type with String method.
  ['V{6666}.String()', '-{{.V0}}-', '-<6666>-', tVal, true],
  ['&V{7777}.String()', '-{{.V1}}-', '-<7777>-', tVal, true],
  ['(*V)(nil).String()', '-{{.V2}}-', '-nilV-', tVal, true],

  // Type with Error method.
  ['W{888}.Error()', '-{{.W0}}-', '-[888]-', tVal, true],
  ['&W{999}.Error()', '-{{.W1}}-', '-[999]-', tVal, true],
  ['(*W)(nil).Error()', '-{{.W2}}-', '-nilW-', tVal, true],

  // Empty interfaces holding values.
  ['empty nil', '{{.Empty0}}', '<no value>', tVal, true],
  ['empty with int', '{{.Empty1}}', '3', tVal, true],
  ['empty with string', '{{.Empty2}}', 'empty2', tVal, true],
  ['empty with slice', '{{.Empty3}}', '[7 8]', tVal, true],
  ['empty with struct', '{{.Empty4}}', '{UinEmpty}', tVal, true],
  ['empty with struct, field', '{{.Empty4.V}}', 'UinEmpty', tVal, true],

  // Edge cases with <no value> with an interface value.
  ['field on interface', '{{.foo}}', '<no value>', null, true],
  ['field on parenthesized interface', '{{(.).foo}}', '<no value>', null, true],

  // Issue 31810: Parenthesized first element of pipeline with arguments.
  ['unparenthesized non-function', '{{1 2}}', '', null, false],
  ['parenthesized non-function', '{{(1) 2}}', '', null, false],
  ['parenthesized non-function with no args', '{{(1)}}', '1', null, true],

  // Method calls.
  ['.Method0', '-{{.Method0}}-', '-M0-', tVal, true],
  ['.Method1(1234)', '-{{.Method1 1234}}-', '-1234-', tVal, true],
  ['.Method1(.I)', '-{{.Method1 .I}}-', '-17-', tVal, true],
  ['.Method2(3, .X)', '-{{.Method2 3 .X}}-', '-Method2: 3 x-', tVal, true],
  ['.Method2(.U16, `str`)', '-{{.Method2 .U16 `str`}}-', '-Method2: 16 str-', tVal, true],
  ['.Method2(.U16, $x)', '{{if $x := .X}}-{{.Method2 .U16 $x}}{{end}}-', '-Method2: 16 x-', tVal, true],
  ['.Method3(nil constant)', '-{{.Method3 nil}}-', '-Method3: <nil>-', tVal, true],
  ['.Method3(nil value)', '-{{.Method3 .MXI.unset}}-', '-Method3: <nil>-', tVal, true],
  ['method on var', '{{if $x := .}}-{{$x.Method2 .U16 $x.X}}{{end}}-', '-Method2: 16 x-', tVal, true],
  [
    'method on chained var',
    '{{range .MSIone}}{{if $.U.TrueFalse $.True}}{{$.U.TrueFalse $.True}}{{else}}WRONG{{end}}{{end}}',
    'true',
    tVal,
    true,
  ],
  [
    'chained method',
    '{{range .MSIone}}{{if $.GetU.TrueFalse $.True}}{{$.U.TrueFalse $.True}}{{else}}WRONG{{end}}{{end}}',
    'true',
    tVal,
    true,
  ],
  ['chained method on variable', '{{with $x := .}}{{with .SI}}{{$.GetU.TrueFalse $.True}}{{end}}{{end}}', 'true', tVal, true],
  ['.NilOKFunc nil', '{{call .NilOKFunc nil}}', 'true', tVal, true],

  // Function call builtin.
  ['.BinaryFunc', '{{call .BinaryFunc `1` `2`}}', '[1=2]', tVal, true],
  ['.VariadicFunc0', '{{call .VariadicFunc}}', '<>', tVal, true],
  ['.VariadicFunc2', '{{call .VariadicFunc `he` `llo`}}', '<he+llo>', tVal, true],
  ['.VariadicFuncInt', '{{call .VariadicFuncInt 33 `he` `llo`}}', '33=<he+llo>', tVal, true],
  ['if .BinaryFunc call', '{{ if .BinaryFunc}}{{call .BinaryFunc `1` `2`}}{{end}}', '[1=2]', tVal, true],
  ['if not .BinaryFunc call', '{{ if not .BinaryFunc}}{{call .BinaryFunc `1` `2`}}{{else}}No{{end}}', 'No', tVal, true],
  [
    'Interface Call',
    '{{stringer .S}}',
    'foozle',
    new Map<string, GoValue>([['S', new Struct('*bytes.Buffer', {}, {}, 'foozle')]]),
    true,
  ],
  ['.ErrFunc', '{{call .ErrFunc}}', 'bla', tVal, true],
  ['call nil', '{{call nil}}', '', tVal, false],
  ['empty call', '{{call}}', '', tVal, false],
  ['empty call after pipe valid', '{{.ErrFunc | call}}', 'bla', tVal, true],
  ['empty call after pipe invalid', '{{1 | call}}', '', tVal, false],

  // Erroneous function calls (check args).
  ['.BinaryFuncTooFew', '{{call .BinaryFunc `1`}}', '', tVal, false],
  ['.BinaryFuncTooMany', '{{call .BinaryFunc `1` `2` `3`}}', '', tVal, false],
  ['.BinaryFuncBad0', '{{call .BinaryFunc 1 3}}', '', tVal, false],
  ['.BinaryFuncBad1', '{{call .BinaryFunc `1` 3}}', '', tVal, false],
  ['.VariadicFuncBad0', '{{call .VariadicFunc 3}}', '', tVal, false],
  ['.VariadicFuncIntBad0', '{{call .VariadicFuncInt}}', '', tVal, false],
  ['.VariadicFuncIntBad`', '{{call .VariadicFuncInt `x`}}', '', tVal, false],
  ['.VariadicFuncNilBad', '{{call .VariadicFunc nil}}', '', tVal, false],

  // Pipelines.
  ['pipeline', '-{{.Method0 | .Method2 .U16}}-', '-Method2: 16 M0-', tVal, true],
  ['pipeline func', '-{{call .VariadicFunc `llo` | call .VariadicFunc `he` }}-', '-<he+<llo>>-', tVal, true],

  // Nil values aren't missing arguments.
  ['nil pipeline', '{{ .Empty0 | call .NilOKFunc }}', 'true', tVal, true],
  ['nil call arg', '{{ call .NilOKFunc .Empty0 }}', 'true', tVal, true],
  ['bad nil pipeline', '{{ .Empty0 | .VariadicFunc }}', '', tVal, false],

  // Parenthesized expressions.
  ['parens in pipeline', '{{printf `%d %d %d` (1) (2 | add 3) (add 4 (add 5 6))}}', '1 5 15', tVal, true],

  // Parenthesized expressions with field accesses.
  ['parens: $ in paren', '{{($).X}}', 'x', tVal, true],
  ['parens: $.GetU in paren', '{{($.GetU).V}}', 'v', tVal, true],
  ['parens: $ in paren in pipe', '{{($ | echo).X}}', 'x', tVal, true],
  ['parens: spaces and args', '{{(makemap "up" "down" "left" "right").left}}', 'right', tVal, true],

  // If.
  ['if true', '{{if true}}TRUE{{end}}', 'TRUE', tVal, true],
  ['if false', '{{if false}}TRUE{{else}}FALSE{{end}}', 'FALSE', tVal, true],
  ['if nil', '{{if nil}}TRUE{{end}}', '', tVal, false],
  ['if 1', '{{if 1}}NON-ZERO{{else}}ZERO{{end}}', 'NON-ZERO', tVal, true],
  ['if 0', '{{if 0}}NON-ZERO{{else}}ZERO{{end}}', 'ZERO', tVal, true],
  ['if 1.5', '{{if 1.5}}NON-ZERO{{else}}ZERO{{end}}', 'NON-ZERO', tVal, true],
  ['if 0.0', '{{if .FloatZero}}NON-ZERO{{else}}ZERO{{end}}', 'ZERO', tVal, true],
  ['if emptystring', '{{if ``}}NON-EMPTY{{else}}EMPTY{{end}}', 'EMPTY', tVal, true],
  ['if string', '{{if `notempty`}}NON-EMPTY{{else}}EMPTY{{end}}', 'NON-EMPTY', tVal, true],
  ['if emptyslice', '{{if .SIEmpty}}NON-EMPTY{{else}}EMPTY{{end}}', 'EMPTY', tVal, true],
  ['if slice', '{{if .SI}}NON-EMPTY{{else}}EMPTY{{end}}', 'NON-EMPTY', tVal, true],
  ['if emptymap', '{{if .MSIEmpty}}NON-EMPTY{{else}}EMPTY{{end}}', 'EMPTY', tVal, true],
  ['if map', '{{if .MSI}}NON-EMPTY{{else}}EMPTY{{end}}', 'NON-EMPTY', tVal, true],
  ['if map unset', '{{if .MXI.none}}NON-ZERO{{else}}ZERO{{end}}', 'ZERO', tVal, true],
  ['if map not unset', '{{if not .MXI.none}}ZERO{{else}}NON-ZERO{{end}}', 'ZERO', tVal, true],
  ['if $x with $y int', '{{if $x := true}}{{with $y := .I}}{{$x}},{{$y}}{{end}}{{end}}', 'true,17', tVal, true],
  ['if $x with $x int', '{{if $x := true}}{{with $x := .I}}{{$x}},{{end}}{{$x}}{{end}}', '17,true', tVal, true],
  ['if else if', '{{if false}}FALSE{{else if true}}TRUE{{end}}', 'TRUE', tVal, true],
  ['if else chain', '{{if eq 1 3}}1{{else if eq 2 3}}2{{else if eq 3 3}}3{{end}}', '3', tVal, true],

  // Print etc.
  ['print', '{{print "hello, print"}}', 'hello, print', tVal, true],
  ['print 123', '{{print 1 2 3}}', '1 2 3', tVal, true],
  ['print nil', '{{print nil}}', '<nil>', tVal, true],
  ['println', '{{println 1 2 3}}', '1 2 3\n', tVal, true],
  ['printf int', '{{printf "%04x" 127}}', '007f', tVal, true],
  ['printf float', '{{printf "%g" 3.5}}', '3.5', tVal, true],
  ['printf string', '{{printf "%s" "hello"}}', 'hello', tVal, true],
  ['printf function', '{{printf "%#q" zeroArgs}}', '`zeroArgs`', tVal, true],
  ['printf field', '{{printf "%s" .U.V}}', 'v', tVal, true],
  ['printf method', '{{printf "%s" .Method0}}', 'M0', tVal, true],
  ['printf dot', '{{with .I}}{{printf "%d" .}}{{end}}', '17', tVal, true],
  ['printf var', '{{with $x := .I}}{{printf "%d" $x}}{{end}}', '17', tVal, true],

  // HTML.
  ['html', '{{html "<script>alert(\\"XSS\\");</script>"}}', '&lt;script&gt;alert(&#34;XSS&#34;);&lt;/script&gt;', null, true],
  [
    'html pipeline',
    '{{printf "<script>alert(\\"XSS\\");</script>" | html}}',
    '&lt;script&gt;alert(&#34;XSS&#34;);&lt;/script&gt;',
    null,
    true,
  ],
  ['html untyped nil', '{{html .Empty0}}', '&lt;no value&gt;', tVal, true],

  // JavaScript.
  ['js', '{{js .}}', "It\\'d be nice.", "It'd be nice.", true],

  // URL query.
  ['urlquery', '{{"http://www.example.org/"|urlquery}}', 'http%3A%2F%2Fwww.example.org%2F', null, true],

  // Booleans.
  ['not', '{{not true}} {{not false}}', 'false true', null, true],
  ['and', '{{and false 0}} {{and 1 0}} {{and 0 true}} {{and 1 1}}', 'false 0 0 1', null, true],
  ['or', '{{or 0 0}} {{or 1 0}} {{or 0 true}} {{or 1 1}}', '0 1 true 1', null, true],
  ['or short-circuit', '{{or 0 1 (die)}}', '1', null, true],
  ['and short-circuit', '{{and 1 0 (die)}}', '0', null, true],
  ['or short-circuit2', '{{or 0 0 (die)}}', '', null, false],
  ['and short-circuit2', '{{and 1 1 (die)}}', '', null, false],
  ['and pipe-true', '{{1 | and 1}}', '1', null, true],
  ['and pipe-false', '{{0 | and 1}}', '0', null, true],
  ['or pipe-true', '{{1 | or 0}}', '1', null, true],
  ['or pipe-false', '{{0 | or 0}}', '0', null, true],
  ['and undef', '{{and 1 .Unknown}}', '<no value>', null, true],
  ['or undef', '{{or 0 .Unknown}}', '<no value>', null, true],
  ['boolean if', '{{if and true 1 `hi`}}TRUE{{else}}FALSE{{end}}', 'TRUE', tVal, true],
  ['boolean if not', '{{if and true 1 `hi` | not}}TRUE{{else}}FALSE{{end}}', 'FALSE', null, true],
  ['boolean if pipe', '{{if true | not | and 1}}TRUE{{else}}FALSE{{end}}', 'FALSE', null, true],

  // Indexing.
  ['slice[0]', '{{index .SI 0}}', '3', tVal, true],
  ['slice[1]', '{{index .SI 1}}', '4', tVal, true],
  ['slice[HUGE]', '{{index .SI 10}}', '', tVal, false],
  ['slice[WRONG]', '{{index .SI `hello`}}', '', tVal, false],
  ['slice[nil]', '{{index .SI nil}}', '', tVal, false],
  ['map[one]', '{{index .MSI `one`}}', '1', tVal, true],
  ['map[two]', '{{index .MSI `two`}}', '2', tVal, true],
  ['map[NO]', '{{index .MSI `XXX`}}', '0', tVal, true],
  ['map[nil]', '{{index .MSI nil}}', '', tVal, false],
  ['map[``]', '{{index .MSI ``}}', '0', tVal, true],
  ['map[WRONG]', '{{index .MSI 10}}', '', tVal, false],
  ['double index', '{{index .SMSI 1 `eleven`}}', '11', tVal, true],
  ['nil[1]', '{{index nil 1}}', '', tVal, false],
  ['index of an interface field', '{{index .Empty3 0}}', '7', tVal, true],

  // Slicing.
  ['slice[:]', '{{slice .SI}}', '[3 4 5]', tVal, true],
  ['slice[1:]', '{{slice .SI 1}}', '[4 5]', tVal, true],
  ['slice[1:2]', '{{slice .SI 1 2}}', '[4]', tVal, true],
  ['slice[-1:]', '{{slice .SI -1}}', '', tVal, false],
  ['slice[1:-2]', '{{slice .SI 1 -2}}', '', tVal, false],
  ['slice[1:2:-1]', '{{slice .SI 1 2 -1}}', '', tVal, false],
  ['slice[2:1]', '{{slice .SI 2 1}}', '', tVal, false],
  ['slice[2:2:1]', '{{slice .SI 2 2 1}}', '', tVal, false],
  ['out of range', '{{slice .SI 4 5}}', '', tVal, false],
  ['out of range', '{{slice .SI 2 2 5}}', '', tVal, false],
  ['array[:]', '{{slice .AI}}', '[3 4 5]', tVal, true],
  ['array[1:]', '{{slice .AI 1}}', '[4 5]', tVal, true],
  ['array[1:2]', '{{slice .AI 1 2}}', '[4]', tVal, true],
  ['string[:]', '{{slice .S}}', 'xyz', tVal, true],
  ['string[0:1]', '{{slice .S 0 1}}', 'x', tVal, true],
  ['string[1:]', '{{slice .S 1}}', 'yz', tVal, true],
  ['string[1:2]', '{{slice .S 1 2}}', 'y', tVal, true],
  ['out of range', '{{slice .S 1 5}}', '', tVal, false],
  ['3-index slice of string', '{{slice .S 1 2 2}}', '', tVal, false],
  ['slice of an interface field', '{{slice .Empty3 0 1}}', '[7]', tVal, true],

  // Len.
  ['slice', '{{len .SI}}', '3', tVal, true],
  ['map', '{{len .MSI }}', '3', tVal, true],
  ['len of int', '{{len 3}}', '', tVal, false],
  ['len of nothing', '{{len .Empty0}}', '', tVal, false],
  ['len of an interface field', '{{len .Empty3}}', '2', tVal, true],

  // With.
  ['with true', '{{with true}}{{.}}{{end}}', 'true', tVal, true],
  ['with false', '{{with false}}{{.}}{{else}}FALSE{{end}}', 'FALSE', tVal, true],
  ['with 1', '{{with 1}}{{.}}{{else}}ZERO{{end}}', '1', tVal, true],
  ['with 0', '{{with 0}}{{.}}{{else}}ZERO{{end}}', 'ZERO', tVal, true],
  ['with 1.5', '{{with 1.5}}{{.}}{{else}}ZERO{{end}}', '1.5', tVal, true],
  ['with 0.0', '{{with .FloatZero}}{{.}}{{else}}ZERO{{end}}', 'ZERO', tVal, true],
  ['with emptystring', '{{with ``}}{{.}}{{else}}EMPTY{{end}}', 'EMPTY', tVal, true],
  ['with string', '{{with `notempty`}}{{.}}{{else}}EMPTY{{end}}', 'notempty', tVal, true],
  ['with emptyslice', '{{with .SIEmpty}}{{.}}{{else}}EMPTY{{end}}', 'EMPTY', tVal, true],
  ['with slice', '{{with .SI}}{{.}}{{else}}EMPTY{{end}}', '[3 4 5]', tVal, true],
  ['with emptymap', '{{with .MSIEmpty}}{{.}}{{else}}EMPTY{{end}}', 'EMPTY', tVal, true],
  ['with map', '{{with .MSIone}}{{.}}{{else}}EMPTY{{end}}', 'map[one:1]', tVal, true],
  ['with empty interface, struct field', '{{with .Empty4}}{{.V}}{{end}}', 'UinEmpty', tVal, true],
  ['with $x int', '{{with $x := .I}}{{$x}}{{end}}', '17', tVal, true],
  ['with $x struct.U.V', '{{with $x := $}}{{$x.U.V}}{{end}}', 'v', tVal, true],
  ['with variable and action', '{{with $x := $}}{{$y := $.U.V}}{{$y}}{{end}}', 'v', tVal, true],
  ['with else with', '{{with 0}}{{.}}{{else with true}}{{.}}{{end}}', 'true', tVal, true],
  ['with else with chain', '{{with 0}}{{.}}{{else with false}}{{.}}{{else with `notempty`}}{{.}}{{end}}', 'notempty', tVal, true],

  // Range.
  ['range []int', '{{range .SI}}-{{.}}-{{end}}', '-3--4--5-', tVal, true],
  ['range empty no else', '{{range .SIEmpty}}-{{.}}-{{end}}', '', tVal, true],
  ['range []int else', '{{range .SI}}-{{.}}-{{else}}EMPTY{{end}}', '-3--4--5-', tVal, true],
  ['range empty else', '{{range .SIEmpty}}-{{.}}-{{else}}EMPTY{{end}}', 'EMPTY', tVal, true],
  ['range []int break else', '{{range .SI}}-{{.}}-{{break}}NOTREACHED{{else}}EMPTY{{end}}', '-3-', tVal, true],
  ['range []int continue else', '{{range .SI}}-{{.}}-{{continue}}NOTREACHED{{else}}EMPTY{{end}}', '-3--4--5-', tVal, true],
  ['range []bool', '{{range .SB}}-{{.}}-{{end}}', '-true--false-', tVal, true],
  ['range []int method', '{{range .SI | .MAdd .I}}-{{.}}-{{end}}', '-20--21--22-', tVal, true],
  ['range map', '{{range .MSI}}-{{.}}-{{end}}', '-1--3--2-', tVal, true],
  ['range empty map no else', '{{range .MSIEmpty}}-{{.}}-{{end}}', '', tVal, true],
  ['range map else', '{{range .MSI}}-{{.}}-{{else}}EMPTY{{end}}', '-1--3--2-', tVal, true],
  ['range empty map else', '{{range .MSIEmpty}}-{{.}}-{{else}}EMPTY{{end}}', 'EMPTY', tVal, true],
  ['range empty interface', '{{range .Empty3}}-{{.}}-{{else}}EMPTY{{end}}', '-7--8-', tVal, true],
  ['range empty nil', '{{range .Empty0}}-{{.}}-{{end}}', '', tVal, true],
  ['range $x SI', '{{range $x := .SI}}<{{$x}}>{{end}}', '<3><4><5>', tVal, true],
  ['range $x $y SI', '{{range $x, $y := .SI}}<{{$x}}={{$y}}>{{end}}', '<0=3><1=4><2=5>', tVal, true],
  ['range $x MSIone', '{{range $x := .MSIone}}<{{$x}}>{{end}}', '<1>', tVal, true],
  ['range $x $y MSIone', '{{range $x, $y := .MSIone}}<{{$x}}={{$y}}>{{end}}', '<one=1>', tVal, true],
  ['declare in range', '{{range $x := .SI}}<{{$foo:=$x}}{{$x}}>{{end}}', '<3><4><5>', tVal, true],
  ...(['int8', 'int16', 'int32', 'int64', 'int', 'uint8', 'uint16', 'uint32', 'uint64', 'uint', 'uintptr'].map(
    (t): ExecCase => [`range ${t}`, rangeTestInt, rangeTestData(t), rangeInt(t, 5), true],
  )),
  ['range uintptr(0)', '{{range $v := .}}{{print $v}}{{else}}empty{{end}}', 'empty', uint('uintptr', 0), true],
  ['range 5', '{{range $v := 5}}{{printf "%T%d" $v $v}}{{end}}', rangeTestData('int'), null, true],

  // Cute examples.
  ['or as if true', '{{or .SI "slice is empty"}}', '[3 4 5]', tVal, true],
  ['or as if false', '{{or .SIEmpty "slice is empty"}}', 'slice is empty', tVal, true],

  // Error handling.
  ['error method, error', '{{.MyError true}}', '', tVal, false],
  ['error method, no error', '{{.MyError false}}', 'false', tVal, true],

  // Numbers.
  ['decimal', '{{print 1234}}', '1234', tVal, true],
  ['decimal _', '{{print 12_34}}', '1234', tVal, true],
  ['binary', '{{print 0b101}}', '5', tVal, true],
  ['binary _', '{{print 0b_1_0_1}}', '5', tVal, true],
  ['BINARY', '{{print 0B101}}', '5', tVal, true],
  ['octal0', '{{print 0377}}', '255', tVal, true],
  ['octal', '{{print 0o377}}', '255', tVal, true],
  ['octal _', '{{print 0o_3_7_7}}', '255', tVal, true],
  ['OCTAL', '{{print 0O377}}', '255', tVal, true],
  ['hex', '{{print 0x123}}', '291', tVal, true],
  ['hex _', '{{print 0x1_23}}', '291', tVal, true],
  ['HEX', '{{print 0X123ABC}}', '1194684', tVal, true],
  ['float', '{{print 123.4}}', '123.4', tVal, true],
  ['float _', '{{print 0_0_1_2_3.4}}', '123.4', tVal, true],
  ['hex float', '{{print +0x1.ep+2}}', '7.5', tVal, true],
  ['hex float _', '{{print +0x_1.e_0p+0_2}}', '7.5', tVal, true],
  ['HEX float', '{{print +0X1.EP+2}}', '7.5', tVal, true],
  ['print multi', '{{print 1_2_3_4 7.5_00_00_00}}', '1234 7.5', tVal, true],
  ['print multi2', '{{print 1234 0x0_1.e_0p+02}}', '1234 7.5', tVal, true],

  // Fixed bugs.
  ['bug0', '{{range .MSIone}}{{if $.Method1 .}}X{{end}}{{end}}', 'X', tVal, true],
  ['bug3', '{{with $}}{{.Method0}}{{end}}', 'M0', tVal, true],
  ['bug4', '{{if .Empty0}}non-nil{{else}}nil{{end}}', 'nil', tVal, true],
  ['bug5', '{{.Str}}', 'foozle', tVal, true],
  ['bug5a', '{{.Err}}', 'erroozle', tVal, true],
  ['bug7a', '{{3 2}}', '', tVal, false],
  ['bug7b', '{{$x := 1}}{{$x 2}}', '', tVal, false],
  ['bug7c', '{{$x := 1}}{{3 | $x}}', '', tVal, false],
  ['bug8a', '{{3|oneArg}}', '', tVal, false],
  ['bug8b', '{{4|dddArg 3}}', '', tVal, false],
  ['bug9', '{{.cause}}', 'neglect', typedMap(new Map<string, GoValue>([['cause', 'neglect']]), 'string'), true],
  ['bug10', '{{mapOfThree.three}}-{{(mapOfThree).three}}', '3-3', 0n, true],
  ['bug12xe', '{{printf `%T` 0xef}}', 'int', tVal, true],
  ['bug12xE', '{{printf `%T` 0xEE}}', 'int', tVal, true],
  ['bug12Xe', '{{printf `%T` 0Xef}}', 'int', tVal, true],
  ['bug12XE', '{{printf `%T` 0XEE}}', 'int', tVal, true],
  ['bug13', '{{print (.Copy).I}}', '17', tVal, true],
  ['bug14a', '{{(nil).True}}', '', tVal, false],
  ['bug14b', '{{$x := nil}}{{$x.anything}}', '', tVal, false],
  ['bug14c', '{{$x := (1.0)}}{{$y := ("hello")}}{{$x.anything}}{{$y.true}}', '', tVal, false],
  ['bug15', '{{valueString returnInt}}', '', tVal, false],
  ['bug16a', '{{true|printf}}', '', tVal, false],
  ['bug16b', '{{1|printf}}', '', tVal, false],
  ['bug16c', '{{1.1|printf}}', '', tVal, false],
  ['bug16d', "{{'x'|printf}}", '', tVal, false],
  ['bug16f', '{{true|twoArgs "xxx"}}', '', tVal, false],
  ['bug16g', '{{"aaa" |twoArgs "bbb"}}', 'twoArgs=bbbaaa', tVal, true],
  ['bug16h', '{{1|oneArg}}', '', tVal, false],
  ['bug16i', '{{"aaa"|oneArg}}', 'oneArg=aaa', tVal, true],
  ['bug16k', '{{"aaa"|printf }}', 'aaa', tVal, true],
  ['bug18a', "{{eq . '.'}}", 'true', new GoNumber('int32', 46n), true],
  ['bug18b', "{{eq . 'e'}}", 'true', new GoNumber('int32', 101n), true],
  ['bug18c', "{{eq . 'P'}}", 'true', new GoNumber('int32', 80n), true],
  ['issue56490', '{{$i := 0}}{{$x := 0}}{{range $i = .AI}}{{end}}{{$i}}', '5', tVal, true],
  ['issue60801', '{{$k := 0}}{{$v := 0}}{{range $k, $v = .AI}}{{$k}}={{$v}} {{end}}', '0=3 1=4 2=5 ', tVal, true],
];

describe('text/template execution (exec_test.go execTests)', () => {
  it.each(execTests)('%s: %s', (_name, input, output, data, ok) => {
    const got = run(input, data, { funcs: testFuncs });
    if (ok) {
      expect(got).toEqual({ out: output });
    } else {
      expect(got).toHaveProperty('err');
    }
  });
});

const cmpData = new Struct('*struct', {
  Uthree: uint('uint', 3),
  Ufour: uint('uint', 4),
  NegOne: -1n,
  Three: 3n,
  NonNilMap: typedMap(new Map(), 'int'),
  Map: null,
});

const cmpTests: [expr: string, truth: string, ok: boolean][] = [
  ['eq true true', 'true', true],
  ['eq true false', 'false', true],
  ['eq 1.5 1.5', 'true', true],
  ['eq 1.5 2.5', 'false', true],
  ['eq 1 1', 'true', true],
  ['eq 1 2', 'false', true],
  ['eq `xy` `xy`', 'true', true],
  ['eq `xy` `xyz`', 'false', true],
  ['eq .Uthree .Uthree', 'true', true],
  ['eq .Uthree .Ufour', 'false', true],
  ['eq 3 4 5 6 3', 'true', true],
  ['eq 3 4 5 6 7', 'false', true],
  ['ne true true', 'false', true],
  ['ne true false', 'true', true],
  ['ne 1.5 1.5', 'false', true],
  ['ne 1.5 2.5', 'true', true],
  ['ne 1 1', 'false', true],
  ['ne 1 2', 'true', true],
  ['ne `xy` `xy`', 'false', true],
  ['ne `xy` `xyz`', 'true', true],
  ['ne .Uthree .Uthree', 'false', true],
  ['ne .Uthree .Ufour', 'true', true],
  ['lt 1.5 1.5', 'false', true],
  ['lt 1.5 2.5', 'true', true],
  ['lt 1 1', 'false', true],
  ['lt 1 2', 'true', true],
  ['lt `xy` `xy`', 'false', true],
  ['lt `xy` `xyz`', 'true', true],
  ['lt .Uthree .Uthree', 'false', true],
  ['lt .Uthree .Ufour', 'true', true],
  ['le 1.5 1.5', 'true', true],
  ['le 1.5 2.5', 'true', true],
  ['le 2.5 1.5', 'false', true],
  ['le 1 1', 'true', true],
  ['le 1 2', 'true', true],
  ['le 2 1', 'false', true],
  ['le `xy` `xy`', 'true', true],
  ['le `xy` `xyz`', 'true', true],
  ['le `xyz` `xy`', 'false', true],
  ['le .Uthree .Uthree', 'true', true],
  ['le .Uthree .Ufour', 'true', true],
  ['le .Ufour .Uthree', 'false', true],
  ['gt 1.5 1.5', 'false', true],
  ['gt 1.5 2.5', 'false', true],
  ['gt 1 1', 'false', true],
  ['gt 2 1', 'true', true],
  ['gt 1 2', 'false', true],
  ['gt `xy` `xy`', 'false', true],
  ['gt `xy` `xyz`', 'false', true],
  ['gt .Uthree .Uthree', 'false', true],
  ['gt .Uthree .Ufour', 'false', true],
  ['gt .Ufour .Uthree', 'true', true],
  ['ge 1.5 1.5', 'true', true],
  ['ge 1.5 2.5', 'false', true],
  ['ge 2.5 1.5', 'true', true],
  ['ge 1 1', 'true', true],
  ['ge 1 2', 'false', true],
  ['ge 2 1', 'true', true],
  ['ge `xy` `xy`', 'true', true],
  ['ge `xy` `xyz`', 'false', true],
  ['ge `xyz` `xy`', 'true', true],
  ['ge .Uthree .Uthree', 'true', true],
  ['ge .Uthree .Ufour', 'false', true],
  ['ge .Ufour .Uthree', 'true', true],
  // Mixing signed and unsigned integers.
  ['eq .Uthree .Three', 'true', true],
  ['eq .Three .Uthree', 'true', true],
  ['le .Uthree .Three', 'true', true],
  ['le .Three .Uthree', 'true', true],
  ['ge .Uthree .Three', 'true', true],
  ['ge .Three .Uthree', 'true', true],
  ['lt .Uthree .Three', 'false', true],
  ['lt .Three .Uthree', 'false', true],
  ['gt .Uthree .Three', 'false', true],
  ['gt .Three .Uthree', 'false', true],
  ['eq .Ufour .Three', 'false', true],
  ['lt .Ufour .Three', 'false', true],
  ['gt .Ufour .Three', 'true', true],
  ['eq .NegOne .Uthree', 'false', true],
  ['eq .Uthree .NegOne', 'false', true],
  ['ne .NegOne .Uthree', 'true', true],
  ['ne .Uthree .NegOne', 'true', true],
  ['lt .NegOne .Uthree', 'true', true],
  ['lt .Uthree .NegOne', 'false', true],
  ['le .NegOne .Uthree', 'true', true],
  ['le .Uthree .NegOne', 'false', true],
  ['gt .NegOne .Uthree', 'false', true],
  ['gt .Uthree .NegOne', 'true', true],
  ['ge .NegOne .Uthree', 'false', true],
  ['ge .Uthree .NegOne', 'true', true],
  ["eq (index `x` 0) 'x'", 'true', true],
  ["eq (index `x` 0) 'y'", 'false', true],
  ['eq .Map .Map', 'true', true],
  ['eq .Map nil', 'true', true],
  ['eq nil .Map', 'true', true],
  ['eq .Map .NonNilMap', 'false', true],
  // Errors.
  ['eq `xy` 1', '', false],
  ['eq 2 2.0', '', false],
  ['lt true true', '', false],
  ['eq .NonNilMap .NonNilMap', '', false],
];

describe('text/template comparisons (exec_test.go cmpTests)', () => {
  it.each(cmpTests)('%s', (expr, truth, ok) => {
    const got = run(`{{if ${expr}}}true{{else}}false{{end}}`, cmpData, {}, 'empty');
    if (ok) expect(got).toEqual({ out: truth });
    else expect(got).toHaveProperty('err');
  });
});

const plusOne = testFuncs.add;
const interfaceData = new Map<string, GoValue>([
  ['PlusOne', plusOne ?? null],
  ['Slice', ints(0, 1, 2, 3)],
  ['One', 1n],
  ['Two', 2n],
  ['Nil', null],
  ['Zero', 0n],
]);

describe('interface values (exec_test.go TestInterfaceValues)', () => {
  it.each([
    ['{{index .Nil 1}}', 'ERROR: index of untyped nil'],
    ['{{index .Slice 2}}', '2'],
    ['{{index .Slice .Two}}', '2'],
    ['{{call .Nil 1}}', 'ERROR: call of nil'],
    ['{{call .PlusOne 1}}', '1'],
    ['{{call .PlusOne .One}}', '1'],
    ['{{and (index .Slice 0) true}}', '0'],
    ['{{and .Zero true}}', '0'],
    ['{{and (index .Slice 1) false}}', 'false'],
    ['{{and .One false}}', 'false'],
    ['{{or (index .Slice 0) false}}', 'false'],
    ['{{or .Zero false}}', 'false'],
    ['{{or (index .Slice 1) true}}', '1'],
    ['{{or .One true}}', '1'],
    ['{{not (index .Slice 0)}}', 'true'],
    ['{{not .Zero}}', 'true'],
    ['{{not (index .Slice 1)}}', 'false'],
    ['{{not .One}}', 'false'],
    ['{{eq (index .Slice 0) .Zero}}', 'true'],
    ['{{eq (index .Slice 1) .One}}', 'true'],
    ['{{ne (index .Slice 0) .Zero}}', 'false'],
    ['{{ne (index .Slice 1) .One}}', 'false'],
    ['{{ge (index .Slice 0) .One}}', 'false'],
    ['{{ge (index .Slice 1) .Zero}}', 'true'],
    ['{{gt (index .Slice 0) .One}}', 'false'],
    ['{{gt (index .Slice 1) .Zero}}', 'true'],
    ['{{le (index .Slice 0) .One}}', 'true'],
    ['{{le (index .Slice 1) .Zero}}', 'false'],
    ['{{lt (index .Slice 0) .One}}', 'true'],
    ['{{lt (index .Slice 1) .Zero}}', 'false'],
  ])('%s', (text, out) => {
    const got = run(text, interfaceData, {}, 'tmpl');
    if (out.startsWith('ERROR:')) {
      expect('err' in got && got.err).toContain(out.slice('ERROR:'.length).trim());
    } else {
      expect(got).toEqual({ out });
    }
  });
});

describe('missing map keys (exec_test.go TestMissingMapKey)', () => {
  const data = typedMap(new Map<string, GoValue>([['x', 99n]]), 'int');
  it('prints <no value> by default and with missingkey=default or invalid', () => {
    expect(run('{{.x}} {{.y}}', data, {}, 't1')).toEqual({ out: '99 <no value>' });
    expect(run('{{.x}} {{.y}}', data, { missingKey: 'default' }, 't1')).toEqual({ out: '99 <no value>' });
    expect(run('{{.x}} {{.y}}', data, { missingKey: 'invalid' }, 't1')).toEqual({ out: '99 <no value>' });
  });
  it('prints the zero value with missingkey=zero', () => {
    expect(run('{{.x}} {{.y}}', data, { missingKey: 'zero' }, 't1')).toEqual({ out: '99 0' });
  });
  it('fails with missingkey=error, also on nil data', () => {
    expect(run('{{.x}} {{.y}}', data, { missingKey: 'error' }, 't1')).toEqual({
      err: 'template: t1:1:9: executing "t1" at <.y>: map has no entry for key "y"',
    });
    expect(run('{{.x}} {{.y}}', null, { missingKey: 'error' }, 't1')).toEqual({
      err: 'template: t1:1:2: executing "t1" at <.x>: nil data; no entry for key "x"',
    });
  });
});

describe('execution errors carry Go\'s exact text', () => {
  it.each([
    ['{{nil}}', null, 'template: t:1:2: executing "t" at <nil>: nil is not a command'],
    [`{{typeOf ${bigUint}}}`, null, `template: t:1:9: executing "t" at <${bigUint}>: ${bigUint} overflows int`],
    ['{{1 2}}', null, 'template: t:1:2: executing "t" at <1>: can\'t give argument to non-function 1'],
    ['{{.MSI.one 1}}', tVal, 'template: t:1:6: executing "t" at <.MSI.one>: one is not a method but has arguments'],
    ['{{call}}', tVal, 'template: t:1:2: executing "t" at <call>: wrong number of args for call: want at least 1 got 0'],
    ['{{call .True}}', tVal, 'template: t:1:2: executing "t" at <call .True>: error calling call: non-function .True of type bool'],
    [
      '{{call .BinaryFunc 1}}',
      tVal,
      'template: t:1:2: executing "t" at <call .BinaryFunc 1>: error calling call: wrong number of args for .BinaryFunc: got 1 want 2',
    ],
    [
      '{{call .VariadicFuncInt}}',
      tVal,
      'template: t:1:2: executing "t" at <call .VariadicFuncInt>: error calling call: wrong number of args for .VariadicFuncInt: got 0 want at least 1',
    ],
    [
      '{{call .TooFewReturnCountFunc}}',
      tVal,
      'template: t:1:2: executing "t" at <call .TooFewReturnCountFunc>: error calling call: function .TooFewReturnCountFunc has 0 return values; should be 1 or 2',
    ],
    [
      '{{call .TooManyReturnCountFunc}}',
      tVal,
      'template: t:1:2: executing "t" at <call .TooManyReturnCountFunc>: error calling call: function .TooManyReturnCountFunc has 3 return values; should be 1 or 2',
    ],
    [
      '{{call .InvalidReturnTypeFunc}}',
      tVal,
      'template: t:1:2: executing "t" at <call .InvalidReturnTypeFunc>: error calling call: invalid function signature for .InvalidReturnTypeFunc: second return value should be error; is bool',
    ],
    [
      '{{call (len "test")}}',
      null,
      'template: t:1:2: executing "t" at <call (len "test")>: error calling call: non-function len "test" of type int',
    ],
    ['{{call .PanicFunc}}', tVal, 'template: t:1:2: executing "t" at <call .PanicFunc>: error calling call: test panic'],
    [
      '{{call .BinaryFunc 1 3}}',
      tVal,
      'template: t:1:2: executing "t" at <call .BinaryFunc 1 3>: error calling call: arg 0: value has type int; should be string',
    ],
    ['{{.MyError true}}', tVal, 'template: t:1:2: executing "t" at <.MyError>: error calling MyError: my error'],
    ['{{index .SI 10}}', tVal, 'template: t:1:2: executing "t" at <index .SI 10>: error calling index: index out of range: 10'],
    [
      '{{index .SI `hello`}}',
      tVal,
      'template: t:1:2: executing "t" at <index .SI `hello`>: error calling index: cannot index slice/array with type string',
    ],
    ['{{index .SI nil}}', tVal, 'template: t:1:2: executing "t" at <index .SI nil>: error calling index: cannot index slice/array with nil'],
    ['{{index .MSI nil}}', tVal, 'template: t:1:2: executing "t" at <index .MSI nil>: error calling index: value is nil; should be of type string'],
    ['{{index .MSI 10}}', tVal, 'template: t:1:2: executing "t" at <index .MSI 10>: error calling index: value has type int; should be string'],
    ['{{index nil 1}}', tVal, 'template: t:1:2: executing "t" at <index nil 1>: error calling index: index of untyped nil'],
    ['{{slice .SI 2 1}}', tVal, 'template: t:1:2: executing "t" at <slice .SI 2 1>: error calling slice: invalid slice index: 2 > 1'],
    ['{{slice .SI -1}}', tVal, 'template: t:1:2: executing "t" at <slice .SI -1>: error calling slice: index out of range: -1'],
    ['{{slice .S 1 2 2}}', tVal, 'template: t:1:2: executing "t" at <slice .S 1 2 2>: error calling slice: cannot 3-index slice a string'],
    ['{{len 3}}', tVal, 'template: t:1:2: executing "t" at <len 3>: error calling len: len of type int'],
    ['{{len .Empty0}}', tVal, 'template: t:1:2: executing "t" at <len .Empty0>: error calling len: len of nil pointer'],
    ['{{3|oneArg}}', tVal, 'template: t:1:4: executing "t" at <oneArg>: wrong type for value; expected string; got int'],
    ['{{(nil).True}}', tVal, 'template: t:1:3: executing "t" at <nil>: nil is not a command'],
    ['{{$x := nil}}{{$x.anything}}', tVal, 'template: t:1:8: executing "t" at <nil>: nil is not a command'],
    ['{{valueString returnInt}}', tVal, 'template: t:1:14: executing "t" at <returnInt>: wrong type for value; expected string; got int'],
    ['{{true|printf}}', tVal, 'template: t:1:7: executing "t" at <printf>: wrong type for value; expected string; got bool'],
    ['{{1|oneArg}}', tVal, 'template: t:1:4: executing "t" at <oneArg>: wrong type for value; expected string; got int'],
    ['{{.X.Y}}', 0n, 'template: t:1:4: executing "t" at <.X.Y>: can\'t evaluate field X in type int'],
    ['{{if nil}}TRUE{{end}}', tVal, 'template: t:1:5: executing "t" at <nil>: nil is not a command'],
    ['{{eq `xy` 1}}', tVal, 'template: t:1:2: executing "t" at <eq `xy` 1>: error calling eq: incompatible types for comparison: string and int'],
    ['{{lt true true}}', tVal, 'template: t:1:2: executing "t" at <lt true true>: error calling lt: invalid type for comparison'],
    ['{{eq 1}}', tVal, 'template: t:1:2: executing "t" at <eq 1>: error calling eq: missing argument for comparison'],
    ['{{ne 1 2 3}}', tVal, 'template: t:1:2: executing "t" at <ne>: wrong number of args for ne: want 2 got 3'],
    ['{{template "x"}}', tVal, 'template: t:1:11: executing "t" at <{{template "x"}}>: template "x" not defined'],
    ['{{range $i, $v := 3}}{{end}}', null, 'template: t:1:18: executing "t" at <3>: can\'t use 3 to iterate over more than one variable'],
    ['{{range .X}}{{end}}', tVal, 'template: t:1:8: executing "t" at <.X>: range can\'t iterate over x'],
    ['{{.Method1 "x"}}', tVal, 'template: t:1:11: executing "t" at <"x">: expected integer; found "x"'],
    ['{{.Method2 3 4}}', tVal, 'template: t:1:13: executing "t" at <4>: expected string; found 4'],
    ['{{.Method2 -1 "x"}}', tVal, 'template: t:1:11: executing "t" at <-1>: expected unsigned integer; found -1'],
  ])('%s', (text, data, err) => {
    expect(run(text, data as GoValue, { funcs: testFuncs })).toEqual({ err });
  });

  it('names the innermost template and the position in the whole text (TestExecError)', () => {
    const text = [
      'line 1',
      'line 2',
      'line 3',
      '{{template "one" .}}',
      '{{define "one"}}{{template "two" .}}{{end}}',
      '{{define "two"}}{{template "three" .}}{{end}}',
      '{{define "three"}}{{index "hi" $}}{{end}}',
    ].join('\n');
    expect(run(text, 5n, {}, 'top')).toEqual({
      err: 'template: top:7:20: executing "three" at <index "hi" $>: error calling index: index out of range: 5',
    });
  });

  it('reports panics in functions and methods as errors (TestExecutePanicDuringCall)', () => {
    const funcs = {
      doPanic: testFuncs.zeroArgs && { ...testFuncs.zeroArgs, name: 'doPanic', call: () => { throw new Error('custom panic string'); } },
    };
    expect(run('{{doPanic}}', null, { funcs: funcs as never })).toEqual({
      err: 'template: t:1:2: executing "t" at <doPanic>: error calling doPanic: custom panic string',
    });
    expect(run('{{call doPanic}}', null, { funcs: funcs as never })).toEqual({
      err: 'template: t:1:7: executing "t" at <doPanic>: error calling doPanic: custom panic string',
    });
  });
});

describe('templates, blocks and bounds', () => {
  it('block defines a template and invokes it (TestBlock)', () => {
    expect(run('a({{block "inner" .}}bar({{.}})baz{{end}})b', 'hello', {}, 'outer')).toEqual({ out: 'a(bar(hello)baz)b' });
  });

  it('walks a recursive template over a tree (TestTree)', () => {
    type Node = [number, Node | null, Node | null];
    const toGo = (n: Node | null): GoValue =>
      n === null ? null : new Struct('*template.Tree', { Val: BigInt(n[0]), Left: toGo(n[1]), Right: toGo(n[2]) });
    const tree: Node = [1, [2, [3, [4, null, null], null], [5, [6, null, null], null]], [7, [8, [9, null, null], null], [10, [11, null, null], null]]];
    const text = '{{define "tree"}}[{{- .Val -}}{{- with .Left -}}{{template "tree" . -}}{{- end -}}{{- with .Right -}}{{- template "tree" . -}}{{- end -}}]{{- end -}}{{template "tree" .}}';
    expect(run(text, toGo(tree), {}, 'root')).toEqual({ out: '[1[2[3[4]][5[6]]][7[8[9]][10[11]]]]' });
  });

  it('stops runaway recursion with Go\'s message (TestMaxExecDepth)', () => {
    const got = run('{{template "tmpl" .}}', null, {}, 'tmpl');
    expect('err' in got && got.err).toContain('exceeded maximum template depth');
  });

  it('JSEscapeString escapes as Go does (TestJSEscaping)', () => {
    const cases: [string, string][] = [
      ['a', 'a'],
      ["'foo", "\\'foo"],
      ['Go "jump" \\', 'Go \\"jump\\" \\\\'],
      ['Yukihiro says "今日は世界"', 'Yukihiro says \\"今日は世界\\"'],
      ['unprintable \uFFFE', 'unprintable \\uFFFE'],
      ['<html>', '\\u003Chtml\\u003E'],
      ['no = in attributes', 'no \\u003D in attributes'],
      ['&#x27; does not become HTML entity', '\\u0026#x27; does not become HTML entity'],
    ];
    for (const [input, want] of cases) expect(run('{{js .}}', input)).toEqual({ out: want });
  });

  it('typed slices and maps print their Go types with %T', () => {
    expect(run('{{printf "%T %T %T" .a .b .c}}', new Map<string, GoValue>([
      ['a', typedSlice(['x'], 'string')],
      ['b', typedMap(new Map(), 'string')],
      ['c', [1]],
    ]))).toEqual({ out: '[]string map[string]string []interface {}' });
  });
});
