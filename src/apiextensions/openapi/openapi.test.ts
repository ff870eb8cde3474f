/**
 * OpenAPI schema validation, structural schemas, defaulting and pruning as the Kubernetes API server does them.
 * Tables transcribed from apiextensions-apiserver (validation_test.go TestValidateCustomResource,
 * defaulting/algorithm_test.go, pruning/algorithm_test.go, listtype/validation_test.go) and kube-openapi's messages;
 * the root of every value is `obj` (upstream's tests print a nil root as `<nil>`).
 */
import { describe, expect, it } from 'vitest';
import { decodeGoJson } from '../../go/index.js';
import {
  FieldPath,
  applyDefaults,
  fieldInvalid,
  fieldTooMany,
  pruneUnknownFields,
  validateDefaults,
  validateListSetsAndMaps,
  validateCustomResource,
  validateStructural,
  validateValue,
  type JSONSchemaProps,
} from '../index.js';

const root = FieldPath.of('obj');
const messages = (schema: JSONSchemaProps, value: unknown): string[] => validateValue(schema, value, root).map((e) => e.message);
const object = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties,
  ...extra,
});

describe('field errors print like Go', () => {
  it('builds paths with children, keys and indices', () => {
    expect(FieldPath.of('spec').child('topology', 'variables').key('cpu').child('value').toString()).toBe('spec.topology.variables[cpu].value');
    expect(FieldPath.of('spec').child('items').index(3).toString()).toBe('spec.items[3]');
  });

  it('quotes strings, prints numbers and booleans bare, and JSON for the rest', () => {
    expect(fieldInvalid(root, '"us-east-1"', 'x').message).toBe('obj: Invalid value: "\\"us-east-1\\"": x');
    expect(fieldInvalid(root, 0, 'x').message).toBe('obj: Invalid value: 0: x');
    expect(fieldInvalid(root, 0.9, 'x').message).toBe('obj: Invalid value: 0.9: x');
    expect(fieldInvalid(root, true, 'x').message).toBe('obj: Invalid value: true: x');
    expect(fieldInvalid(root, { b: 1, a: '<' }, 'x').message).toBe('obj: Invalid value: {"a":"\\u003c","b":1}: x');
    expect(fieldTooMany(root, 3, 2).message).toBe('obj: Too many: 3: must have at most 2 items');
  });
});

