// Kubernetes CEL for x-kubernetes-validations: rule tables ported from apiextensions-apiserver
// (pkg/apiserver/schema/cel/validation_test.go, compilation_test.go) and the apiserver CEL library tests.
import { describe, expect, it } from 'vitest';
import {
  checkCelSchema,
  estimateCelCost,
  preexistingRulesOf,
  validateCelRules,
  type JSONSchemaProps,
} from '../index.js';

const integer: JSONSchemaProps = { type: 'integer' };
const number: JSONSchemaProps = { type: 'number' };
const string: JSONSchemaProps = { type: 'string' };
const boolean: JSONSchemaProps = { type: 'boolean' };
const bytes: JSONSchemaProps = { type: 'string', format: 'byte' };
const durationFormat: JSONSchemaProps = { type: 'string', format: 'duration' };
const dateFormat: JSONSchemaProps = { type: 'string', format: 'date' };
const dateTimeFormat: JSONSchemaProps = { type: 'string', format: 'date-time' };
const list = (items: JSONSchemaProps, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'array', items, ...extra });
const map = (values: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', additionalProperties: values });
const object = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties,
  ...extra,
});

/** `val1`, `val2`… properties, as the upstream `objs`/`schemas` helpers build them. */
function vals(...pairs: [JSONSchemaProps, unknown][]): { schema: JSONSchemaProps; value: Record<string, unknown> } {
  const properties: Record<string, JSONSchemaProps> = {};
  const value: Record<string, unknown> = {};
  pairs.forEach(([s, v], i) => {
    properties[`val${i + 1}`] = s;
    value[`val${i + 1}`] = v;
  });
  return { schema: object(properties), value };
}

function withRule(schema: JSONSchemaProps, rule: string): JSONSchemaProps {
  return { ...schema, 'x-kubernetes-validations': [{ rule }] };
}

function messagesFor(schema: JSONSchemaProps, value: unknown, rule: string, old?: unknown, resourceRoot = false): string[] {
  return validateCelRules(withRule(schema, rule), value, old, 'root', { resourceRoot }).map((e) => e.message);
}

interface Table {
  name: string;
  schema: JSONSchemaProps;
  value: unknown;
  old?: unknown;
  resourceRoot?: boolean;
  valid?: string[];
  /** rule → text the error must contain */
  errors?: Record<string, string>;
}

/** The upstream `ValsEqualThemselvesAndDataLiteral`. */
function equalsThemselvesAndLiteral(a: string, b: string, literal: string): string {
  return `${a} == ${b} && ${a} == ${literal} && ${literal} == ${a} && ${a} == ${a} && ${b} == ${b} && ${b} == ${literal}`;
}

function runTables(tables: Table[]): void {
  for (const t of tables) {
    describe(t.name, () => {
      for (const rule of t.valid ?? []) {
        it(`passes: ${rule}`, () => {
          expect(messagesFor(t.schema, t.value, rule, t.old, t.resourceRoot)).toEqual([]);
        });
      }
      for (const [rule, text] of Object.entries(t.errors ?? {})) {
        it(`fails: ${rule}`, () => {
          const messages = messagesFor(t.schema, t.value, rule, t.old, t.resourceRoot);
          expect(messages).toHaveLength(1);
          expect(messages[0]).toContain(text);
        });
      }
    });
  }
}

