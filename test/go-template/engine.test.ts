/**
 * The engine as the topology controller uses it: variables decoded from JSON, a function map, missingkey options,
 * Go's exact errors, and the bounds that keep a hostile template from exhausting memory or the stack.
 */
import { describe, expect, it } from 'vitest';
import { GoFuncError, GoNumber, GoObject, GoTemplateError, type GoFunc, type GoValue, goFunc, goValueFromJSON, goValueToJSON, maxOutputBytes, parseTemplate, typedMap, typedSlice } from '../../src/go/template/index.js';
import { runJSON } from './fixtures.js';

describe('goValueFromJSON: encoding/json into interface{}', () => {
  it.each([
    [{ x: 3 }, '3'],
    [{ x: 2.5 }, '2.5'],
    [{ x: 1e21 }, '1e+21'],
    [{ x: 10000000 }, '1e+07'],
    [{ x: 'v1.30.0' }, 'v1.30.0'],
    [{ x: true }, 'true'],
    [{ x: null }, '<no value>'],
    [{ x: [1, 'a', null, { b: 1 }] }, '[1 a <nil> map[b:1]]'],
    [{ x: { z: 1, a: { c: [], b: {} } } }, 'map[a:map[b:map[] c:[]] z:1]'],
  ])('{{ .x }} of %j prints %s', (data, out) => {
    expect(runJSON('{{ .x }}', data)).toEqual({ out });
  });

  it('types numbers as float64, objects as map[string]interface {}, arrays as []interface {}', () => {
    expect(runJSON('{{ printf "%T %T %T %T" .n .o .a .s }}', { n: 1, o: {}, a: [], s: '' })).toEqual({
      out: 'float64 map[string]interface {} []interface {} string',
    });
  });
});

describe('goValueToJSON', () => {
  it('turns every kind the model has back into JSON data, map keys sorted', () => {
    const m = typedMap(new Map<string, GoValue>([['b', 1n], ['a', new GoNumber('uint8', 7n)]]), 'int');
    const v = new Map<string, GoValue>([['m', m], ['s', typedSlice(['x'], 'string')], ['f', 1.5], ['t', true], ['n', null]]);
    expect(JSON.stringify(goValueToJSON(v))).toBe('{"f":1.5,"m":{"a":7,"b":1},"n":null,"s":["x"],"t":true}');
    expect(goValueToJSON(goValueFromJSON({ a: [1, { b: null }] }))).toEqual({ a: [1, { b: null }] });
  });
  it('keeps a __proto__ key as data', () => {
    const back = goValueToJSON(goValueFromJSON(JSON.parse('{"__proto__":{"x":1}}'))) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(['__proto__']);
    expect(JSON.stringify(back)).toBe('{"__proto__":{"x":1}}');
  });
  it('refuses what JSON cannot hold', () => {
    expect(() => goValueToJSON(NaN)).toThrow('json: unsupported value: NaN');
    expect(() => goValueToJSON(goFunc('f', [], ['string'], () => ''))).toThrow('json: unsupported type: func() string');
  });
});

describe('missingkey', () => {
  const data = { cluster: { name: 'c1' } };
  it('default prints <no value>', () => {
    expect(runJSON('{{ .cluster.namespace }}', data)).toEqual({ out: '<no value>' });
  });
  it('zero prints the zero value of interface{}: still <no value>', () => {
    expect(runJSON('{{ .cluster.namespace }}', data, { missingKey: 'zero' })).toEqual({ out: '<no value>' });
  });
  it('error names the key (the naming templates run with missingkey=error)', () => {
    expect(runJSON('{{ .cluster.name }}-{{ .random }}', data, { missingKey: 'error' })).toEqual({
      err: 'template: t:1:23: executing "t" at <.random>: map has no entry for key "random"',
    });
  });
  it('a field of nil is an error in every mode', () => {
    expect(runJSON('{{ .a.b }}', { a: null })).toEqual({
      err: 'template: t:1:5: executing "t" at <.a.b>: nil pointer evaluating interface {}.b',
    });
  });
  it('a field of a string names the interface type it came from', () => {
    expect(runJSON('{{ .a.b }}', { a: 'x' })).toEqual({
      err: 'template: t:1:5: executing "t" at <.a.b>: can\'t evaluate field b in type interface {}',
    });
  });
});

const upper = goFunc('upper', ['string'], ['string'], ([s]) => (s as string).toUpperCase());
const fail = goFunc('fail', ['string'], ['string', 'error'], ([s]) => {
  throw new GoFuncError(s as string);
});
const atLeast = goFunc('atLeast', ['int', 'interface {}'], ['bool'], () => true, true);