describe('kube-openapi value validation (TestValidateCustomResource)', () => {
  it('!nullable objects reject every other type, naming the type found', () => {
    const schema = object({ field: { type: 'object' } });
    expect(messages(schema, {})).toEqual([]);
    expect(messages(schema, { field: {} })).toEqual([]);
    for (const [value, type] of [
      ['foo', 'string'],
      [42, 'integer'],
      [true, 'boolean'],
      [1.2, 'number'],
      [[], 'array'],
      [null, 'null'],
    ] as const) {
      expect(messages(schema, { field: value })).toEqual([
        `obj.field: Invalid value: "${type}": field in body must be of type object: "${type}"`,
      ]);
    }
  });

  it('a whole resource has no root path: fields start bare and the root prints <nil>', () => {
    const schema = object({ field: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } });
    expect(validateValue(schema, { field: true }, null).map((e) => e.message)).toEqual([
      'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
      '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
      'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
    ]);
  });

  it('nullable accepts null', () => {
    expect(messages(object({ field: { type: 'object', nullable: true } }), { field: null })).toEqual([]);
  });

  it('x-kubernetes-int-or-string is integer or string', () => {
    const schema = object({ field: { 'x-kubernetes-int-or-string': true } });
    expect(messages(schema, { field: 42 })).toEqual([]);
    expect(messages(schema, { field: 'foo' })).toEqual([]);
    expect(messages(schema, { field: null })).toEqual([
      'obj.field: Invalid value: "null": field in body must be of type integer,string: "null"',
    ]);
  });

  it('int-or-string with a user anyOf reports the anyOf at the root and the best alternative', () => {
    const schema = object({
      field: { nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    });
    expect(messages(schema, { field: null })).toEqual([]);
    // Go's validator order: the type check comes before the junctors.
    expect(messages(schema, { field: true })).toEqual([
      'obj.field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
      'obj: Invalid value: "": "field" must validate at least one schema (anyOf)',
      'obj.field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
    ]);
    expect(messages(schema, { field: 1.2 })).toContain('obj: Invalid value: "": Checked value must be of type integer (default format) in field');
  });

  it('an invalid pattern fails every string with the regexp error', () => {
    expect(messages(object({ field: { type: 'string', pattern: '+' } }), { field: 'foo' })).toEqual([
      "obj.field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'",
    ]);
  });

  it('patterns use RE2 semantics', () => {
    const schema = object({ field: { type: 'string', pattern: '^[a-z]+$' } });
    expect(messages(schema, { field: 'abc' })).toEqual([]);
    expect(messages(schema, { field: 'aBc' })).toEqual(["obj.field: Invalid value: \"aBc\": field in body should match '^[a-z]+$'"]);
  });

  it('required fields, nested', () => {
    const schema = object({ field: { type: 'object', required: ['nested'], properties: { nested: {} } } }, { required: ['field'] });
    expect(messages(schema, { test: 'a' })).toEqual(['obj.field: Required value']);
    expect(messages(schema, { field: {} })).toEqual(['obj.field.nested: Required value']);
  });

  it('enum failures list the supported values, JSON-encoded unless strings', () => {
    const schema = object({
      field: {
        type: 'object',
        required: ['nestedint', 'nestedstring'],
        properties: { nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } },
      },
    });
    expect(messages(schema, { field: {} })).toEqual(['obj.field.nestedint: Required value', 'obj.field.nestedstring: Required value']);
    expect(messages(schema, { field: { nestedint: 'x', nestedstring: true } })).toEqual([
      'obj.field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
      'obj.field.nestedint: Unsupported value: "x": supported values: "1", "2"',
      'obj.field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
      'obj.field.nestedstring: Unsupported value: true: supported values: "a", "b"',
    ]);
  });

  it('numbers: bounds as int64 for integers, %v of float64 otherwise', () => {
    expect(messages({ type: 'integer', maximum: 10 }, 99)).toEqual(['obj: Invalid value: 99:  in body should be less than or equal to 10']);
    expect(messages({ type: 'integer', minimum: 1, exclusiveMinimum: true }, 1)).toEqual([
      'obj: Invalid value: 1:  in body should be greater than 1',
    ]);
    expect(messages({ type: 'number', maximum: 1000000 }, 1000000.5)).toEqual([
      'obj: Invalid value: 1.0000005e+06:  in body should be less than or equal to 1e+06',
    ]);
    expect(messages({ type: 'integer', format: 'int32' }, 2 ** 40)).toEqual([
      'obj: Invalid value: "": Checked value must be of type integer with format int32 in ',
    ]);
    expect(messages({ type: 'integer', multipleOf: 3 }, 7)).toEqual(['obj: Invalid value: 7:  in body should be a multiple of 3']);
    expect(messages({ type: 'integer' }, 1.5)[0]).toBe('obj: Invalid value: "number":  in body must be of type integer: "number"');
  });

  it('strings: lengths count runes; too long never prints the value', () => {
    expect(messages({ type: 'string', maxLength: 3 }, 'äöü')).toEqual([]);
    expect(messages({ type: 'string', maxLength: 6 }, 'veryLongValueIsInvalid')).toEqual(['obj: Too long: may not be more than 6 bytes']);
    expect(messages({ type: 'string', minLength: 2 }, 'a')).toEqual(['obj: Invalid value: "a":  in body should be at least 2 chars long']);
  });

  it('arrays: items, sizes and uniqueness', () => {
    expect(messages({ type: 'array', items: { type: 'string' }, maxItems: 1 }, ['a', 'b'])).toEqual([
      'obj: Too many: 2: must have at most 1 item',
    ]);
    expect(messages({ type: 'array', items: { type: 'string' }, minItems: 2 }, ['a'])).toEqual([
      'obj: Invalid value: 1:  in body should have at least 2 items',
    ]);
    expect(messages({ type: 'array', items: { type: 'string' }, uniqueItems: true }, ['a', 'a'])).toEqual([
      'obj: Invalid value: "":  in body shouldn\'t contain duplicates',
    ]);
    expect(messages(object({ list: { type: 'array', items: { type: 'integer' } } }), { list: [1, 'x'] })).toEqual([
      'obj.list[1]: Invalid value: "string": list[1] in body must be of type integer: "string"',
    ]);
  });

  it('objects: property counts and additionalProperties schemas', () => {
    expect(messages({ type: 'object', maxProperties: 1, additionalProperties: { type: 'integer' } }, { a: 1, b: 'x' })).toEqual([
      'obj: Too many: 2: must have at most 1 item',
      'obj.b: Invalid value: "string": .b in body must be of type integer: "string"',
    ]);
  });

  it('allOf, oneOf and not report at the root with the quoted path', () => {
    const props = { a: { type: 'boolean' }, b: { type: 'boolean' } };
    expect(messages(object(props, { allOf: [{ required: ['a'] }, { required: ['b'] }] }), { a: true })).toEqual([
      'obj.b: Required value',
      'obj: Invalid value: "": "" must validate all the schemas (allOf)',
    ]);
    expect(messages(object(props, { oneOf: [{ required: ['a'] }, { required: ['b'] }] }), { a: true, b: true })).toEqual([
      'obj: Invalid value: "": "" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    expect(messages(object(props, { not: { required: ['a'] } }), { a: true })).toEqual([
      'obj: Invalid value: "": "" must not validate the schema (not)',
    ]);
  });

  it('formats: known ones validate, unknown or too new ones are ignored', () => {
    const fails = (format: string, value: string): boolean => messages({ type: 'string', format }, value).length > 0;
    expect(messages({ type: 'string', format: 'uri' }, 'not a URI')).toEqual([
      'obj: Invalid value: "not a URI":  in body must be of type uri: "not a URI"',
    ]);
    expect(fails('uri', 'https://example.com/a?b=c')).toBe(false);
    expect(fails('ipv4', '10.0.0.1')).toBe(false);
    expect(fails('ipv4', '10.0.0.256')).toBe(true);
    expect(fails('ipv6', '::1')).toBe(false);
    expect(fails('ipv6', '10.0.0.1')).toBe(true);
    expect(fails('cidr', '10.0.0.0/8')).toBe(false);
    expect(fails('cidr', '10.0.0.0/33')).toBe(true);
    expect(fails('date', '2024-02-29')).toBe(false);
    expect(fails('date', '2023-02-29')).toBe(true);
    expect(fails('date-time', '2024-02-29T10:00:00Z')).toBe(false);
    expect(fails('datetime', '2024-02-29 10:00')).toBe(true);
    expect(fails('duration', '1h30m')).toBe(false);
    expect(fails('duration', '3 days')).toBe(false);
    expect(fails('duration', 'soon')).toBe(true);
    expect(fails('uuid', '123e4567-e89b-12d3-a456-426614174000')).toBe(false);
    expect(fails('k8s-short-name', 'my-name')).toBe(false);
    expect(fails('k8s-short-name', 'My-Name')).toBe(true);
    expect(fails('email', 'someone@example.com')).toBe(false);
    expect(fails('hostname', 'example.com')).toBe(false);
    expect(fails('mac', '00:00:5e:00:53:01')).toBe(false);
    expect(fails('byte', 'aGVsbG8=')).toBe(false);
    expect(fails('no-such-format', 'anything')).toBe(false);
    expect(messages({ type: 'string', format: 'k8s-short-name' }, 'X')).toHaveLength(1);
    expect(validateValue({ type: 'string', format: 'k8s-short-name' }, 'X', root, { compatibilityVersion: '1.33' })).toEqual([]);
  });

  it('bounds nesting depth', () => {
    let schema: JSONSchemaProps = { type: 'string' };
    let value: unknown = 'x';
    for (let i = 0; i < 50; i++) {
      schema = { type: 'array', items: schema };
      value = [value];
    }
    expect(validateValue(schema, value, root)).toEqual([]);
    expect(validateValue(schema, value, root, { maxDepth: 10 })[0]?.message).toContain('is nested more than 10 levels deep');
  });
});