describe('validateCelRules: rule tables', () => {
  const ints = vals([integer, 9007199254740991], [integer, 9007199254740991], [integer, 2147483647], [integer, 2147483647]);
  const strs = vals([string, 'Rook takes 👑'], [string, 'Rook takes 👑']);
  runTables([
    {
      name: 'integers',
      ...ints,
      valid: [
        equalsThemselvesAndLiteral('self.val1', 'self.val2', '9007199254740991'),
        equalsThemselvesAndLiteral('self.val3', 'self.val4', '2147483647'),
        'type(self.val1) == int',
        'self.val3 + 1 == 2147483647 + 1',
        'self.val1 - self.val3 > 0',
        'self.val3 % 2 == 1',
        'self.val3 / 2 == 1073741823',
      ],
      errors: {
        '9223372036854775807 + self.val1 == 0': 'integer overflow',
        '1 / 0 == 1 / 0': 'division by zero',
        'self.val3 % 0 == 1': 'modulus by zero',
      },
    },
    {
      name: 'numbers',
      ...vals([number, 1.5], [number, 1.5], [number, 1]),
      valid: [
        equalsThemselvesAndLiteral('self.val1', 'self.val2', '1.5'),
        'type(self.val1) == double',
        'type(self.val3) == double',
        'self.val3 == 1.0',
        'self.val1 * 2.0 == 3.0',
      ],
    },
    {
      name: 'numeric comparisons',
      ...vals([integer, 5], [integer, 10], [integer, 15], [number, 10.0], [number, 10]),
      valid: [
        'double(self.val1) < self.val4',
        'double(self.val2) == self.val4',
        'double(self.val3) > self.val4',
        'self.val1 < int(self.val4)',
        'self.val2 == int(self.val4)',
        'self.val3 > int(self.val5)',
        'double(5) < 10.0',
        '10 == int(10.0)',
        'self.val1 < self.val4',
        'self.val2 <= self.val4',
        'self.val3 >= self.val4',
        '5 < 10.0',
        '15 > 10.0',
        'self.val1 < 10.0',
      ],
      errors: {
        'self.val2 == self.val4': "found no matching overload for '_==_' applied to '(int, double)'",
      },
    },
    {
      name: 'unicode strings',
      ...strs,
      valid: [
        equalsThemselvesAndLiteral('self.val1', 'self.val2', "'Rook takes 👑'"),
        "self.val1.startsWith('Rook')",
        "!self.val1.startsWith('knight')",
        "self.val1.contains('takes')",
        "!self.val1.contains('gives')",
        "self.val1.endsWith('👑')",
        "!self.val1.endsWith('pawn')",
        "self.val1.matches('^[^0-9]*$')",
        "!self.val1.matches('^[0-9]*$')",
        'type(self.val1) == string',
        'size(self.val1) == 12',
        "self.val1.charAt(3) == 'k'",
        "self.val1.indexOf('o') == 1",
        "self.val1.indexOf('o', 2) == 2",
        "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'",
        "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'",
        "self.val1.split(' ') == ['Rook', 'takes', '👑']",
        "self.val1.split(' ', 2) == ['Rook', 'takes 👑']",
        "self.val1.substring(5) == 'takes 👑'",
        "self.val1.substring(0, 4) == 'Rook'",
        "self.val1.substring(4, 10).trim() == 'takes'",
        "self.val1.upperAscii() == 'ROOK TAKES 👑'",
        "self.val1.lowerAscii() == 'rook takes 👑'",
        "'%o %o %o'.format([7, 8, 9]) == '7 10 11'",
        "'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'",
        "strings.quote('a\"b') == '\"a\\\\\"b\"'",
      ],
      errors: {
        "self.val1.matches(')')": 'compilation failed: ERROR: <input>:1:19: invalid matches argument',
      },
    },
    {
      name: 'escaped strings',
      ...vals([string, 'l1\nl2'], [string, 'l1\nl2']),
      valid: [equalsThemselvesAndLiteral('self.val1', 'self.val2', "'l1\\nl2'"), "self.val1 == '''l1\nl2'''"],
    },
    {
      name: 'bytes',
      ...vals([bytes, 'QUI='], [bytes, 'QUI=']),
      valid: ['self.val1 == self.val2', "self.val1 == b'AB'", "self.val1 == bytes('AB')", "self.val1 == b'\\x41\\x42'", 'type(self.val1) == bytes', 'size(self.val1) == 2'],
    },
    {
      name: 'booleans',
      ...vals([boolean, true], [boolean, true], [boolean, false], [boolean, false]),
      valid: [
        equalsThemselvesAndLiteral('self.val1', 'self.val2', 'true'),
        equalsThemselvesAndLiteral('self.val3', 'self.val4', 'false'),
        'self.val1 != self.val4',
        'type(self.val1) == bool',
      ],
    },
    {
      name: 'duration format',
      ...vals([durationFormat, '1h2m3s4ms'], [durationFormat, '1h2m3s4ms']),
      valid: [
        equalsThemselvesAndLiteral('self.val1', 'self.val2', "duration('1h2m3s4ms')"),
        "self.val1 == duration('1h2m') + duration('3s4ms')",
        'self.val1.getHours() == 1',
        'self.val1.getMinutes() == 62',
        'self.val1.getSeconds() == 3723',
        'self.val1.getMilliseconds() == 3723004',
        'type(self.val1) == google.protobuf.Duration',
      ],
      errors: {
        "duration('1')": 'compilation failed: ERROR: <input>:1:10: invalid duration argument',
        "duration('1d')": 'compilation failed: ERROR: <input>:1:10: invalid duration argument',
        "duration('1us') < duration('1nns')": 'compilation failed: ERROR: <input>:1:28: invalid duration argument',
      },
    },
    {
      name: 'date format',
      ...vals([dateFormat, '1997-07-16'], [dateFormat, '1997-07-16']),
      valid: [
        equalsThemselvesAndLiteral('self.val1', 'self.val2', "timestamp('1997-07-16T00:00:00.000Z')"),
        'self.val1.getDate() == 16',
        'self.val1.getMonth() == 06',
        'self.val1.getFullYear() == 1997',
        'type(self.val1) == google.protobuf.Timestamp',
      ],
    },
    {
      name: 'date-time format',
      ...vals([dateTimeFormat, '2011-08-18T19:03:37.010000000+01:00'], [dateTimeFormat, '2011-08-18T19:03:37.010000000+01:00']),
      valid: [
        equalsThemselvesAndLiteral('self.val1', 'self.val2', "timestamp('2011-08-18T19:03:37.010+01:00')"),
        "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
        "self.val1.getDate('01:00') == 18",
        "self.val1.getMonth('01:00') == 7",
        "self.val1.getFullYear('01:00') == 2011",
        "self.val1.getHours('01:00') == 19",
        "self.val1.getMinutes('01:00') == 03",
        "self.val1.getSeconds('01:00') == 37",
        "self.val1.getMilliseconds('01:00') == 10",
        "self.val1.getHours('UTC') == 18",
        'type(self.val1) == google.protobuf.Timestamp',
      ],
      errors: {
        "timestamp('1000-00-00T00:00:00Z')": 'compilation failed: ERROR: <input>:1:11: invalid timestamp',
        "timestamp('1000-01-01T00:00:00ZZ')": 'compilation failed: ERROR: <input>:1:11: invalid timestamp',
      },
    },
    {
      name: 'enums',
      schema: object({ enumStr: { type: 'string', enum: ['Pending', 'Available', 'Bound', 'Released', 'Failed'] } }),
      value: { enumStr: 'Pending' },
      valid: ["self.enumStr == 'Pending'", "self.enumStr in ['Pending', 'Available']"],
    },
    {
      name: 'conversions',
      ...vals(
        [integer, 10],
        [number, 10.0],
        [number, 10.49],
        [number, 10.5],
        [boolean, true],
        [string, '10'],
        [bytes, 'MTA='],
        [string, '3723.004s'],
        [durationFormat, '1h2m3s4ms'],
      ),
      valid: [
        'int(self.val2) == self.val1',
        'int(self.val3) == self.val1',
        'int(self.val4) == self.val1',
        'int(self.val6) == self.val1',
        'double(self.val1) == self.val2',
        'double(self.val6) == self.val2',
        'bytes(self.val6) == self.val7',
        'string(self.val1) == self.val6',
        "string(self.val2) == '10'",
        "string(self.val3) == '10.49'",
        "string(self.val4) == '10.5'",
        "string(self.val5) == 'true'",
        'string(self.val7) == self.val6',
        'duration(self.val8) == self.val9',
      ],
    },
    {
      name: 'lists',
      ...vals([list(integer), [1, 2, 3]], [list(integer), [1, 2, 3]]),
      valid: [
        equalsThemselvesAndLiteral('self.val1', 'self.val2', '[1, 2, 3]'),
        '1 in self.val1',
        'self.val2[0] in self.val1',
        '!(0 in self.val1)',
        'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]',
        'self.val1 + [4, 5] == [1, 2, 3, 4, 5]',
        'self.val1.map(x, x * 2) == [2, 4, 6]',
        'self.val1.filter(x, x > 1) == [2, 3]',
        'self.val1.exists_one(x, x == 2)',
        'self.val1.all(x, x > 0)',
        'self.val1.exists(x, x == 3)',
      ],
      errors: {
        "[1, 'a', false].filter(x, string(x) == 'a')": "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'",
        'self.val1[3] == 1': 'index out of bounds: 3',
      },
    },
    {
      name: 'ext lists version 3',
      ...vals([list(integer), [1, 2, 3]]),
      valid: [
        'lists.range(4) == [0,1,2,3]',
        'lists.range(0) == []',
        '[5,1,2,3].reverse() == [3,2,1,5]',
        '[].reverse() == []',
        "['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']",
        '[1,2,3,4].slice(0, 4) == [1,2,3,4]',
        '[1,2,3,4].slice(1, 3) == [2, 3]',
        '[1,2,3,4].slice(4, 4) == []',
        'dyn([1,2,3,4]).flatten() == [1,2,3,4]',
        '[[1],[2],[3,4]].flatten() == [1,2,3,4]',
        '[4, 3, 2, 1].sort() == [1, 2, 3, 4]',
        '["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]',
        '[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]',
        '[[1], [1], [2]].distinct() == [[1], [2]]',
        'self.val1.reverse() == [3, 2, 1]',
        'self.val1.all(i, v, v == i + 1)',
        'self.val1.transformList(i, v, v * i) == [0, 2, 6]',
        'self.val1.transformList(i, v, i > 0, v) == [2, 3]',
        '!self.val1.exists(i, v, v == i)',
        'self.val1.all(i, v, self.val1.all(j, w, i < j ? v < w : true))',
      ],
      errors: {
        '[1,2,3,4].slice(3, 0) != [1,2]': 'cannot slice(3, 0), start index must be less than or equal to end index',
        '[1,2,3,4].slice(0, 10) != [1,2]': 'cannot slice(0, 10), list is length 4',
        '[1,2,3,4].slice(-5, 10) != [1,2]': 'cannot slice(-5, 10), negative indexes not supported',
        '[[1],[2],[3,4]].flatten(-1) == [1,2,3,4]': 'level must be non-negative evaluating rule: [[1],[2],[3,4]].flatten(-1) == [1,2,3,4]',
        '["d", 3, 2, "c"].sort() == ["a", "b", "c", "d"]': "expected type 'string' but found 'int'",
      },
    },
    {
      name: 'string lists',
      ...vals([list(string), ['a', 'b', 'c']]),
      valid: ["self.val1.join('-') == 'a-b-c'", "['a', 'b', 'c'].join('-') == 'a-b-c'", "self.val1.join() == 'abc'", "['a', 'b', 'c'].join() == 'abc'"],
    },
    {
      name: 'sets',
      ...vals([list(string), ['a', 'b', 'c']]),
      valid: [
        "sets.contains(['a', 'b'], [])",
        "sets.contains(['a', 'b'], ['b'])",
        "!sets.contains(['a', 'b'], ['c'])",
        'sets.equivalent([], [])',
        "sets.equivalent(['c', 'b', 'a'], ['b', 'c', 'a'])",
        "!sets.equivalent(['a', 'b'], ['b', 'c'])",
        "sets.intersects(['a', 'b'], ['b', 'c'])",
        '!sets.intersects([], [])',
        "!sets.intersects(['a', 'b'], [])",
        "!sets.intersects(['a', 'b'], ['c', 'd'])",
        'sets.contains([1, 2], [2])',
        'sets.contains([true, false], [false])',
        'sets.contains([1.25, 1.5], [1.5])',
        "sets.contains([{'a': 1}, {'b': 2}], [{'b': 2}])",
        'sets.contains([[1, 2], [3, 4]], [[3, 4]])',
        "sets.contains([duration('1h'), duration('2h')], [duration('2h')])",
        'sets.equivalent([1, 2], [1, 2])',
        "sets.equivalent([{'a': 1}, {'b': 2}], [{'a': 1}, {'b': 2}])",
        "sets.intersects([timestamp('2000-01-01T00:00:00.000+01:00'), timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
        "sets.contains(self.val1, ['c'])",
      ],
    },
    {
      name: 'maps',
      ...vals([map(string), { k1: 'a', k2: 'b' }], [map(string), { k2: 'b', k1: 'a' }]),
      valid: ['self.val1 == self.val2', "'k1' in self.val1", "!('k3' in self.val1)", "self.val1 == {'k1': 'a', 'k2': 'b'}"],
      errors: {
        "{'k1': 'a', 'k2': 1, 'k2': false}": "expected type 'string' but found 'int'",
      },
    },
    {
      name: 'objects',
      schema: object({ objs: list(object({ f1: string, f2: string })) }),
      value: { objs: [{ f1: 'a', f2: 'b' }, { f1: 'a', f2: 'b' }] },
      valid: ['self.objs[0] == self.objs[1]'],
      errors: {
        "self.objs[0] == {'f1': 'a', 'f2': 'b'}": "found no matching overload for '_==_'",
      },
    },
    {
      name: 'object access',
      schema: object({
        a: object({ b: integer, c: integer, d: { type: 'integer', nullable: true } }),
        a1: object({ b1: object({ c1: integer }), d2: object({ e2: integer }) }),
      }),
      value: { a: { b: 1, d: null }, a1: { b1: { c1: 4 } }, a3: {} },
      valid: ['has(self.a.b)', '!has(self.a.c)', '!has(self.a.d)', 'has(self.a1.b1.c1)', '!(has(self.a1.d2) && has(self.a1.d2.e2))', '!has(self.a1.d2)'],
      errors: {
        'has(self.a.z)': "undefined field 'z'",
        "self.a['b'] == 1": "no matching overload for '_[_]'",
        'has(self.a1.d2.e2)': 'no such key: d2',
      },
    },
    {
      name: 'map access',
      schema: object({ val: map(integer) }),
      value: { val: { b: 1, d: 2 } },
      valid: [
        "!('a' in self.val)",
        "'b' in self.val",
        "!('c' in self.val)",
        "'d' in self.val",
        '!has(self.val.a)',
        'has(self.val.b)',
        '!has(self.val.c)',
        'has(self.val.d)',
        'self.val.all(k, self.val[k] > 0)',
        'self.val.exists(k, self.val[k] > 1)',
        'self.val.exists_one(k, self.val[k] == 2)',
        '!self.val.exists(k, self.val[k] > 2)',
        '!self.val.exists_one(k, self.val[k] > 0)',
        'size(self.val) == 2',
        'self.val.map(k, self.val[k]).exists(v, v == 1)',
        'size(self.val.filter(k, self.val[k] > 1)) == 1',
        'self.val.all(k, v, v > 0)',
        'self.val.exists(k, v, v == 2)',
        'self.val.existsOne(k, v, v == 2)',
        'self.val.transformMap(k, v, v > 1, v + 1).size() == 1',
        'self.val.transformMap(k, v, v + 1).size() == 2',
        "self.val.transformMap(k, v, v + 1) == {'b': 2, 'd': 3}",
        "self.val.transformMapEntry(k, v, v > 1, {k + '2': v + 1}).size() == 1",
        "self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2",
        "self.val.all(k, v, k in ['b', 'd'] && v in [1, 2])",
      ],
      errors: {
        "self.val['c'] == 1": 'no such key: c',
      },
    },
    {
      name: 'listMap access',
      schema: object({
        listMap: list(object({ k: string, v: string, v2: string }), { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] }),
      }),
      value: { listMap: [{ k: 'a1', v: 'b1' }, { k: 'a2', v: 'b2' }, { k: 'a3', v: 'b3', v2: 'z' }] },
      valid: [
        'has(self.listMap[0].v)',
        "self.listMap.all(m, m.k.startsWith('a'))",
        "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')",
        "self.listMap.exists(m, m.k.endsWith('1'))",
        "self.listMap.exists_one(m, m.k == 'a3')",
        "!self.listMap.all(m, m.k.endsWith('1'))",
        "!self.listMap.exists(m, m.v == 'x')",
        "!self.listMap.exists_one(m, m.k.startsWith('a'))",
        "size(self.listMap.filter(m, m.k == 'a1')) == 1",
        "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')",
        "self.listMap.map(m, m.v).exists(v, v == 'b1')",
        "self.listMap.exists(m, has(m.v2) && m.v2 == 'z')",
        "!self.listMap.all(m, has(m.v2) && m.v2 != 'z')",
        "self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')",
      ],
    },
    {
      name: 'stdlib list functions',
      schema: object({
        ints: list(integer),
        unsortedInts: list(integer),
        emptyInts: list(integer),
        doubles: list(number),
        unsortedDoubles: list(number),
        emptyDoubles: list(number),
        durations: list(durationFormat),
        unsortedDurations: list(durationFormat),
        strings: list(string),
        unsortedStrings: list(string),
        emptyStrings: list(string),
        dates: list(dateFormat),
        unsortedDates: list(dateFormat),
        objs: list(object({ f1: string, f2: string })),
      }),
      value: {
        ints: [1, 2, 2, 3],
        unsortedInts: [2, 1],
        emptyInts: [],
        doubles: [1.5, 2, 2, 3],
        unsortedDoubles: [2, 1],
        emptyDoubles: [],
        durations: ['1s', '1m', '1m', '1h'],
        unsortedDurations: ['1m', '1s'],
        strings: ['a', 'b', 'b', 'c'],
        unsortedStrings: ['b', 'a'],
        emptyStrings: [],
        dates: ['2000-01-01', '2000-02-01', '2000-02-01', '2010-01-01'],
        unsortedDates: ['2000-02-01', '2000-01-01'],
        objs: [
          { f1: 'a', f2: 'a' },
          { f1: 'a', f2: 'b' },
          { f1: 'a', f2: 'b' },
          { f1: 'a', f2: 'c' },
        ],
      },
      valid: [
        'self.ints.sum() == 8',
        'self.ints.min() == 1',
        'self.ints.max() == 3',
        'self.emptyInts.sum() == 0',
        'self.ints.isSorted()',
        'self.emptyInts.isSorted()',
        'self.unsortedInts.isSorted() == false',
        'self.ints.indexOf(2) == 1',
        'self.ints.lastIndexOf(2) == 2',
        'self.ints.indexOf(10) == -1',
        'self.ints.lastIndexOf(10) == -1',
        'self.doubles.sum() == 8.5',
        'self.doubles.min() == 1.5',
        'self.doubles.max() == 3.0',
        'self.doubles.isSorted()',
        'self.unsortedDoubles.isSorted() == false',
        'self.doubles.indexOf(2.0) == 1',
        'self.doubles.lastIndexOf(2.0) == 2',
        "self.durations.min() == duration('1s')",
        "self.durations.max() == duration('1h')",
        'self.durations.isSorted()',
        'self.unsortedDurations.isSorted() == false',
        "self.durations.indexOf(duration('1m')) == 1",
        "self.durations.lastIndexOf(duration('1m')) == 2",
        "self.strings.min() == 'a'",
        "self.strings.max() == 'c'",
        'self.strings.isSorted()',
        'self.emptyStrings.isSorted()',
        'self.unsortedStrings.isSorted() == false',
        "self.strings.indexOf('b') == 1",
        "self.strings.lastIndexOf('b') == 2",
        "self.strings.indexOf('x') == -1",
        "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
        "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
        'self.dates.isSorted()',
        'self.unsortedDates.isSorted() == false',
        "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
        '[[1], [2]].indexOf([1]) == 0',
        "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
        'self.objs.indexOf(self.objs[1]) == 1',
        'self.objs.lastIndexOf(self.objs[1]) == 2',
        '([0] + self.emptyInts).min() == 0',
      ],
      errors: {
        'self.emptyInts.min() == 1': 'min called on empty list',
        'self.emptyInts.max() == 3': 'max called on empty list',
        "self.emptyStrings.min() == 'a'": 'min called on empty list',
        "['a', 'b'].sum() == 'c'": "found no matching overload for 'sum' applied to 'list(string).()",
        '[[1], [2]].min() == [1]': "found no matching overload for 'min' applied to 'list(list(int)).()",
        "[{'a': 1}, {'b': 2}].max() == {'b': 2}": "found no matching overload for 'max' applied to 'list(map(string, int)).()",
      },
    },
    {
      name: 'stdlib regex functions',
      schema: object({ str: string }),
      value: { str: 'this is a 123 string 456' },
      valid: [
        "self.str.find('[0-9]+') == '123'",
        "self.str.find('[0-9]+') != '456'",
        "self.str.find('xyz') == ''",
        "self.str.findAll('[0-9]+') == ['123', '456']",
        "self.str.findAll('[0-9]+', 0) == []",
        "self.str.findAll('[0-9]+', 1) == ['123']",
        "self.str.findAll('[0-9]+', 2) == ['123', '456']",
        "self.str.findAll('[0-9]+', 3) == ['123', '456']",
        "self.str.findAll('[0-9]+', -1) == ['123', '456']",
        "self.str.findAll('xyz') == []",
        "self.str.findAll('xyz', 1) == []",
      ],
      errors: {
        "self.str.matches('x++')": 'invalid matches argument',
      },
    },
    {
      name: 'URL parsing',
      schema: object({ url: string }),
      value: { url: 'https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor' },
      valid: [
        "url('/path').getScheme() == ''",
        "url('https://example.com/').getScheme() == 'https'",
        "url('https://example.com:80/').getHost() == 'example.com:80'",
        "url('https://example.com/').getHost() == 'example.com'",
        "url('https://[::1]:80/').getHost() == '[::1]:80'",
        "url('https://[::1]/').getHost() == '[::1]'",
        "url('/path').getHost() == ''",
        "url('https://example.com:80/').getHostname() == 'example.com'",
        "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
        "url('https://[::1]/').getHostname() == '::1'",
        "url('/path').getHostname() == ''",
        "url('https://example.com:80/').getPort() == '80'",
        "url('https://example.com/').getPort() == ''",
        "url('/path').getPort() == ''",
        "url('https://example.com/path').getEscapedPath() == '/path'",
        "url('https://example.com').getEscapedPath() == ''",
        "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
        "url('https://example.com/path?').getQuery() == {}",
        "url('https://example.com/path').getQuery() == {}",
        "isURL('/path') == true",
        "isURL('../relative-path') == false",
      ],
    },
    {
      name: 'quantity',
      ...vals([string, '20'], [string, '200M']),
      valid: [
        'isQuantity(self.val1)',
        'isQuantity(self.val2)',
        'isQuantity("20Mi")',
        'quantity(self.val2) == quantity("0.2G") && quantity("0.2G") == quantity("200M")',
        'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
        'quantity(self.val1).isLessThan(quantity("100M"))',
        'quantity(self.val2).isGreaterThan(quantity("50M"))',
        'quantity(self.val2).compareTo(quantity("0.2G")) == 0',
        'quantity("50k").add(quantity(self.val1)) == quantity("50.02k")',
        'quantity("50k").sub(quantity(self.val1)) == quantity("49980")',
        'quantity(self.val1).isInteger()',
        'quantity("1Gi").asInteger() == 1073741824',
        'quantity("500m").asApproximateFloat() == 0.5',
        'quantity("-1").sign() == -1',
        'quantity("50k").add(20) == quantity("50020")',
        '!isQuantity("1x")',
      ],
    },
    {
      name: 'IP and CIDR',
      ...vals([string, '192.168.0.1']),
      valid: [
        'isIP("192.168.0.1")',
        'ip.isCanonical("127.0.0.1")',
        '!ip.isCanonical("2001:db8:0:0:0:0:2:1")',
        'ip("192.168.0.1").family() > 0',
        'ip("0.0.0.0").isUnspecified()',
        'ip("127.0.0.1").isLoopback()',
        'ip("224.0.0.1").isLinkLocalMulticast()',
        'ip("192.168.0.1").isGlobalUnicast()',
        'ip(self.val1).family() == 4',
        'cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))',
        'cidr("192.168.0.0/24").containsIP("192.168.0.1")',
        'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")',
        'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))',
        "cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()",
        "cidr('192.168.1.5/24').masked() == cidr('192.168.1.0/24')",
        "cidr('192.168.0.0/16').prefixLength() == 16",
        "cidr('::1/128').ip().family() == 6",
        "string(ip('2001:db8:0:0:0:0:2:1')) == '2001:db8::2:1'",
        '!isIP("::ffff:1.2.3.4")',
        '!isCIDR("10.0.0.0/33")',
      ],
    },
    {
      name: 'format',
      ...vals([string, 'my-name'], [string, 'Not_A_Label']),
      valid: [
        '!format.dns1123Label().validate(self.val1).hasValue()',
        "format.dns1123Label().validate(self.val2).value() == [\"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"]",
        "format.dns1123Label().validate('a.b').value() == ['must not contain dots']",
        "format.named('dns1123Label').hasValue()",
        "!format.named('nope').hasValue()",
        "!format.named('dns1123Subdomain').value().validate('example.com').hasValue()",
        "format.dns1035Label().validate('1abc').hasValue()",
        "!format.dns1123LabelPrefix().validate('my-prefix-').hasValue()",
        "format.dns1123Label().validate('my-prefix-').hasValue()",
        "!format.qualifiedName().validate('example.com/MyName').hasValue()",
        "format.qualifiedName().validate('/MyName').value() == ['prefix part must be non-empty']",
        "!format.labelValue().validate('').hasValue()",
        "!format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()",
        "format.uuid().validate('nope').value() == ['does not match the UUID format']",
        "!format.byte().validate('QUI=').hasValue()",
        "format.date().validate('2024-02-30').value() == ['invalid date']",
        "!format.datetime().validate('2024-02-29T10:00:00Z').hasValue()",
        "!format.uri().validate('https://example.com/x').hasValue()",
      ],
    },
    {
      name: 'semver',
      ...vals([string, 'v1.30.2']),
      valid: [
        "isSemver('1.2.3')",
        "!isSemver('v1.2.3')",
        'isSemver(self.val1, true)',
        "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3",
        "semver(self.val1, true).isGreaterThan(semver('1.29.9'))",
        "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))",
        "semver('1.0.0-alpha.1').compareTo(semver('1.0.0-alpha.beta')) == -1",
        "semver('1.2.3+build') == semver('1.2.3')",
      ],
      errors: { "semver('x') == semver('1.0.0')": 'could not parse semver string "x"' },
    },
    {
      name: 'int-or-string',
      schema: object({ port: { 'x-kubernetes-int-or-string': true }, name: { 'x-kubernetes-int-or-string': true } }),
      value: { port: 8080, name: '50%' },
      valid: [
        'self.port == 8080',
        "self.name == '50%'",
        "type(self.port) == int && type(self.name) == string",
        "type(self.name) == string && self.name.endsWith('%')",
      ],
      errors: {
        "self.port.endsWith('%')": "'no such overload': call arguments did not match a supported operator, function or macro signature for rule",
      },
    },
    {
      name: 'transition rules',
      schema: object({ v: string }),
      value: { v: 'new' },
      old: { v: 'old' },
      valid: ['oldSelf.v != self.v', "oldSelf.v == 'old' && self.v == 'new'"],
      errors: {
        'oldSelf.v == self.v': 'failed rule: oldSelf.v == self.v',
      },
    },
    {
      name: 'optionals',
      schema: object({ presentObj: object({ presentStr: string }), absentObj: object({ absentStr: string }), m: map(string), l: list(string) }),
      value: { presentObj: { presentStr: 'value' }, m: { k: 'v' }, l: ['a'] },
      valid: [
        "self.?presentObj.?presentStr == optional.of('value')",
        "self.presentObj.?presentStr == optional.of('value')",
        "self.presentObj.?presentStr.or(optional.of('nope')) == optional.of('value')",
        "self.presentObj.?presentStr.orValue('') == 'value'",
        'self.presentObj.?presentStr.hasValue() == true',
        "self.presentObj.?presentStr.value() == 'value'",
        'self.?absentObj.?absentStr == optional.none()',
        "self.?absentObj.?absentStr.or(optional.of('nope')) == optional.of('nope')",
        "self.?absentObj.?absentStr.orValue('nope') == 'nope'",
        'self.?absentObj.?absentStr.hasValue() == false',
        "self.m[?'k'] == optional.of('v')",
        "self.m[?'k'].or(optional.of('nope')) == optional.of('v')",
        "self.m[?'k'].orValue('') == 'v'",
        "self.m[?'k'].hasValue() == true",
        "self.m[?'x'] == optional.none()",
        "self.m[?'x'].orValue('nope') == 'nope'",
        "self.l[?0] == optional.of('a')",
        'self.l[?1] == optional.none()',
        "self.l[?0].orValue('') == 'a'",
        "self.l[?1].orValue('nope') == 'nope'",
        "'a.?b' == 'a' + '.?b'",
        'optional.ofNonZeroValue(1).hasValue()',
        "optional.ofNonZeroValue('a').hasValue()",
        "optional.ofNonZeroValue(['a']).hasValue()",
        "optional.ofNonZeroValue({'k': 'v'}).hasValue()",
        'optional.ofNonZeroValue(0) == optional.none()',
        "optional.ofNonZeroValue('') == optional.none()",
        'optional.ofNonZeroValue(false) == optional.none()',
        'optional.ofNonZeroValue([]) == optional.none()',
        "optional.ofNonZeroValue(duration('0s')) == optional.none()",
      ],
      errors: {
        'self.absentObj.?absentStr == optional.none()': 'no such key: absentObj',
        "self.l[?1].value() == 'a'": 'optional.none() dereference',
      },
    },
    {
      name: 'typemeta and objectmeta access specified',
      schema: object({ kind: string, apiVersion: string, metadata: object({ name: string, generateName: string }) }),
      value: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' } },
      valid: ["self.kind == 'Pod'", "self.apiVersion == 'v1'", "self.metadata.name == 'foo'", "self.metadata.generateName == 'pickItForMe'"],
      errors: { 'has(self.metadata.namespace)': "undefined field 'namespace'" },
    },
    {
      name: 'typemeta and objectmeta access not specified, at a resource root',
      resourceRoot: true,
      schema: object({ spec: object({ field1: string }) }),
      value: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' }, spec: { field1: 'a' } },
      valid: ["self.kind == 'Pod'", "self.apiVersion == 'v1'", "self.metadata.name == 'foo'", "self.metadata.generateName == 'pickItForMe'", "self.spec.field1 == 'a'"],
      errors: { 'has(self.metadata.namespace)': "undefined field 'namespace'" },
    },
    {
      name: 'typemeta is not visible outside a resource root',
      schema: object({ spec: object({ field1: string }) }),
      value: { kind: 'Pod', spec: { field1: 'a' } },
      errors: { "self.kind == 'Pod'": "undefined field 'kind'" },
    },
    {
      name: 'embedded object',
      schema: object({ embedded: { 'x-kubernetes-embedded-resource': true } }),
      value: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' }, spec: { field1: 'a' } } },
      valid: ["self.embedded.kind == 'Pod'", "self.embedded.apiVersion == 'v1'", "self.embedded.metadata.name == 'foo'", "self.embedded.metadata.generateName == 'pickItForMe'"],
      errors: {
        'has(self.embedded.metadata.namespace)': "undefined field 'namespace'",
        'has(self.embedded.spec)': "undefined field 'spec'",
      },
    },
    {
      name: 'authorizer is not available to CRD rules',
      schema: object({}),
      value: {},
      errors: {
        "authorizer.path('/healthz').check('get').allowed()": "undeclared reference to 'authorizer'",
      },
    },
  ]);
});

