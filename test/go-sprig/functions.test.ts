/**
 * sprig's hermetic function map, function by function, with the expectations of sprig's own *_test.go tables and of
 * the Go libraries behind them (strings, strconv, encoding/json, regexp, Masterminds/semver, spf13/cast, mergo).
 * Arguments are what the template engine hands a function after Go's conversions: template integers arrive as `int`
 * (bigint), floats and JSON numbers as float64 (number). Results are shown the way `{{ … }}` prints them.
 */
import { describe, expect, it } from 'vitest';
import { formatGoValue as printValue, GoFuncError, GoNumber, GoObject, goTypeName as typeName, typedSlice, type GoValue } from '../../src/go/template/index.js';
import { hermeticTxtFuncMap, nondeterministicSprigFunctions } from '../../src/go/sprig/index.js';

const funcs = hermeticTxtFuncMap();

function call(name: string, ...args: GoValue[]): GoValue {
  const f = funcs[name];
  if (f === undefined) throw new Error(`function "${name}" not defined`);
  return f.call(args);
}
/** What the template prints, or `error: <message>` for a Go error or panic. */
function show(name: string, ...args: GoValue[]): string {
  try {
    return printValue(call(name, ...args));
  } catch (e) {
    if (e instanceof GoFuncError) return `error: ${e.message}`;
    throw e;
  }
}
const dict = (entries: Record<string, GoValue>): Map<string, GoValue> => new Map(Object.entries(entries));
const int64 = (n: bigint): GoNumber => new GoNumber('int64', n);

type Case = [name: string, args: GoValue[], expected: string];
function table(title: string, cases: Case[]): void {
  describe(title, () => {
    for (const [name, args, expected] of cases) {
      const label = args.map((a) => (typeof a === 'string' ? JSON.stringify(a) : printValue(a))).join(' ');
      it(`${name} ${label}`, () => {
        expect(show(name, ...args)).toBe(expected);
      });
    }
  });
}

describe('the map itself', () => {
  it('holds sprig’s generic functions minus the non-hermetic ones', () => {
    for (const name of ['upper', 'semverCompare', 'regexReplaceAll', 'toJson', 'dig', 'mergeOverwrite', 'derivePassword', 'durationRound']) {
      expect(funcs[name], name).toBeDefined();
    }
    for (const name of ['env', 'expandenv', 'now', 'date', 'dateInZone', 'date_modify', 'htmlDate', 'randAlpha', 'randBytes', 'uuidv4', 'getHostByName']) {
      expect(funcs[name], name).toBeUndefined();
    }
  });
  it('has no Helm-only functions', () => {
    for (const name of ['toYaml', 'fromYaml', 'include', 'tpl', 'required', 'lookup']) expect(funcs[name], name).toBeUndefined();
  });
  it('declares Go signatures the engine converts arguments by', () => {
    expect(funcs.substr).toMatchObject({ params: ['int', 'int', 'string'], results: ['string'], variadic: false });
    expect(funcs.semver).toMatchObject({ params: ['string'], results: ['*semver.Version', 'error'] });
    expect(funcs.list).toMatchObject({ params: ['interface {}'], variadic: true });
    expect(funcs.round).toMatchObject({ params: ['interface {}', 'int', 'float64'], variadic: true });
    expect(funcs.derivePassword?.params[0]).toBe('uint32');
  });
  it('lists the functions whose Go result changes on every reconcile, all of them in the map', () => {
    for (const name of nondeterministicSprigFunctions) expect(funcs[name], name).toBeDefined();
    expect(nondeterministicSprigFunctions).toEqual(expect.arrayContaining(['shuffle', 'randInt', 'genCA', 'keys', 'ago']));
  });
  it('is frozen and shared', () => {
    expect(Object.isFrozen(funcs)).toBe(true);
    expect(hermeticTxtFuncMap()).toBe(funcs);
  });
});