describe('structural schemas (ValidateStructural)', () => {
  const msgs = (s: JSONSchemaProps): string[] => validateStructural(s, FieldPath.of('schema')).map((e) => e.message);

  it('types are required outside junctors, forbidden inside, sorted by message', () => {
    expect(
      msgs(
        object({
          a: { allOf: [{ type: 'integer' }] },
          b: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        }),
      ),
    ).toEqual([
      'schema.properties[a].allOf[0].type: Forbidden: must be empty to be structural',
      'schema.properties[a].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('arrays need items; the root must be an object without additionalProperties', () => {
    expect(msgs({ type: 'array' })).toEqual([
      'schema.items: Required value: must be specified',
      'schema.type: Invalid value: "array": must be object at the root',
    ]);
    expect(msgs({ type: 'object', additionalProperties: { type: 'string' } })).toEqual([
      'schema.additionalProperties: Forbidden: must not be used at the root',
    ]);
  });

  it('defaults, nullable and extensions are forbidden under junctors', () => {
    expect(msgs(object({ a: { type: 'number', not: { default: 42 }, oneOf: [{ nullable: true }] } }))).toEqual([
      'schema.properties[a].not.default: Forbidden: must be undefined to be structural',
      'schema.properties[a].oneOf[0].nullable: Forbidden: must be false to be structural',
    ]);
  });

  it('value validations need their structural counterpart', () => {
    expect(msgs(object({ a: { type: 'string' } }, { allOf: [{ properties: { b: { maxLength: 1 } } }] }))).toEqual([
      'schema.properties[b]: Required value: because it is defined in schema.allOf[0].properties[b]',
    ]);
  });

  it('embedded resources are objects', () => {
    expect(msgs(object({ e: { 'x-kubernetes-embedded-resource': true, type: 'string' } }))).toContain(
      'schema.properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true',
    );
  });
});

describe('structural defaulting (defaulting/algorithm_test.go)', () => {
  const run = (json: string, schema: JSONSchemaProps): unknown => applyDefaults(decodeGoJson(json), schema);
  const abc = { properties: { a: { default: 'A' }, b: { default: 'B' }, c: { default: 'C' } } };

  it('fills absent properties inside existing objects, in arrays and maps', () => {
    expect(run('[{"a":1},{"b":1},{"c":1}]', { items: abc })).toEqual([
      { a: 1, b: 'B', c: 'C' },
      { a: 'A', b: 1, c: 'C' },
      { a: 'A', b: 'B', c: 1 },
    ]);
    expect(
      run('{"object":{"a":1},"additionalProperties":{"x":{"a":1},"y":{"b":2}}}', {
        properties: {
          object: { properties: { a: { default: 'N' }, b: { default: 'O' } } },
          additionalProperties: { additionalProperties: { properties: { a: { default: 'alpha' }, b: { default: 'beta' } } } },
          foo: { default: 'bar' },
        },
      }),
    ).toEqual({ object: { a: 1, b: 'O' }, additionalProperties: { x: { a: 1, b: 'beta' }, y: { a: 'alpha', b: 2 } }, foo: 'bar' });
    expect(run('4', { default: 'foo' })).toBe(4);
  });

  it('replaces non-nullable nulls, keeps empty values and nullable nulls', () => {
    expect(run('[{},{"a":0},{"a":""},{"a":null},{"a":[]},{"a":{}}]', { items: { properties: { a: { default: 'A' } } } })).toEqual([
      { a: 'A' },
      { a: 0 },
      { a: '' },
      { a: 'A' },
      { a: [] },
      { a: {} },
    ]);
    expect(run('[null]', { items: { default: 'A' } })).toEqual(['A']);
    expect(run('{"a": null}', { properties: { a: { nullable: true, default: 'A' } } })).toEqual({ a: null });
    expect(run('{"a": null}', { additionalProperties: { default: 'A' } })).toEqual({ a: 'A' });
  });

  it('does not touch its input', () => {
    const input = { a: null };
    applyDefaults(input, { properties: { a: { default: 'A' } } });
    expect(input).toEqual({ a: null });
  });
});

describe('default validation (ValidateDefaults)', () => {
  it('checks each default against its own schema and that it is pruned', () => {
    const schema = object({
      replicas: { type: 'integer', minimum: 1, default: 0 },
      spec: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } },
    });
    expect(validateDefaults(schema, FieldPath.of('schema'), { requirePrunedDefaults: true }).map((e) => e.message)).toEqual([
      'schema.properties[replicas].default: Invalid value: 0: replicas.default in body should be greater than or equal to 1'.replace(
        'replicas.default',
        '',
      ),
      'schema.properties[spec].default: Invalid value: {"a":"x","b":"y"}: must not have unknown fields',
    ]);
  });

  it('runs the node CEL rules with the default as self and oldSelf', () => {
    const seen: unknown[] = [];
    validateDefaults({ type: 'integer', default: 3, 'x-kubernetes-validations': [{ rule: 'self > 1' }] }, FieldPath.of('s'), {
      cel: (_s, value, old, p) => {
        seen.push([value, old, p.toString()]);
        return [];
      },
    });
    expect(seen).toEqual([
      [3, 3, 's.default'],
      [3, undefined, 's.default'],
    ]);
  });
});