describe('validateCelRules: how failures are reported', () => {
  it('prints a scalar value and the rule', () => {
    const errors = validateCelRules({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'self <= 1' }] }, 99, undefined, 'spec.topology.variables[cpu].value');
    expect(errors).toEqual([
      expect.objectContaining({
        type: 'FieldValueInvalid',
        field: 'spec.topology.variables[cpu].value',
        detail: 'failed rule: self <= 1',
        message: 'spec.topology.variables[cpu].value: Invalid value: 99: failed rule: self <= 1',
      }),
    ]);
  });

  it('omits object and list values', () => {
    const errors = validateCelRules(
      object({ a: integer }, { 'x-kubernetes-validations': [{ rule: 'self.a > 1', message: 'a must be above one' }] }),
      { a: 1 },
      undefined,
      'spec',
    );
    expect(errors.map((e) => e.message)).toEqual(['spec: Invalid value: a must be above one']);
  });

  it('prefers messageExpression and falls back to message when it yields nothing', () => {
    const schema = (messageExpression: string): JSONSchemaProps => ({
      type: 'integer',
      'x-kubernetes-validations': [{ rule: 'self >= 1', message: 'new value must be greater than or equal to 1', messageExpression }],
    });
    expect(validateCelRules(schema("'got %d'.format([self])"), 0, undefined, 'v')[0]!.message).toBe('v: Invalid value: 0: got 0');
    expect(validateCelRules(schema("''"), 0, undefined, 'v')[0]!.message).toBe('v: Invalid value: 0: new value must be greater than or equal to 1');
    expect(validateCelRules(schema("'a\\nb'"), 0, undefined, 'v')[0]!.detail).toBe('new value must be greater than or equal to 1');
    expect(validateCelRules(schema("string(1/0)"), 0, undefined, 'v')[0]!.detail).toBe('new value must be greater than or equal to 1');
  });

  it('reports at the rule fieldPath with the rule reason', () => {
    const schema = object(
      { a: object({ b: integer }), m: map(integer) },
      {
        'x-kubernetes-validations': [
          { rule: 'self.a.b > 1', fieldPath: '.a.b', reason: 'FieldValueForbidden', message: 'b too small' },
          { rule: "self.m['x'] > 1", fieldPath: ".m['x']", reason: 'FieldValueRequired' },
          { rule: 'self.a.b > 1', reason: 'FieldValueDuplicate' },
        ],
      },
    );
    expect(validateCelRules(schema, { a: { b: 1 }, m: { x: 0 } }, undefined, 'spec').map((e) => e.message)).toEqual([
      'spec.a.b: Forbidden: b too small',
      "spec.m[x]: Required value: failed rule: self.m['x'] > 1",
      'spec: Duplicate value',
    ]);
  });

  it('reports evaluation errors with the schema type', () => {
    const schema = object({ a: integer }, { 'x-kubernetes-validations': [{ rule: 'self.a == 1' }] });
    expect(validateCelRules(schema, {}, undefined, 'spec').map((e) => e.message)).toEqual([
      'spec: Invalid value: "object": no such key: a evaluating rule: self.a == 1',
    ]);
  });

  it('walks properties, additionalProperties and items with Go field paths', () => {
    const positive: JSONSchemaProps = { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] };
    const schema = object({ list: list(positive), byName: map(positive), 'my-field': positive });
    const errors = validateCelRules(schema, { list: [1, 0], byName: { a: -1 }, 'my-field': 0 }, undefined, 'spec');
    expect(errors.map((e) => e.field)).toEqual(['spec.list[1]', 'spec.byName[a]', 'spec.my-field']);
  });

  it('does not validate null values', () => {
    const schema = object({ a: { type: 'integer', nullable: true, 'x-kubernetes-validations': [{ rule: 'self > 0' }] } });
    expect(validateCelRules(schema, { a: null }, undefined, 'spec')).toEqual([]);
  });

  it('runs rules of allOf branches against the node', () => {
    const schema: JSONSchemaProps = { type: 'integer', allOf: [{ 'x-kubernetes-validations': [{ rule: 'self < 10' }] }] };
    expect(validateCelRules(schema, 12, undefined, 'v').map((e) => e.message)).toEqual(['v: Invalid value: 12: failed rule: self < 10']);
  });

  it('reports a rule that does not compile at validation time', () => {
    const schema = object({ field: integer }, {
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-validations': [{ rule: 'self.field <= 1' }, { rule: 'self.field3 <= 1' }],
    });
    expect(validateCelRules(schema, { field: 1, field3: null }, undefined, 'v').map((e) => e.message)).toEqual([
      "v: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'field3'\n | self.field3 <= 1\n | ....^",
    ]);
  });

  it('escapes property names for CEL', () => {
    const schema = object(
      { namespace: boolean, 'x-prop': boolean, redact__d: boolean, 'a.b/c': boolean },
      {
        'x-kubernetes-validations': [
          { rule: 'self.__namespace__' },
          { rule: 'self.x__dash__prop' },
          { rule: 'self.redact__underscores__d' },
          { rule: 'self.a__dot__b__slash__c' },
        ],
      },
    );
    expect(validateCelRules(schema, { namespace: true, 'x-prop': true, redact__d: true, 'a.b/c': true }, undefined, 'v')).toEqual([]);
  });
});