table('strings', [
  ['hello', [], 'Hello!'],
  ['substr', [0n, 3n, 'fooo'], 'foo'],
  ['substr', [0n, 10n, 'foo'], 'foo'],
  ['substr', [1n, 3n, 'hello'], 'el'],
  ['substr', [-1n, 2n, 'hello'], 'he'],
  ['substr', [-1n, 10n, 'hi'], 'error: runtime error: slice bounds out of range [:10] with length 2'],
  ['substr', [3n, 2n, 'hello'], 'error: runtime error: slice bounds out of range [3:2]'],
  ['substr', [0n, 2n, 'héllo'], 'h\ufffd'],
  ['trunc', [3n, 'foooooo'], 'foo'],
  ['trunc', [-3n, 'baaaaaar'], 'aar'],
  ['trunc', [-999n, 'baaaaaar'], 'baaaaaar'],
  ['trunc', [0n, 'baaaaaz'], ''],
  ['quote', ['a', 'b', 'c'], '"a" "b" "c"'],
  ['quote', ['"a"', 'b'], '"\\"a\\"" "b"'],
  ['quote', [1n, 2n, 3n], '"1" "2" "3"'],
  ['quote', [null], ''],
  ['quote', ['tab\there', 'é'], '"tab\\there" "é"'],
  ['squote', ['a', 'b', 'c'], "'a' 'b' 'c'"],
  ['squote', [1n, 2.5], "'1' '2.5'"],
  ['squote', [null], ''],
  ['cat', ['a', 'b', 'c'], 'a b c'],
  ['cat', ['a', 'b', null], 'a b'],
  ['cat', [1n, 2.5, true, [1n, 'x']], '1 2.5 true [1 x]'],
  ['indent', [4n, 'a\nb\nc'], '    a\n    b\n    c'],
  ['nindent', [4n, 'a\nb\nc'], '\n    a\n    b\n    c'],
  ['indent', [-1n, 'a'], 'error: strings: negative Repeat count'],
  ['replace', [' ', '-', 'I Am Henry VIII'], 'I-Am-Henry-VIII'],
  ['replace', ['', '-', 'abc'], '-a-b-c-'],
  ['plural', ['1 char', 'chars', 3n], 'chars'],
  ['plural', ['cheese', '%d chars', 1n], 'cheese'],
  ['split', ['$', 'foo$bar$baz'], 'map[_0:foo _1:bar _2:baz]'],
  ['splitn', ['$', 2n, 'foo$bar$baz'], 'map[_0:foo _1:bar$baz]'],
  ['splitList', ['$', 'foo$bar$baz'], '[foo bar baz]'],
  ['splitList', [',', ''], '[]'],
  ['toString', [1n], '1'],
  ['toString', [1.5], '1.5'],
  ['toString', [1e6], '1e+06'],
  ['toString', [123456.0], '123456'],
  ['toString', [null], '<nil>'],
  ['toString', [int64(-7n)], '-7'],
  ['toStrings', [[1n, null, 2n]], '[1 2]'],
  ['join', ['-', ['a', 'b', 'c']], 'a-b-c'],
  ['join', ['-', [1n, 2n, 3n]], '1-2-3'],
  ['join', ['-', 'abc'], 'abc'],
  ['join', ['-', ['1', null, '2']], '1-2'],
  ['join', ['-', null], ''],
  ['sortAlpha', [['c', 'a', 'b']], '[a b c]'],
  ['sortAlpha', [[2n, 1n, 4n, 3n]], '[1 2 3 4]'],
  ['sortAlpha', [['b', 'B', 'a', 'é']], '[B a b é]'],
  ['sortAlpha', ['x'], '[x]'],
  ['sortAlpha', [null], '[<nil>]'],
  ['abbrev', [5n, 'hello world'], 'he...'],
  ['abbrev', [3n, 'hello world'], 'hello world'],
  ['abbrev', [20n, 'hello world'], 'hello world'],
  ['abbrevboth', [5n, 10n, '1234 5678 9123'], '...5678...'],
  ['abbrevboth', [0n, 10n, '1234 5678 9123'], '1234 56...'],
  ['nospace', ['h e l l o '], 'hello'],
  ['nospace', ['a\tb\nc'], 'abc'],
  ['untitle', ['First Try'], 'first try'],
  ['title', ['hello world'], 'Hello World'],
  ['title', ['hello-world foo_bar'], 'Hello-World Foo_bar'],
  ['initials', ['First Try'], 'FT'],
  ['initials', ['matt butcher'], 'mb'],
  ['wrap', [5n, 'Hello World'], 'Hello\nWorld'],
  ['wrap', [3n, 'Hello World'], 'Hello\nWorld'],
  ['wrapWith', [5n, '\t', 'Hello World'], 'Hello\tWorld'],
  ['wrapWith', [3n, '-', 'Hello'], 'Hel-lo'],
  ['upper', ['foo'], 'FOO'],
  ['lower', ['FOO'], 'foo'],
  ['upper', ['straße'], 'STRAßE'],
  ['trim', ['  foo \n'], 'foo'],
  ['trimAll', ['$', '$5.00$'], '5.00'],
  ['trimall', ['$', '$5.00'], '5.00'],
  ['trimSuffix', ['-', 'a-'], 'a'],
  ['trimPrefix', ['-', '-a'], 'a'],
  ['contains', ['cat', 'fallcat'], 'true'],
  ['hasPrefix', ['cat', 'catch'], 'true'],
  ['hasSuffix', ['cat', 'ducat'], 'true'],
  ['hasSuffix', ['cat', 'cats'], 'false'],
  ['repeat', [3n, 'ab'], 'ababab'],
  ['repeat', [-1n, 'ab'], 'error: strings: negative Repeat count'],
  ['swapcase', ['This Is A.Test'], 'tHIS iS a.tEST'],
  ['snakecase', ['FirstName'], 'first_name'],
  ['snakecase', ['HTTPServer'], 'http_server'],
  ['snakecase', ['NoHTTPS'], 'no_https'],
  ['snakecase', ['GO_PATH'], 'go_path'],
  ['snakecase', ['GO PATH'], 'go_path'],
  ['snakecase', ['GO-PATH'], 'go_path'],
  ['snakecase', ['http2xx'], 'http_2xx'],
  ['snakecase', ['HTTP20xOK'], 'http_20x_ok'],
  ['snakecase', ['Duration2m3s'], 'duration_2m3s'],
  ['snakecase', ['Bld4Floor3rd'], 'bld4_floor_3rd'],
  ['kebabcase', ['FirstName'], 'first-name'],
  ['kebabcase', ['HTTPServer'], 'http-server'],
  ['camelcase', ['http_server'], 'HttpServer'],
  ['camelcase', ['some_words'], 'SomeWords'],
  ['camelcase', ['no_https'], 'NoHttps'],
  ['camelcase', ['_complex__case_'], '_Complex_Case_'],
  ['camelcase', ['some words'], 'SomeWords'],
  ['camelcase', ['GOLANG_IS_GREAT'], 'GolangIsGreat'],
  ['b64enc', ['coffee'], 'Y29mZmVl'],
  ['b64dec', ['Y29mZmVl'], 'coffee'],
  ['b64dec', ['Y29mZmVl\n'], 'coffee'],
  ['b64dec', ['Y29mZmV'], 'illegal base64 data at input byte 4'],
  ['b64dec', ['Y2!m'], 'illegal base64 data at input byte 2'],
  ['b64enc', [''], ''],
  ['b32enc', ['coffee'], 'MNXWMZTFMU======'],
  ['b32dec', ['MNXWMZTFMU======'], 'coffee'],
  ['b32enc', ['foob'], 'MZXW6YQ='],
  ['b32dec', ['MZXW\n6==='], 'foo'],
  ['b32dec', ['MZXW6==='], 'foo'],
  ['b32dec', ['MZXW6===x'], 'foo'],
  ['b32dec', ['MZXW6=='], 'illegal base32 data at input byte 7'],
  ['b32dec', ['MZXW6YQ'], 'illegal base32 data at input byte 0'],
  ['b32dec', ['MZX====='], 'illegal base32 data at input byte 3'],
  ['b32dec', ['MZXW6=x='], 'illegal base32 data at input byte 5'],
  ['b64dec', ['Zm=9'], 'illegal base64 data at input byte 2'],
  ['b64dec', ['Zg='], 'illegal base64 data at input byte 3'],
  ['b64dec', ['Zm9vYg==x'], 'illegal base64 data at input byte 8'],
  ['b64dec', ['Zm9v\r\nYmFy'], 'foobar'],
  ['sha1sum', ['123456789'], 'f7c3bc1d808e04732adf679965ccc34ca7ae3441'],
  ['sha256sum', ['123456789'], '15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225'],
  [
    'sha512sum',
    ['123456789'],
    'd9e6762dd1c8eaf6d61b3c6192fc408d4d6d5f1176d0c29169bc24e71c3f274ad27fcd5811b313d681f7e55ec02d73d499c95455b6b5bb503acf574fba8ffe85',
  ],
  ['adler32sum', ['123456789'], '152961502'],
]);