describe('pruning (pruning/algorithm_test.go)', () => {
  const run = (json: string, schema: JSONSchemaProps, isResourceRoot = false): [unknown, string[]] => {
    const r = pruneUnknownFields(decodeGoJson(json), schema, { isResourceRoot });
    return [r.value, r.unknownFields];
  };

  it('drops unspecified fields and reports their paths', () => {
    expect(run('[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]', { items: { properties: { a: {}, c: {} } } })).toEqual([
      [{ a: 1 }, {}, { a: 1, c: 3 }],
      ['[1].b', '[2].b'],
    ]);
    expect(
      run('{"array":[{"a":1},{"b":1},{"a":1,"b":2,"c":3}],"unspecified":{"a":1},"specified":{"a":1,"b":2,"c":3}}', {
        properties: { array: { items: { properties: { a: {}, c: {} } } }, specified: { properties: { a: {}, c: {} } } },
      }),
    ).toEqual([
      { array: [{ a: 1 }, {}, { a: 1, c: 3 }], specified: { a: 1, c: 3 } },
      ['array[1].b', 'array[2].b', 'specified.b', 'unspecified'],
    ]);
  });

  it('additionalProperties: a schema prunes inside, false prunes everything inside', () => {
    expect(
      run('{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1}}}', { properties: { a: {}, c: { additionalProperties: { type: 'integer' } } } }),
    ).toEqual([{ a: 1, c: { a: 1, b: 2, c: {} } }, ['b', 'c.c.a']]);
    expect(
      run('{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1, "apiVersion": "unknown"}}}', { properties: { a: {}, c: { additionalProperties: false } } }),
    ).toEqual([{ a: 1, c: { a: 1, b: 2, c: {} } }, ['b', 'c.c.a', 'c.c.apiVersion']]);
  });

  it('x-kubernetes-preserve-unknown-fields keeps unknown fields but prunes specified sub-schemas', () => {
    expect(
      run('{"keep":{"x":1,"spec":{"y":2,"z":3}}}', {
        properties: { keep: { 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { properties: { y: {} } } } } },
      }),
    ).toEqual([{ keep: { x: 1, spec: { y: 2 } } }, ['keep.spec.z']]);
  });

  it('a resource root keeps apiVersion, kind and metadata', () => {
    expect(run('{"apiVersion":"v1","kind":"X","metadata":{"name":"a"},"spec":{},"extra":1}', { properties: { spec: {} } }, true)).toEqual([
      { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, spec: {} },
      ['extra'],
    ]);
  });
});