describe('validateCelRules: transition rules', () => {
  const greater: JSONSchemaProps = { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > oldSelf', message: 'must grow' }] };

  it('skips a transition rule without an old value', () => {
    expect(validateCelRules(greater, 1, undefined, 'v')).toEqual([]);
  });

  it('evaluates it against the old value', () => {
    expect(validateCelRules(greater, 0, 1, 'v').map((e) => e.message)).toEqual(['v: Invalid value: 0: must grow']);
  });

  it('correlates map entries and list-map items by key, not list items by position', () => {
    const immutable: JSONSchemaProps = { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] };
    const schema = object({
      byName: map(immutable),
      entries: list(object({ name: string, value: immutable }), { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }),
      atomic: list(immutable),
    });
    const old = { byName: { a: 'x' }, entries: [{ name: 'one', value: 'x' }, { name: 'two', value: 'y' }], atomic: ['x'] };
    const now = { byName: { a: 'changed', b: 'new' }, entries: [{ name: 'two', value: 'y' }, { name: 'one', value: 'changed' }], atomic: ['changed'] };
    expect(validateCelRules(schema, now, old, 'spec').map((e) => e.field)).toEqual(['spec.byName[a]', 'spec.entries[1].value']);
  });
});

describe('validateCelRules: optionalOldSelf', () => {
  const schema: JSONSchemaProps = {
    type: 'string',
    'x-kubernetes-validations': [{ rule: "!oldSelf.hasValue() || oldSelf.value() == self", optionalOldSelf: true, message: 'immutable once set' }],
  };
  it('runs without an old value, seeing oldSelf as none', () => {
    expect(validateCelRules(schema, 'a', undefined, 'v')).toEqual([]);
  });
  it('sees the old value as an optional', () => {
    expect(validateCelRules(schema, 'a', 'a', 'v')).toEqual([]);
    expect(validateCelRules(schema, 'b', 'a', 'v').map((e) => e.message)).toEqual(['v: Invalid value: "b": immutable once set']);
  });
});