describe('function calls', () => {
  const funcs = { upper, fail, atLeast };
  it('converts and checks arguments by the Go parameter types', () => {
    expect(runJSON('{{ upper .s }} {{ .s | upper }}', { s: 'x' }, { funcs })).toEqual({ out: 'X X' });
    expect(runJSON('{{ upper .n }}', { n: 1 }, { funcs })).toEqual({
      err: 'template: t:1:9: executing "t" at <.n>: wrong type for value; expected string; got float64',
    });
    expect(runJSON('{{ upper .missing }}', {}, { funcs })).toEqual({
      err: 'template: t:1:9: executing "t" at <.missing>: invalid value; expected string',
    });
    expect(runJSON('{{ upper nil }}', {}, { funcs })).toEqual({
      err: 'template: t:1:9: executing "t" at <nil>: cannot assign nil to string',
    });
    expect(runJSON('{{ upper 1 }}', {}, { funcs })).toEqual({
      err: 'template: t:1:9: executing "t" at <1>: expected string; found 1',
    });
    expect(runJSON('{{ upper "a" "b" }}', {}, { funcs })).toEqual({
      err: 'template: t:1:3: executing "t" at <upper>: wrong number of args for upper: want 1 got 2',
    });
    expect(runJSON('{{ atLeast }}', {}, { funcs })).toEqual({
      err: 'template: t:1:3: executing "t" at <atLeast>: wrong number of args for atLeast: want at least 1 got 0',
    });
  });
  it('reports a Go error result as error calling', () => {
    expect(runJSON('{{ fail "boom" }}', {}, { funcs })).toEqual({
      err: 'template: t:1:3: executing "t" at <fail "boom">: error calling fail: boom',
    });
  });
  it('rejects functions that are neither in the map nor builtin at parse time', () => {
    expect(() => parseTemplate('t', '{{ toYaml . }}')).toThrow(
      expect.objectContaining({ phase: 'parse', message: 'template: t:1: function "toYaml" not defined' }),
    );
  });
  it('calls methods of objects, with the receiver bound', () => {
    class Version extends GoObject {
      readonly goType = '*semver.Version';
      constructor(readonly major: bigint) {
        super();
      }
      override method(name: string): GoFunc | undefined {
        if (name === 'Major') return goFunc('Major', [], ['uint64'], () => new GoNumber('uint64', this.major));
        if (name === 'GreaterThan') {
          return goFunc('GreaterThan', ['*semver.Version'], ['bool'], ([o]) => this.major > (o as Version).major);
        }
        return undefined;
      }
      format(): string {
        return `${this.major}.0.0`;
      }
    }
    const data = new Map<string, GoValue>([['v', new Version(2n)], ['w', new Version(1n)]]);
    expect(parseTemplate('t', '{{ .v }} {{ .v.Major }} {{ .v.GreaterThan .w }} {{ printf "%T" .v }}').execute(data)).toBe(
      '2.0.0 2 true *semver.Version',
    );
    expect(() => parseTemplate('t', '{{ .v.Minor }}').execute(data)).toThrow(
      'template: t:1:5: executing "t" at <.v.Minor>: can\'t evaluate field Minor in type interface {}',
    );
  });
});

describe('errors', () => {
  it('are GoTemplateError with the phase', () => {
    try {
      parseTemplate('t', '{{ index . 3 }}').execute([]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(GoTemplateError);
      expect((e as GoTemplateError).phase).toBe('exec');
    }
  });
});

describe('bounds', () => {
  it('stops output beyond the cap', () => {
    const got = runJSON('{{ range 100000000 }}0123456789{{ end }}', {});
    expect(got).toEqual({ err: `template: t:1:21: executing "t" at <0123456789>: output exceeds ${maxOutputBytes} bytes` });
  });
  it('stops runaway recursion with Go\'s message', () => {
    const got = runJSON('{{ define "a" }}{{ template "a" . }}{{ end }}{{ template "a" . }}', {});
    expect('err' in got && got.err).toMatch(/exceeded maximum template depth \(1000\)$/);
  });
  it('refuses nesting deeper than the stack holds instead of crashing', () => {
    const deep = `${'{{if true}}'.repeat(20000)}x${'{{end}}'.repeat(20000)}`;
    expect(() => parseTemplate('t', deep)).toThrow(new GoTemplateError('parse', 'template: t: max expression depth exceeded'));
  });
  it('stops long loops that print nothing', () => {
    const got = runJSON('{{ range 100000000 }}{{ end }}', {});
    expect('err' in got && got.err).toMatch(/execution exceeds 10000000 steps$/);
  });
});

describe('trim markers and comments', () => {
  it.each([
    ['a  {{- "b" -}}  c', 'abc'],
    ['a\n{{- /* comment */ -}}\n c', 'ac'],
    ['{{- 3 }} {{-3}}', '3 -3'],
    ['{{ if true -}}\n  yes\n{{- end }}', 'yes'],
  ])('%j', (text, out) => {
    expect(runJSON(text, {})).toEqual({ out });
  });
});