table('lists', [
  ['list', [1n, 'a', null], '[1 a <nil>]'],
  ['tuple', [1n, 2n], '[1 2]'],
  ['first', [[1n, 2n, 3n]], '1'],
  ['first', [[]], '<nil>'],
  ['first', ['abc'], 'error: Cannot find first on type string'],
  ['mustFirst', [dict({})], 'error: Cannot find first on type map'],
  ['first', [null], 'error: runtime error: invalid memory address or nil pointer dereference'],
  ['last', [[1n, 2n, 3n]], '3'],
  ['rest', [[1n, 2n, 3n]], '[2 3]'],
  ['rest', [[]], '[]'],
  ['initial', [[1n, 2n, 3n]], '[1 2]'],
  ['append', [[1n, 2n], 3n], '[1 2 3]'],
  ['push', [[1n, 2n], 3n], '[1 2 3]'],
  ['mustPush', ['x', 3n], 'error: Cannot push on type string'],
  ['append', [1.5, 3n], 'error: Cannot push on type float64'],
  ['prepend', [[1n, 2n], 0n], '[0 1 2]'],
  ['mustPrepend', [true, 0n], 'error: Cannot prepend on type bool'],
  ['reverse', [[1n, 2n, 3n]], '[3 2 1]'],
  ['reverse', [[]], '[]'],
  ['uniq', [[1n, 2n, 1n, 'a', 'a', 1.0]], '[1 2 a 1]'],
  ['uniq', [[dict({ a: 1n }), dict({ a: 1n })]], '[map[a:1]]'],
  ['compact', [[1n, 0n, '', null, 'a', false, [], 0.0]], '[1 a]'],
  ['without', [[1n, 2n, 3n, 4n], 1n, 3n], '[2 4]'],
  ['without', [[1n, 2n], 1.0], '[1 2]'],
  ['has', [4n, [1n, 2n, 3n, 4n]], 'true'],
  ['has', [5n, [1n, 2n, 3n, 4n]], 'false'],
  ['has', ['x', null], 'false'],
  ['mustHas', ['x', 'xyz'], 'error: Cannot find has on type string'],
  ['slice', [[1n, 2n, 3n, 4n, 5n], 1n, 3n], '[2 3]'],
  ['slice', [[1n, 2n, 3n, 4n, 5n], 3n], '[4 5]'],
  ['slice', [[1n, 2n, 3n, 4n, 5n]], '[1 2 3 4 5]'],
  ['slice', [[1n, 2n, 3n], 2n, 7n], 'error: reflect.Value.Slice: slice index out of range'],
  ['slice', [[], 0n], '<nil>'],
  ['mustSlice', ['abc', 1n], 'error: list should be type of slice or array but string'],
  ['concat', [[1n, 2n], [3n], []], '[1 2 3]'],
  ['concat', [[1n], 'x'], 'error: Cannot concat type string as list'],
  ['chunk', [2n, [1n, 2n, 3n, 4n, 5n]], '[[1 2] [3 4] [5]]'],
  ['chunk', [3n, [1n, 2n, 3n]], '[[1 2 3]]'],
  ['chunk', [2n, []], '[]'],
  ['chunk', [0n, [1n]], 'error: runtime error: makeslice: len out of range'],
  ['until', [5n], '[0 1 2 3 4]'],
  ['until', [-3n], '[0 -1 -2]'],
  ['untilStep', [3n, 6n, 1n], '[3 4 5]'],
  ['untilStep', [0n, -10n, -4n], '[0 -4 -8]'],
  ['untilStep', [0n, 10n, 0n], '[]'],
  ['seq', [], ''],
  ['seq', [3n], '1 2 3'],
  ['seq', [-3n], '1 0 -1 -2 -3'],
  ['seq', [0n, 3n], '0 1 2 3'],
  ['seq', [3n, 0n], '3 2 1 0'],
  ['seq', [0n, 2n, 10n], '0 2 4 6 8 10'],
  ['seq', [10n, -2n, 0n], '10 8 6 4 2 0'],
  ['seq', [10n, 2n, 0n], ''],
  ['seq', [1n, 2n, 3n, 4n], ''],
]);

describe('list results keep Go types', () => {
  it('slice keeps a []string a []string; list functions build []interface {}', () => {
    const strings = typedSlice(['a', 'b', 'c'], 'string');
    expect(typeName(call('slice', strings, 1n))).toBe('[]string');
    expect(typeName(call('rest', strings))).toBe('[]interface {}');
    expect(typeName(call('chunk', 1n, strings))).toBe('[][]interface {}');
    expect(typeName(call('until', 2n))).toBe('[]int');
    expect(typeName(call('splitList', ',', 'a,b'))).toBe('[]string');
    expect(typeName(call('split', ',', 'a,b'))).toBe('map[string]string');
  });
  it('functions copy the list they are given', () => {
    const l: GoValue[] = [1n, 2n];
    call('append', l, 3n);
    call('reverse', l);
    expect(l).toEqual([1n, 2n]);
  });
});