describe('list types (listtype/validation_test.go)', () => {
  const errs = (schema: JSONSchemaProps, obj: Record<string, unknown>): string[] =>
    validateListSetsAndMaps(FieldPath.of('root'), schema, obj).map((e) => e.message);

  it('sets reject repeated elements at their second appearance', () => {
    const schema = object({ field: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } });
    expect(errs(schema, { field: ['a', 'b', 'a', 'a'] })).toEqual(['root.field[2]: Duplicate value: "a"']);
    expect(errs(schema, { field: ['a', 'b'] })).toEqual([]);
  });

  it('map lists reject repeated keys', () => {
    const schema = object({
      field: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['k'],
        items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer' } } },
      },
    });
    expect(errs(schema, { field: [{ k: 'a', v: 1 }, { k: 'a', v: 2 }] })).toEqual(['root.field[1]: Duplicate value: {"k":"a"}']);
    expect(errs(schema, { field: [1] })).toEqual(['root.field[0]: Invalid value: 1: must be an object for an array of list-type map']);
  });
});

describe('a whole custom resource (customresource strategy)', () => {
  const schema: JSONSchemaProps = object({
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: object({
      replicas: { type: 'integer', minimum: 0 },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: object({ name: { type: 'string' }, port: { type: 'integer' } }),
      },
    }),
  });
  const resource = (spec: unknown): unknown => ({ apiVersion: 'x.io/v1', kind: 'X', metadata: { name: 'a', uid: 'u' }, spec });

  it('reports paths from the object root, unknown fields apart, and list-map duplicates', () => {
    const got = validateCustomResource(schema, resource({ replicas: -1, extra: true, ports: [{ name: 'a' }, { name: 'a' }] }));
    expect(got.unknownFields).toEqual(['spec.extra']);
    expect(got.errors.map((e) => e.message)).toEqual([
      'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
      'spec.ports[1]: Duplicate value: {"name":"a"}',
    ]);
  });

  it('skips CEL rules when the object has a blocking error, and runs them otherwise', () => {
    const cel = (): ReturnType<typeof fieldInvalid>[] => [fieldInvalid(FieldPath.nil().child('spec'), 'x', 'failed rule: r')];
    expect(validateCustomResource(schema, resource({ replicas: 'x' }), { cel }).errors.map((e) => e.message)).toEqual([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    expect(validateCustomResource(schema, resource({ replicas: 1 }), { cel }).errors.map((e) => e.message)).toEqual([
      'spec: Invalid value: "x": failed rule: r',
    ]);
  });
});