describe('checkCelSchema: compiling rules', () => {
  const at = 'spec.variables[cpu].schema.openAPIV3Schema';
  const check = (schema: JSONSchemaProps, options = { compatibilityVersion: '1.29' }): string[] =>
    checkCelSchema(schema, at, options).map((e) => e.message);

  it('accepts valid rules and messageExpressions', () => {
    expect(check({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'true', messageExpression: "'Expected integer greater or equal to 1, got %d'.format([self])" }] })).toEqual([]);
  });

  it('reports syntax errors as cel-go does', () => {
    const [message] = check({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'this does not compile' }] });
    expect(message).toContain(
      `${at}.x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"this does not compile"`,
    );
    expect(message).toContain("compilation failed: ERROR: <input>:1:6: Syntax error: mismatched input 'does' expecting <EOF>\n | this does not compile\n | .....^");
  });

  it('reports messageExpression errors on the messageExpression', () => {
    const errors = checkCelSchema(
      { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= 1', messageExpression: "'Expected integer greater or equal to 1, got ' + this does not compile" }] },
      at,
    );
    expect(errors.map((e) => e.field)).toEqual([`${at}.x-kubernetes-validations[0].messageExpression`]);
    expect(errors[0]!.detail).toContain("messageExpression compilation failed: ERROR: <input>:1:55: Syntax error: mismatched input 'does' expecting <EOF>");
  });

  it('requires a bool rule and a string messageExpression', () => {
    expect(check({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'self + 1' }] })[0]).toContain('cel expression must evaluate to a bool');
    expect(check({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'true', messageExpression: 'self' }] })[0]).toContain(
      'messageExpression must evaluate to a string',
    );
  });

  it('reports undeclared references and undefined fields', () => {
    expect(check({ type: 'object', properties: { a: integer }, 'x-kubernetes-validations': [{ rule: 'self.b == 1' }] })[0]).toContain(
      "compilation failed: ERROR: <input>:1:5: undefined field 'b'",
    );
    expect(check({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'foo == 1' }] })[0]).toContain(
      "ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')",
    );
    expect(check({ type: 'string', 'x-kubernetes-validations': [{ rule: 'self + 1 == 2' }] })[0]).toContain(
      "ERROR: <input>:1:6: found no matching overload for '_+_' applied to '(string, int)'",
    );
  });

  it('offers libraries by compatibility version, and the newest environment to pre-existing rules', () => {
    const ipRule: JSONSchemaProps = { type: 'string', 'x-kubernetes-validations': [{ rule: 'ip(self).family() == 6' }] };
    expect(check(ipRule)[0]).toContain("compilation failed: ERROR: <input>:1:3: undeclared reference to 'ip' (in container '')");
    expect(check(ipRule, { compatibilityVersion: '1.30' })).toEqual([]);
    expect(checkCelSchema(ipRule, at, { compatibilityVersion: '1.29', preexistingRules: preexistingRulesOf(ipRule) })).toEqual([]);
    const ipMessage: JSONSchemaProps = { type: 'string', 'x-kubernetes-validations': [{ rule: 'true', messageExpression: "'IP family %d'.format([ip(self).family()])" }] };
    expect(checkCelSchema(ipMessage, at, { compatibilityVersion: '1.29', preexistingRules: preexistingRulesOf(ipRule) })[0]!.detail).toContain(
      "messageExpression compilation failed: ERROR: <input>:1:26: undeclared reference to 'ip' (in container '')",
    );
    const quantityRule: JSONSchemaProps = { type: 'string', 'x-kubernetes-validations': [{ rule: 'isQuantity(self)' }] };
    expect(check(quantityRule, { compatibilityVersion: '1.27' })[0]).toContain("undeclared reference to 'isQuantity'");
    expect(check(quantityRule, { compatibilityVersion: '1.28' })).toEqual([]);
    const optionalRule: JSONSchemaProps = { type: 'object', properties: { a: string }, 'x-kubernetes-validations': [{ rule: "self.?a.orValue('') == ''" }] };
    expect(check(optionalRule, { compatibilityVersion: '1.27' })[0]).toContain("ERROR: <input>:1:5: unsupported syntax '.?'");
    expect(check(optionalRule, { compatibilityVersion: '1.28' })).toEqual([]);
    const setsRule: JSONSchemaProps = { type: 'array', items: string, 'x-kubernetes-validations': [{ rule: "sets.contains(self, ['a'])" }] };
    expect(check(setsRule, { compatibilityVersion: '1.28' })[0]).toContain("undeclared reference to 'sets' (in container '')");
    expect(check(setsRule, { compatibilityVersion: '1.29' })).toEqual([]);
    const twoVarRule: JSONSchemaProps = { type: 'object', additionalProperties: integer, 'x-kubernetes-validations': [{ rule: 'self.all(k, v, v > 0)' }] };
    expect(check(twoVarRule, { compatibilityVersion: '1.31' })[0]).toContain("undeclared reference to 'all' (in container '')");
    expect(check(twoVarRule, { compatibilityVersion: '1.32' })).toEqual([]);
  });

  it('reports rules that are not specified, and malformed messages', () => {
    expect(checkCelSchema({ type: 'object', properties: { a: number }, 'x-kubernetes-validations': [{ rule: ' ' }] }, at)).toEqual([
      expect.objectContaining({ type: 'FieldValueRequired', field: `${at}.x-kubernetes-validations[0].rule`, detail: 'rule is not specified' }),
    ]);
    expect(check({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', message: ' ' }] })).toEqual([
      `${at}.x-kubernetes-validations[0].message: Invalid value: " ": message must be non-empty if specified`,
    ]);
    expect(check({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0\n&& true' }] })).toEqual([
      `${at}.x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks`,
    ]);
    expect(check({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', reason: 'FieldValueNope' }] })).toEqual([
      `${at}.x-kubernetes-validations[0].reason: Unsupported value: "FieldValueNope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ]);
  });

  it('validates rule field paths against the schema', () => {
    const rule = 'self.a.b.c > 0.0';
    const schema = object(
      { a: object({ b: object({ c: number }) }), list: list(object({ a: number })), m: map(number) },
      {
        'x-kubernetes-validations': ['.list[0].b', '.list[0.b', '.list0].b', '.a.c', '.a.b.d', '.a\n', ".a['b'].c", ".m['k']", '.a.b'].map((fieldPath) => ({ rule, fieldPath })),
      },
    );
    expect(check(schema)).toEqual([
      `${at}.x-kubernetes-validations[0].fieldPath: Invalid value: ".list[0].b": fieldPath must be a valid path: expected single quoted string but got 0`,
      `${at}.x-kubernetes-validations[1].fieldPath: Invalid value: ".list[0.b": fieldPath must be a valid path: expected single quoted string but got 0`,
      `${at}.x-kubernetes-validations[2].fieldPath: Invalid value: ".list0].b": fieldPath must be a valid path: does not refer to a valid field`,
      `${at}.x-kubernetes-validations[3].fieldPath: Invalid value: ".a.c": fieldPath must be a valid path: does not refer to a valid field`,
      `${at}.x-kubernetes-validations[4].fieldPath: Invalid value: ".a.b.d": fieldPath must be a valid path: does not refer to a valid field`,
      `${at}.x-kubernetes-validations[5].fieldPath: Invalid value: ".a\\n": fieldPath must not contain line breaks`,
      `${at}.x-kubernetes-validations[5].fieldPath: Invalid value: ".a\\n": fieldPath must be a valid path: does not refer to a valid field`,
    ]);
  });

  it('refuses oldSelf where old values cannot be correlated', () => {
    const nested = list(list({ type: 'string', maxLength: 1024, 'x-kubernetes-validations': [{ rule: "oldSelf.contains('keyword')" }] }, { maxItems: 10 }), { maxItems: 10 });
    expect(check(nested)).toEqual([
      `${at}.items.items.x-kubernetes-validations[0].rule: Invalid value: "oldSelf.contains('keyword')": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.items`,
    ]);
    const listMap = list(object({ k: string }, { 'x-kubernetes-validations': [{ rule: 'self.k == oldSelf.k' }] }), {
      maxItems: 10,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['k'],
    });
    expect(check(listMap)).toEqual([]);
  });

  it('validates examples and enum values with the rules', () => {
    expect(check({ type: 'integer', example: 0, enum: [1, 0], 'x-kubernetes-validations': [{ rule: 'self >= 1' }] })).toEqual([
      `${at}.example: Invalid value: 0: failed rule: self >= 1`,
      `${at}.enum[1]: Invalid value: 0: failed rule: self >= 1`,
    ]);
    expect(check(object({ nested: { type: 'integer', example: 0, 'x-kubernetes-validations': [{ rule: 'self >= 1' }] } }))).toEqual([
      `${at}.properties[nested].example: Invalid value: 0: failed rule: self >= 1`,
    ]);
  });
});

describe('checkCelSchema: cost budgets', () => {
  const at = 'spec.variables[cpu].schema.openAPIV3Schema';
  const hint = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

  it('accepts bounded rules', () => {
    const schema = list({ type: 'string', maxLength: 64 }, { maxItems: 100, 'x-kubernetes-validations': [{ rule: "self.all(x, x.startsWith('a'))" }] });
    expect(checkCelSchema(schema, at)).toEqual([]);
  });

  it('refuses an unbounded nested comprehension per expression and in total', () => {
    const schema = list(list(string), { 'x-kubernetes-validations': [{ rule: 'self.all(x, x.all(y, self.all(z, z.all(w, w == y))))' }] });
    expect(checkCelSchema(schema, at).map((e) => e.message)).toEqual([
      `${at}.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`,
      `${at}.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${at}: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`,
    ]);
  });

  it('multiplies a rule under a list by how many items the list can hold', () => {
    const item = { type: 'string', maxLength: 1000, 'x-kubernetes-validations': [{ rule: "self.matches('^[a-z]+$')" }] } satisfies JSONSchemaProps;
    expect(checkCelSchema(list(item, { maxItems: 10 }), at)).toEqual([]);
    const unbounded = checkCelSchema(list(item), at).map((e) => e.message);
    expect(unbounded[0]).toMatch(/^spec\.variables\[cpu\]\.schema\.openAPIV3Schema\.items\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of/);
  });

  it('refuses an expensive messageExpression', () => {
    const schema = object({
      array: list({ type: 'string', maxLength: 500000, 'x-kubernetes-validations': [{ rule: 'true', messageExpression: "'contains: ' + string(self.contains('keyword'))" }] }),
      field: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 50 && self < 100', messageExpression: "'Expected integer to be between 50 and 100, got %d'.format([self])" }] },
    });
    expect(checkCelSchema(schema, at).map((e) => [e.type, e.field, e.detail.split(' (')[0]])).toEqual([
      ['FieldValueForbidden', `${at}.properties[array].items.x-kubernetes-validations[0].messageExpression`, 'estimated messageExpression cost exceeds budget by factor of more than 100x'],
      ['FieldValueForbidden', `${at}.properties[array].items.x-kubernetes-validations[0].messageExpression`, 'contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema'],
      ['FieldValueForbidden', at, 'x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x'],
    ]);
  });
});

describe('estimateCelCost: the estimates of apiextensions TestCostEstimation', () => {
  const typed = (t: string): JSONSchemaProps =>
    ['duration', 'date', 'date-time'].includes(t) ? { type: 'string', format: t } : t === 'int-or-string' ? { 'x-kubernetes-int-or-string': true } : { type: t };
  type Gen = (max?: number) => JSONSchemaProps;
  const rules = (rule: string): JSONSchemaProps => ({ 'x-kubernetes-validations': [{ rule }] });
  const arrayWith = (t: string, rule: string): Gen => (max) => ({ type: 'array', items: typed(t), ...(max !== undefined ? { maxItems: max } : {}), ...rules(rule) });
  const arrayOfArrays = (t: string, rule: string): Gen => (max) => ({ type: 'array', items: { type: 'array', items: { type: t } }, ...(max !== undefined ? { maxItems: max } : {}), ...rules(rule) });
  const objectArray = (rule: string): Gen => (max) => ({
    type: 'array',
    items: { type: 'object', properties: { required: string, optional: string }, required: ['required'] },
    ...(max !== undefined ? { maxItems: max } : {}),
    ...rules(rule),
  });
  const mapWith = (t: string, rule: string): Gen => (max) => ({ type: 'object', additionalProperties: typed(t), ...(max !== undefined ? { maxProperties: max } : {}), ...rules(rule) });
  const stringWith = (rule: string): Gen => (max) => ({ type: 'string', ...(max !== undefined ? { maxLength: max } : {}), ...rules(rule) });
  const bytesWith = (rule: string): Gen => (max) => ({ type: 'string', format: 'byte', ...(max !== undefined ? { maxLength: max } : {}), ...rules(rule) });
  const nestedSpec = (rule: string): Gen => (max) => ({
    type: 'object',
    additionalProperties: { type: 'string', ...(max !== undefined ? { maxLength: max } : {}) },
    ...(max !== undefined ? { maxProperties: max } : {}),
    ...rules(rule),
  });
  const cases: [string, Gen, number | 'exceeds', number, number][] = [
    ['number array with all', arrayWith('number', 'self.all(x, true)'), 4718591, 10, 32],
    ['string array with all', arrayWith('string', 'self.all(x, true)'), 3145727, 20, 62],
    ['boolean array with all', arrayWith('boolean', 'self.all(x, true)'), 1887437, 5, 17],
    ['array of number arrays with all', arrayOfArrays('number', 'self.all(x, true)'), 3145727, 100, 302],
    ['array of objects with all', objectArray('self.all(x, true)'), 555128, 50, 152],
    ['map of numbers with all', mapWith('number', 'self.all(x, true)'), 1348169, 10, 32],
    ['map of numbers with has', mapWith('number', 'has(self.x)'), 0, 100, 0],
    ['map of strings with all', mapWith('string', 'self.all(x, true)'), 1179647, 3, 11],
    ['map of booleans with all', mapWith('boolean', 'self.all(x, true)'), 943718, 100, 302],
    ['string with contains', stringWith("self.contains('test')"), 314574, 10, 5],
    ['string with startsWith', stringWith("self.startsWith('test')"), 2, 15, 2],
    ['string with endsWith', stringWith("self.endsWith('test')"), 2, 30, 2],
    ['concat string', stringWith('size(self + "hello") > size("hello")'), 314578, 4, 7],
    ['index of array with numbers', arrayWith('number', 'self[1] == 0.0'), 2, 5000, 2],
    ['index of array with strings', arrayWith('string', 'self[1] == self[1]'), 314577, 8, 314577],
    ['O(n^2) loop with numbers', arrayWith('number', 'self.all(x, self.all(y, true))'), 'exceeds', 10, 352],
    ['O(n^3) loop with numbers', arrayWith('number', 'self.all(x, self.all(y, self.all(z, true)))'), 'exceeds', 10, 3552],
    ['regex matches simple', stringWith('self.matches("x")'), 314574, 50, 22],
    ['regex matches empty string', stringWith('"".matches("(((((((((())))))))))[0-9]")'), 7, 10, 7],
    ['regex matches empty regex', stringWith('self.matches("")'), 1, 100, 1],
    ['map of strings with value length', nestedSpec('self.all(x, x.contains(self[x]))'), 2752507, 10, 72],
    ['set array maxLength to zero', arrayWith('number', 'self[3] == 0.0'), 2, 0, 2],
    ['set map maxLength to zero', mapWith('number', 'self["x"] == 0.0'), 2, 0, 2],
    ['set string maxLength to zero', stringWith('self == "x"'), 2, 0, 1],
    ['set bytes maxLength to zero', bytesWith('self == b"x"'), 2, 0, 1],
    ['set maxLength greater than estimated maxLength', arrayWith('number', 'self.all(x, x == 0.0)'), 6291454, 3 * 1024 * 2048, 25165826],
    ['int-or-string array with all', arrayWith('int-or-string', 'self.all(x, true)'), 4718591, 10, 32],
    ['index of array with int-or-strings', arrayWith('int-or-string', 'self[0] == 5'), 3, 10, 3],
    ['index of array with booleans', arrayWith('boolean', 'self[0] == false'), 2, 25, 2],
    ['index of array of objects', objectArray('self[0] == null'), 2, 422, 2],
    ['index of array of array of numbers', arrayOfArrays('number', 'self[0][0] == -1.0'), 3, 51, 3],
    ['duration array with all', arrayWith('duration', 'self.all(x, true)'), 2359295, 5, 17],
    ['index of duration array', arrayWith('duration', 'self[0].getHours() == 2'), 4, 525, 4],
    ['date array with all', arrayWith('date', 'self.all(x, true)'), 725936, 15, 47],
    ['index of date array', arrayWith('date', 'self[2].getDayOfMonth() == 13'), 4, 42, 4],
    ['date-time array with all', arrayWith('date-time', 'self.all(x, true)'), 428963, 25, 77],
    ['index of date-time array', arrayWith('date-time', 'self[2].getMinutes() == 45'), 4, 99, 4],
    ['map of int-or-strings with all', mapWith('int-or-string', 'self.all(x, true)'), 1348169, 15, 47],
  ];
  for (const [name, gen, unbounded, max, bounded] of cases) {
    it(name, () => {
      const [calc] = estimateCelCost(gen(), { compatibilityVersion: '1.29' });
      if (unbounded === 'exceeds') expect(calc!.maxCost).toBeGreaterThan(1000000);
      else expect(calc!.maxCost).toBe(unbounded);
      expect(estimateCelCost(gen(max), { compatibilityVersion: '1.29' })[0]!.maxCost).toBe(bounded);
    });
  }
});