table('dicts', [
  ['dict', ['a', 1n, 'b', 'x'], 'map[a:1 b:x]'],
  ['dict', ['a', 1n, 'b'], 'map[a:1 b:]'],
  ['dict', [1n, 'one', true, 'yes'], 'map[1:one true:yes]'],
  ['dict', [], 'map[]'],
  ['get', [dict({ a: 1n }), 'a'], '1'],
  ['get', [dict({ a: 1n }), 'b'], ''],
  ['hasKey', [dict({ a: null }), 'a'], 'true'],
  ['hasKey', [dict({ a: 1n }), 'b'], 'false'],
  ['pluck', ['a', dict({ a: 1n }), dict({ b: 2n }), dict({ a: 3n })], '[1 3]'],
  ['keys', [dict({ b: 1n, a: 2n }), dict({ c: 3n })], '[a b c]'],
  ['values', [dict({ b: 1n, a: 2n })], '[2 1]'],
  ['pick', [dict({ a: 1n, b: 2n, c: 3n }), 'a', 'c', 'x'], 'map[a:1 c:3]'],
  ['omit', [dict({ a: 1n, b: 2n, c: 3n }), 'a', 'x'], 'map[b:2 c:3]'],
  ['dig', ['a', 'b', 'def', dict({ a: dict({ b: 'found' }) })], 'found'],
  ['dig', ['a', 'x', 'def', dict({ a: dict({ b: 'found' }) })], 'def'],
  ['dig', ['a', 'b', 'def', dict({ a: 'scalar' })], 'error: interface conversion: interface {} is string, not map[string]interface {}'],
  ['dig', [1n, 'def', dict({})], 'error: interface conversion: interface {} is int, not string'],
  ['dig', ['a', dict({})], 'error: dig needs at least three arguments'],
  [
    'merge',
    [dict({ a: 1n, b: '', c: dict({ x: 1n }) }), dict({ a: 2n, b: 'set', c: dict({ x: 2n, y: 3n }), d: 4n })],
    'map[a:1 b:set c:map[x:1 y:3] d:4]',
  ],
  [
    'mergeOverwrite',
    [dict({ a: 1n, b: 'keep', c: dict({ x: 1n }) }), dict({ a: 2n, c: dict({ y: 3n }), d: null })],
    'map[a:2 b:keep c:map[x:1 y:3] d:<nil>]',
  ],
  ['merge', [dict({ l: [1n] }), dict({ l: [2n, 3n] })], 'map[l:[1]]'],
  ['mergeOverwrite', [dict({ l: [1n] }), dict({ l: [2n, 3n] })], 'map[l:[2 3]]'],
  ['merge', [dict({ a: false }), dict({ a: true })], 'map[a:true]'],
  ['merge', [dict({ a: 0.0 }), dict({ a: 5.0 })], 'map[a:5]'],
  ['mergeOverwrite', [dict({ a: 'x' }), dict({ a: '' })], 'map[a:]'],
  ['deepCopy', [dict({ a: [1n, dict({ b: 2n })] })], 'map[a:[1 map[b:2]]]'],
]);

describe('dicts are Go maps: references', () => {
  it('set, unset and merge change the map they are given', () => {
    const d = dict({ a: 1n });
    call('set', d, 'b', 2n);
    call('unset', d, 'a');
    call('merge', d, dict({ c: 3n }));
    expect(printValue(d)).toBe('map[b:2 c:3]');
  });
  it('set on a nil map panics like Go', () => {
    expect(show('set', null, 'a', 1n)).toBe('error: assignment to entry in nil map');
  });
  it('deepCopy copies all the way down', () => {
    const inner = dict({ b: 1n });
    const copy = call('deepCopy', dict({ a: inner })) as Map<string, GoValue>;
    inner.set('b', 2n);
    expect(printValue(copy)).toBe('map[a:map[b:1]]');
  });
});

table('defaults, flow and reflection', [
  ['default', ['foo', null], 'foo'],
  ['default', ['foo', ''], 'foo'],
  ['default', ['foo', 'bar'], 'bar'],
  ['default', ['foo'], 'foo'],
  ['default', [1n, 0n], '1'],
  ['default', [1n, 0.0], '1'],
  ['default', ['x', false], 'x'],
  ['default', ['x', []], 'x'],
  ['default', ['x', dict({})], 'x'],
  ['default', ['x', dict({ a: 1n })], 'map[a:1]'],
  ['empty', [null], 'true'],
  ['empty', [''], 'true'],
  ['empty', [0n], 'true'],
  ['empty', [int64(0n)], 'true'],
  ['empty', [0.0], 'true'],
  ['empty', [false], 'true'],
  ['empty', [[]], 'true'],
  ['empty', [dict({})], 'true'],
  ['empty', [' '], 'false'],
  ['empty', [1n], 'false'],
  ['coalesce', [null, '', 0n, 'first', 'second'], 'first'],
  ['coalesce', [null, ''], '<nil>'],
  ['all', [1n, 'a', true], 'true'],
  ['all', [1n, '', true], 'false'],
  ['all', [], 'true'],
  ['any', [0n, '', 'x'], 'true'],
  ['any', [0n, ''], 'false'],
  ['ternary', ['yes', 'no', true], 'yes'],
  ['ternary', ['yes', 'no', false], 'no'],
  ['fail', ['boom'], 'error: boom'],
  ['typeOf', [1n], 'int'],
  ['typeOf', [1.5], 'float64'],
  ['typeOf', ['x'], 'string'],
  ['typeOf', [null], '<nil>'],
  ['typeOf', [[]], '[]interface {}'],
  ['typeOf', [dict({})], 'map[string]interface {}'],
  ['typeOf', [int64(1n)], 'int64'],
  ['typeIs', ['int', 1n], 'true'],
  ['typeIs', ['float64', 1n], 'false'],
  ['typeIsLike', ['semver.Version', null], 'false'],
  ['kindOf', [1n], 'int'],
  ['kindOf', [[1n]], 'slice'],
  ['kindOf', [dict({})], 'map'],
  ['kindOf', [null], 'invalid'],
  ['kindIs', ['string', 'x'], 'true'],
  ['kindIs', ['map', []], 'false'],
  ['deepEqual', [[1n, dict({ a: 'b' })], [1n, dict({ a: 'b' })]], 'true'],
  ['deepEqual', [1n, 1.0], 'false'],
  ['deepEqual', [int64(1n), 1n], 'false'],
  ['deepEqual', [null, null], 'true'],
  ['deepEqual', [NaN, NaN], 'false'],
]);

table('JSON (encoding/json)', [
  ['toJson', [dict({ b: 1.0, a: '<tag>&' })], '{"a":"\\u003ctag\\u003e\\u0026","b":1}'],
  ['toRawJson', [dict({ a: '<tag>&' })], '{"a":"<tag>&"}'],
  ['toJson', [[1.5, null, true, 'x']], '[1.5,null,true,"x"]'],
  ['toJson', [null], 'null'],
  ['toJson', [1e21], '1e+21'],
  ['toJson', [1e20], '100000000000000000000'],
  ['toJson', [0.000001], '0.000001'],
  ['toJson', [0.0000001], '1e-7'],
  ['toJson', [-0.0], '-0'],
  ['toJson', [1n], '1'],
  ['toJson', ['\u2028\b\f\u0001'], '"\\u2028\\b\\f\\u0001"'],
  ['toRawJson', ['\u2028'], '"\\u2028"'],
  ['toJson', [NaN], ''],
  ['mustToJson', [NaN], 'error: json: unsupported value: NaN'],
  ['toRawJson', [Infinity], 'error: json: unsupported value: +Inf'],
  ['toPrettyJson', [dict({ a: [1.0, 2.0], b: dict({}), c: [] })], '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {},\n  "c": []\n}'],
  ['fromJson', ['{"a":1,"b":[true,null,"x"],"c":{"d":1.5e3}}'], 'map[a:1 b:[true <nil> x] c:map[d:1500]]'],
  ['fromJson', ['not json'], '<nil>'],
  ['fromJson', ['{"a":1e999,"b":2}'], 'map[a:<nil> b:2]'],
  ['mustFromJson', ['{"a":1e999}'], 'error: json: cannot unmarshal number 1e999 into Go value of type float64'],
  ['mustFromJson', [''], 'error: unexpected end of JSON input'],
  ['mustFromJson', ['{"a":'], 'error: unexpected end of JSON input'],
  ['mustFromJson', ['{"a" 1}'], "error: invalid character '1' after object key"],
  ['mustFromJson', ['{"a":1 "b":2}'], `error: invalid character '"' after object key:value pair`],
  ['mustFromJson', ['[1,]'], "error: invalid character ']' looking for beginning of value"],
  ['mustFromJson', ['[1 2]'], "error: invalid character '2' after array element"],
  ['mustFromJson', ['{1:2}'], "error: invalid character '1' looking for beginning of object key string"],
  ['mustFromJson', ['01'], "error: invalid character '1' after top-level value"],
  ['mustFromJson', ['-x'], "error: invalid character 'x' in numeric literal"],
  ['mustFromJson', ['1.e5'], "error: invalid character 'e' after decimal point in numeric literal"],
  ['mustFromJson', ['1e+'], 'error: unexpected end of JSON input'],
  ['mustFromJson', ['nul!'], "error: invalid character '!' in literal null (expecting 'l')"],
  ['mustFromJson', ['"a\\qb"'], "error: invalid character 'q' in string escape code"],
  ['mustFromJson', ['"\\u12G4"'], "error: invalid character 'G' in \\u hexadecimal character escape"],
  ['mustFromJson', ['"a\tb"'], "error: invalid character '\\t' in string literal"],
  ['mustFromJson', ["'a'"], "error: invalid character '\\'' looking for beginning of value"],
  ['mustFromJson', ['"\\ud83d\\ude00 \\ud83d"'], '😀 \ufffd'],
]);

table('conversions (spf13/cast and strconv)', [
  ['atoi', ['42'], '42'],
  ['atoi', ['-42'], '-42'],
  ['atoi', ['4.2'], '0'],
  ['atoi', [' 42'], '0'],
  ['atoi', ['99999999999999999999'], '9223372036854775807'],
  ['int', ['42'], '42'],
  ['int', ['12.7'], '12'],
  ['int', ['0x1F'], '31'],
  ['int', ['0b101'], '5'],
  ['int', ['0o17'], '15'],
  ['int', ['017'], '15'],
  ['int', ['1_000'], '1000'],
  ['int', ['1__0'], '0'],
  ['float64', ['1_000.5'], '1000.5'],
  ['float64', ['_1'], '0'],
  ['int', ['0x_1F'], '31'],
  ['int', ['abc'], '0'],
  ['int', [''], '0'],
  ['int', [12.9], '12'],
  ['int', [-12.9], '-12'],
  ['int', [true], '1'],
  ['int', [null], '0'],
  ['int', [[1n]], '0'],
  ['int64', ['9223372036854775808'], '0'],
  ['int64', [3.9], '3'],
  ['float64', ['1.5'], '1.5'],
  ['float64', ['1e3'], '1000'],
  ['float64', ['0x1p-2'], '0.25'],
  ['float64', ['inf'], '+Inf'],
  ['float64', ['1e400'], '0'],
  ['float64', [' 1'], '0'],
  ['float64', [3n], '3'],
  ['float64', [false], '0'],
  ['toDecimal', ['0777'], '511'],
  ['toDecimal', [777n], '511'],
  ['toDecimal', ['8'], '0'],
  ['toString', [dict({ b: [1.0], a: 'x' })], 'map[a:x b:[1]]'],
]);

table('math', [
  ['add', [1n, 2n, 3n], '6'],
  ['add', [1n, 2.7, '3'], '6'],
  ['add', [], '0'],
  ['add1', [41n], '42'],
  ['add1', ['41'], '42'],
  ['sub', [3n, 4n], '-1'],
  ['mul', [2n, 3n, 4n], '24'],
  ['div', [7n, 2n], '3'],
  ['div', [-7n, 2n], '-3'],
  ['div', [1n, 0n], 'error: runtime error: integer divide by zero'],
  ['mod', [7n, 3n], '1'],
  ['mod', [-7n, 3n], '-1'],
  ['mod', [1n, 0n], 'error: runtime error: integer divide by zero'],
  ['add', [9223372036854775807n, 1n], '-9223372036854775808'],
  ['max', [1n, 5n, 3n], '5'],
  ['biggest', [1n, 5n, 3n], '5'],
  ['min', [4n, 2n, 9n], '2'],
  ['maxf', [1.5, 2.5, 0n], '2.5'],
  ['minf', [1.5, 2.5, -1n], '-1'],
  ['floor', [1.9], '1'],
  ['floor', ['-1.5'], '-2'],
  ['ceil', [1.1], '2'],
  ['round', [3.14159, 2n], '3.14'],
  ['round', [3.145, 2n], '3.15'],
  ['round', [123.5555, 3n], '123.556'],
  ['round', [-1.5, 0n], '-2'],
  ['round', [3.14159, 2n, 0.2], '3.14'],
  ['round', [3.1451, 2n, 0.4], '3.15'],
  ['addf', [1.1, 2.2], '3.3'],
  ['addf', [], '0'],
  ['add1f', [1.5], '2.5'],
  ['subf', [3.3, 1.1], '2.2'],
  ['mulf', [1.1, 3n], '3.3'],
  ['divf', [10n, 4n], '2.5'],
  ['divf', [1n, 3n], '0.3333333333333333'],
  ['divf', [2n, 3n], '0.6666666666666667'],
  ['divf', [1n, 0n], 'error: decimal division by zero'],
  ['randInt', [5n, 5n], 'error: invalid argument to Intn'],
]);

describe('math returns Go types', () => {
  it('integer math gives int64, float math float64, conversions their own type', () => {
    expect(typeName(call('add', 1n, 2n))).toBe('int64');
    expect(typeName(call('addf', 1n, 2n))).toBe('float64');
    expect(typeName(call('int', '1'))).toBe('int');
    expect(typeName(call('int64', '1'))).toBe('int64');
    expect(typeName(call('atoi', '1'))).toBe('int');
  });
  it('randInt stays within its bounds and gives the same value every time', () => {
    const v = call('randInt', 10n, 20n) as bigint;
    expect(v >= 10n && v < 20n).toBe(true);
    expect(call('randInt', 10n, 20n)).toBe(v);
  });
});

table('semver (Masterminds/semver v3)', [
  ['semverCompare', ['1.2.3', '1.2.3'], 'true'],
  ['semverCompare', ['=1.2.3', '1.2.4'], 'false'],
  ['semverCompare', ['^1.2.0', '1.9.9'], 'true'],
  ['semverCompare', ['^1.2.0', '2.0.0'], 'false'],
  ['semverCompare', ['^0.2.3', '0.2.9'], 'true'],
  ['semverCompare', ['^0.2.3', '0.3.0'], 'false'],
  ['semverCompare', ['^0.0.3', '0.0.4'], 'false'],
  ['semverCompare', ['~1.2.3', '1.2.9'], 'true'],
  ['semverCompare', ['~1.2.3', '1.3.0'], 'false'],
  ['semverCompare', ['~1', '1.9.0'], 'true'],
  ['semverCompare', ['1.2.x', '1.2.9'], 'true'],
  ['semverCompare', ['1.2.x', '1.3.0'], 'false'],
  ['semverCompare', ['*', '4.5.6'], 'true'],
  ['semverCompare', ['>=1.2.3', '1.2.4'], 'true'],
  ['semverCompare', ['>= 1.2.3, < 2', '1.9.0'], 'true'],
  ['semverCompare', ['>= 1.2.3 < 2', '2.0.0'], 'false'],
  ['semverCompare', ['>1.0 <2.0 || 3.x', '3.1.0'], 'true'],
  ['semverCompare', ['1.2 - 1.4.5', '1.4.5'], 'true'],
  ['semverCompare', ['1.2 - 1.4.5', '1.4.6'], 'false'],
  ['semverCompare', ['>2.1.x', '2.2.0'], 'true'],
  ['semverCompare', ['>2.1.x', '2.1.9'], 'false'],
  ['semverCompare', ['<=2.1.x', '2.1.9'], 'true'],
  ['semverCompare', ['!=1.2.3', '1.2.4'], 'true'],
  ['semverCompare', ['!=1.2.x', '1.2.4'], 'false'],
  ['semverCompare', ['>=1.0.0', '1.2.0-beta'], 'false'],
  ['semverCompare', ['>=1.0.0-0', '1.2.0-beta'], 'true'],
  ['semverCompare', ['>1.2.3-alpha.1', '1.2.3-alpha.2'], 'true'],
  ['semverCompare', ['>1.2.3-alpha.10', '1.2.3-alpha.9'], 'false'],
  ['semverCompare', ['>= 1.24', 'v1.25.3'], 'true'],
  ['semverCompare', ['< 1.25-0', 'v1.24.3+k3s1'], 'true'],
  ['semverCompare', ['>=1.2.3', '01.2.3'], 'true'],
  ['semverCompare', ['bad', '1.0.0'], 'error: improper constraint: bad'],
  ['semverCompare', ['1.0.0', 'bad'], 'error: invalid semantic version'],
  ['semverCompare', ['>=1.2.3-01', '1.2.3'], 'error: constraint parser error'],
  ['semver', ['1.2.3-beta.1+b345'], '1.2.3-beta.1+b345'],
  ['semver', ['v1.2'], '1.2.0'],
  ['semver', ['1.2.3-01'], 'error: version segment starts with 0'],
  ['semver', ['99999999999999999999.0.0'], 'error: error parsing version segment: strconv.ParseUint: parsing "99999999999999999999": value out of range'],
  ['semver', [''], 'error: invalid semantic version'],
]);

describe('semver objects', () => {
  const v = call('semver', 'v1.2.3-beta.1+b345') as GoObject;
  const m = (name: string, ...args: GoValue[]): GoValue => {
    const f = v.method(name);
    if (f === undefined) throw new Error(name);
    return f.call(args);
  };
  it('are a *semver.Version with Go’s methods', () => {
    expect(v.goType).toBe('*semver.Version');
    expect(printValue(m('Major'))).toBe('1');
    expect(typeName(m('Major'))).toBe('uint64');
    expect([m('Minor'), m('Patch')].map(printValue)).toEqual(['2', '3']);
    expect(m('Prerelease')).toBe('beta.1');
    expect(m('Metadata')).toBe('b345');
    expect(m('Original')).toBe('v1.2.3-beta.1+b345');
    expect(m('String')).toBe('1.2.3-beta.1+b345');
    expect(printValue(m('IncMinor'))).toBe('1.3.0');
    expect(printValue(m('Compare', call('semver', '1.2.3')))).toBe('-1');
    expect(m('LessThan', call('semver', '1.2.3'))).toBe(true);
  });
  it('compare by value with deepEqual, as reflect.DeepEqual compares what pointers point to', () => {
    expect(call('deepEqual', call('semver', '1.2.3'), call('semver', '1.2.3'))).toBe(true);
    expect(call('deepEqual', call('semver', '1.2.3'), call('semver', 'v1.2.3'))).toBe(false);
    expect(show('uniq', [call('semver', '1.0.0'), call('semver', '1.0.0')])).toBe('[1.0.0]');
  });
  it('print and marshal as their String()', () => {
    expect(show('toString', v)).toBe('1.2.3-beta.1+b345');
    expect(show('toJson', v)).toBe('"1.2.3-beta.1+b345"');
    expect(show('typeOf', v)).toBe('*semver.Version');
    expect(show('kindOf', v)).toBe('ptr');
  });
});

table('regex (Go RE2)', [
  ['regexMatch', ['^[a-z]+\\[[0-9]+\\]$', 'adam[23]'], 'true'],
  ['regexMatch', ['^[a-z]+$', 'Joe'], 'false'],
  ['regexMatch', ['(', 'x'], 'false'],
  ['mustRegexMatch', ['(', 'x'], 'error: error parsing regexp: missing closing ): `(`'],
  ['regexFind', ['[a-zA-Z][1-9]', 'abcd1234'], 'd1'],
  ['regexFind', ['(', 'x'], 'error: regexp: Compile(`(`): error parsing regexp: missing closing ): `(`'],
  ['mustRegexFind', ['[', 'x'], 'error: error parsing regexp: missing closing ]: `[`'],
  ['regexFindAll', ['[2,4,6,8]', '123456789', -1n], '[2 4 6 8]'],
  ['regexFindAll', ['[2,4,6,8]', '123456789', 2n], '[2 4]'],
  ['regexFindAll', ['x', 'abc', -1n], '[]'],
  ['regexFindAll', ['a*', 'baaac', -1n], '[ aaa ]'],
  ['regexReplaceAll', ['a(x*)b', '-ab-axxb-', '${1}W'], '-W-xxW-'],
  ['regexReplaceAll', ['a(x*)b', '-ab-axxb-', '$1W'], '---'],
  ['regexReplaceAll', ['a(?P<mid>x*)b', '-ab-axxb-', '[$mid]'], '-[]-[xx]-'],
  ['regexReplaceAll', ['a(x*)b', '-ab-', '$$'], '-$-'],
  ['regexReplaceAll', ['a*', 'baaac', 'X'], 'XbXcX'],
  ['regexReplaceAllLiteral', ['a(x*)b', '-ab-axxb-', '${1}'], '-${1}-${1}-'],
  ['regexSplit', ['z+', 'pizza', -1n], '[pi a]'],
  ['regexSplit', ['z+', 'pizza', 1n], '[pizza]'],
  ['regexSplit', ['z+', 'pizza', 0n], '[]'],
  ['regexSplit', ['a', 'banana', -1n], '[b n n ]'],
  ['regexSplit', ['', 'abc', -1n], '[a b c]'],
  ['regexFind', ['(?i)HELLO', 'say hello'], 'hello'],
  ['regexFind', ['\\bfoo\\b', 'a foo b'], 'foo'],
  ['regexFind', ['(a|ab)(c|bcd)', 'abcd'], 'abcd'],
  ['regexFind', ['a+?', 'aaa'], 'a'],
  ['regexFind', ['\\d+', 'v1.25.3'], '1'],
  ['regexFind', ['[[:alpha:]]+', '123abc'], 'abc'],
  ['regexFind', ['\\pL+', '12ünï'], 'ünï'],
  ['regexFind', ['(?s)a.b', 'a\nb'], 'a\nb'],
  ['regexFind', ['a.b', 'a\nb'], ''],
  ['regexFind', ['(?m)^b$', 'a\nb\nc'], 'b'],
  ['regexFind', ['\\Qa.b\\E', 'axb a.b'], 'a.b'],
  ['regexQuoteMeta', ['1.2.3+[x]'], '1\\.2\\.3\\+\\[x\\]'],
  // Examples from Go's regexp documentation.
  ['regexReplaceAll', ['a(x*)b', '-ab-axxb-', 'T'], '-T-T-'],
  ['regexReplaceAll', ['a(x*)b', '-ab-axxb-', '$1'], '--xx-'],
  ['regexReplaceAll', ['(?P<first>[a-zA-Z]+) (?P<last>[a-zA-Z]+)', 'Alan Turing', '${last} ${first}'], 'Turing Alan'],
  ['regexReplaceAll', ['x*', 'abc', '-'], '-a-b-c-'],
  ['regexFindAll', ['a.', 'paranormal', -1n], '[ar an al]'],
  ['regexFindAll', ['a.', 'paranormal', 2n], '[ar an]'],
  ['regexFindAll', ['a.', 'graal', -1n], '[aa]'],
  ['regexSplit', ['a', 'banana', 0n], '[]'],
  ['regexSplit', ['a', 'banana', 1n], '[banana]'],
  ['regexSplit', ['a', 'banana', 2n], '[b nana]'],
  ['regexSplit', ['z+', 'pizza', 2n], '[pi a]'],
  ['regexSplit', ['x', '', -1n], '[]'],
  ['regexFind', ['(?U)a+', 'aaa'], 'a'],
  ['regexFind', ['^$', ''], ''],
  ['regexMatch', ['^$', ''], 'true'],
  ['regexFind', ['[^\\x00-\\x{7F}]+', 'abc日本語def'], '日本語'],
  ['regexFind', ['\\S+$', 'a 😀x'], '😀x'],
  ['regexReplaceAll', ['(?<word>a)', 'xa', '<${word}>'], 'x<a>'],
  ['mustRegexFind', ['(?z)', 'a'], 'error: error parsing regexp: invalid or unsupported Perl syntax: `(?z`'],
  ['mustRegexFind', ['a**', 'a'], 'error: error parsing regexp: invalid nested repetition operator: `**`'],
]);

table('paths and URLs', [
  ['base', ['/foo/bar/baz.txt'], 'baz.txt'],
  ['base', ['/foo/bar/'], 'bar'],
  ['base', [''], '.'],
  ['base', ['///'], '/'],
  ['dir', ['/foo/bar/baz'], '/foo/bar'],
  ['dir', ['baz'], '.'],
  ['clean', ['/foo/../bar//./baz/'], '/bar/baz'],
  ['clean', ['../../a'], '../../a'],
  ['clean', ['/../a'], '/a'],
  ['ext', ['/foo/bar/baz.tar.gz'], '.gz'],
  ['ext', ['/foo.d/bar'], ''],
  ['isAbs', ['/foo'], 'true'],
  ['isAbs', ['foo'], 'false'],
  ['osBase', ['/a/b'], 'b'],
  [
    'urlParse',
    ['https://user:pass@example.com:8080/path/to?query=1#frag'],
    'map[fragment:frag host:example.com:8080 hostname:example.com opaque: path:/path/to query:query=1 scheme:https userinfo:user:pass]',
  ],
  ['urlParse', ['mailto:me@example.com'], 'map[fragment: host: hostname: opaque:me@example.com path: query: scheme:mailto userinfo:]'],
  ['urlParse', [':bad'], 'error: unable to parse url: parse ":bad": missing protocol scheme'],
  ['urlJoin', [dict({ scheme: 'https', host: 'example.com', path: '/a b', query: 'x=1', fragment: 'f g' })], 'https://example.com/a%20b?x=1#f%20g'],
  ['urlJoin', [dict({ scheme: 'https', host: 'example.com', userinfo: 'u:p@ss' })], 'https://u:p%40ss@example.com'],
  ['urlJoin', [dict({ host: 'example.com', path: 'rel' })], '//example.com/rel'],
  ['urlParse', ['https://us er@example.com/'], 'error: unable to parse url: parse "https://us er@example.com/": net/url: invalid userinfo'],
  ['urlParse', ['https://u%zz@example.com/'], 'error: unable to parse url: parse "https://u%zz@example.com/": invalid URL escape "%zz"'],
  ['urlParse', ['https://a%40b:c%3Ad@example.com/'], 'map[fragment: host:example.com hostname:example.com opaque: path:/ query: scheme:https userinfo:a%40b:c%3Ad]'],
  ['urlJoin', [dict({ host: 'h', userinfo: 'a b' })], 'error: unable to parse userinfo in dict: parse "proto://a b@host": net/url: invalid userinfo'],
  ['urlJoin', [dict({ path: 'a:b' })], './a:b'],
  ['urlJoin', [dict({ host: 1n })], 'error: unable to parse host key, must be of type string, but int found'],
]);

table('crypto', [
  ['derivePassword', [new GoNumber('uint32', 1n), 'long', 'password', 'user', 'example.com'], 'ZedaFaxcZaso9*'],
  ['derivePassword', [new GoNumber('uint32', 1n), 'nope', 'password', 'user', 'example.com'], 'cannot find password template nope'],
  ['htpasswd', ['bad:user', 'pw'], 'invalid username: bad:user'],
  ['genPrivateKey', ['xyz'], 'Unknown type xyz'],
  ['encryptAES', ['key', ''], ''],
  ['decryptAES', ['key', ''], ''],
  ['decryptAES', ['key', 'c2hvcnQ='], 'error: runtime error: slice bounds out of range [:16] with length 5'],
  ['decryptAES', ['key', 'not base64!'], 'error: illegal base64 data at input byte 3'],
]);

describe('crypto that needs fresh randomness', () => {
  it('round-trips encryptAES through decryptAES, stable across calls', () => {
    const secret = call('encryptAES', 'secretkey', 'plaintext');
    expect(call('decryptAES', 'secretkey', secret)).toBe('plaintext');
    expect(call('encryptAES', 'secretkey', 'plaintext')).toBe(secret);
  });
  it.each(['genCA', 'genSelfSignedCert', 'bcrypt', 'genPrivateKey'])('%s fails clearly instead of inventing keys', (name) => {
    const f = funcs[name];
    const args: GoValue[] = f?.params.map((p) => (p === 'int' ? 365n : p === 'string' ? 'rsa' : [])) ?? [];
    expect(show(name, ...args)).toMatch(/^error: capiform: .* cannot be reproduced offline$/);
  });
});

table('durations', [
  ['duration', ['95'], '1m35s'],
  ['duration', [int64(3661n)], '1h1m1s'],
  ['duration', [95.0], '0s'],
  ['duration', ['x'], '0s'],
  ['duration', ['0'], '0s'],
  ['durationRound', ['2h10m5s'], '2h'],
  ['durationRound', ['-3h'], '3h'],
  ['durationRound', ['400h'], '16d'],
  ['durationRound', ['2000h'], '2mo'],
  ['durationRound', ['9000h'], '1y'],
  ['durationRound', [int64(1500000000n)], '1s'],
  ['durationRound', ['bad'], '0s'],
  ['ago', [null], 'error: capiform: ago is not supported: it reads the current time, so CAPI gets a different result on every reconcile'],
]);

describe('values that contain themselves', () => {
  it('stop with an error instead of exhausting the stack', () => {
    const d = dict({ a: 1n });
    d.set('self', d);
    expect(show('toJson', d)).toBe('');
    expect(show('mustToJson', d)).toBe('error: json: unsupported value: encountered a cycle via map[string]interface {}');
    expect(show('deepCopy', d)).toMatch(/^error: deepCopy error: capiform: the value nests deeper than 1000 levels/);
    expect(show('deepEqual', d, d)).toBe('true');
  });
});

describe('bounded output', () => {
  it('stops a function that would build a huge string or list, where Go would run out of memory', () => {
    expect(show('repeat', 100_000_000n, 'ab')).toMatch(/^error: capiform: repeat would hold 200000000 elements/);
    expect(show('indent', 5_000_000n, 'a\nb\nc')).toMatch(/^error: capiform: indent would hold/);
    expect(show('until', 100_000_000n)).toMatch(/^error: capiform: untilStep would hold 100000000 elements/);
    expect(show('seq', 1n, 100_000_000n)).toMatch(/^error: capiform: untilStep would hold/);
  });
});

describe('strconv as sprig reaches it, shared with the template parser', () => {
  it('stops ParseInt at the first overflow: a range error with the clamped bound, even before a bad digit', () => {
    // duration ignores ParseInt's error and uses the value Go returns with it.
    expect(show('duration', '99999999999999999999x')).toBe(show('duration', '9223372036854775807'));
    expect(show('duration', '12x')).toBe('0s');
  });

  it('rounds a long hexadecimal mantissa once, as ParseFloat does', () => {
    // 1 + 129×2⁻⁶⁰ is nearer 1 + 2⁻⁵² than 1; rounding digit by digit would give 1.
    expect(show('float64', '0x1.000000000000081p0')).toBe('1.0000000000000002');
    expect(show('float64', '-Infinity')).toBe('-Inf');
    expect(show('float64', '+nan')).toBe('0');
  });
});
