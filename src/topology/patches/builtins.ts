/**
 * The `builtin` variable as Go types it (`api/runtime/hooks/v1alpha1/topologymutation_variable_types.go`,
 * `Builtins`): CAPI builds it as a struct and marshals it with encoding/json, so its fields come in struct order, empty
 * `omitempty` fields are left out, and maps are written with sorted keys. Merging a template's builtins over the
 * global ones (`mergeBuiltinVariables`) unmarshals both into one struct, which drops unknown fields and merges nested
 * structs and maps. {@link normalizeBuiltins} reproduces both steps over plain JSON.
 */
import { isObject, setOwn, type JsonObject } from './json.js';

type FieldType =
  | { kind: 'string' }
  | { kind: 'int' }
  | { kind: 'stringMap' }
  | { kind: 'stringList' }
  | { kind: 'stringPointer' }
  | { kind: 'struct'; fields: readonly Field[]; pointer: boolean };

interface Field {
  readonly name: string;
  readonly type: FieldType;
  readonly omitempty: boolean;
}

const str: FieldType = { kind: 'string' };
const int: FieldType = { kind: 'int' };
const f = (name: string, type: FieldType, omitempty = true): Field => ({ name, type, omitempty });
const ptr = (...fields: Field[]): FieldType => ({ kind: 'struct', fields, pointer: true });
const struct = (...fields: Field[]): FieldType => ({ kind: 'struct', fields, pointer: false });

const objectMeta = ptr(f('labels', { kind: 'stringMap' }), f('annotations', { kind: 'stringMap' }));
const bootstrap = ptr(f('configRef', ptr(f('name', str))));
const machineBuiltins = ptr(
  f('version', str),
  f('metadata', objectMeta),
  f('class', str),
  f('name', str),
  f('topologyName', str),
  f('replicas', int),
  f('bootstrap', bootstrap),
  f('infrastructureRef', ptr(f('name', str))),
);

const builtins = struct(
  f(
    'cluster',
    ptr(
      f('name', str),
      f('namespace', str),
      f('uid', str),
      f('metadata', objectMeta),
      f(
        'topology',
        ptr(
          f('version', str),
          f('classRef', struct(f('name', str, false), f('namespace', str, false)), false),
          f('class', str),
          f('classNamespace', str),
        ),
      ),
      f(
        'network',
        ptr(f('serviceDomain', { kind: 'stringPointer' }), f('services', { kind: 'stringList' }), f('pods', { kind: 'stringList' })),
      ),
    ),
  ),
  f(
    'controlPlane',
    ptr(
      f('version', str),
      f('metadata', objectMeta),
      f('name', str),
      f('replicas', int),
      f('machineTemplate', ptr(f('infrastructureRef', struct(f('name', str))))),
    ),
  ),
  f('machineDeployment', machineBuiltins),
  f('machinePool', machineBuiltins),
);

/** A value that does not fit its Go field (`json: cannot unmarshal string into Go struct field …`). */
export class BuiltinsTypeError extends Error {}

/**
 * encoding/json's `Unmarshal` of each value in turn into one `Builtins`, then `Marshal`: the builtin variable CAPI
 * hands to patches when global and template builtins meet.
 */
export function normalizeBuiltins(...values: unknown[]): JsonObject {
  let acc: unknown = {};
  for (const v of values) acc = decode(builtins, acc, v, 'Builtins');
  return encode(builtins, acc) as JsonObject;
}

/** Decodes `json` into the Go value `current` of type `type` (JSON null leaves non-pointer values as they are). */
function decode(type: FieldType, current: unknown, json: unknown, where: string): unknown {
  if (json === null) {
    return type.kind === 'string' || type.kind === 'int' || (type.kind === 'struct' && !type.pointer) ? current : undefined;
  }
  const mismatch = (goType: string): never => {
    throw new BuiltinsTypeError(`json: cannot unmarshal ${jsonKind(json)} into Go struct field ${where} of type ${goType}`);
  };
  switch (type.kind) {
    case 'string':
    case 'stringPointer':
      return typeof json === 'string' ? json : mismatch('string');
    case 'int':
      return typeof json === 'number' && Number.isInteger(json) ? json : mismatch('int64');
    case 'stringList':
      if (!Array.isArray(json)) return mismatch('[]string');
      return json.map((v) => (typeof v === 'string' || v === null ? (v ?? '') : mismatch('string')));
    case 'stringMap': {
      if (!isObject(json)) return mismatch('map[string]string');
      // Unmarshalling into an existing map adds to it.
      const out: JsonObject = isObject(current) ? { ...current } : {};
      for (const [k, v] of Object.entries(json)) setOwn(out, k, typeof v === 'string' || v === null ? (v ?? '') : mismatch('string'));
      return out;
    }
    case 'struct': {
      if (!isObject(json)) return mismatch('struct');
      const out: JsonObject = isObject(current) ? { ...current } : {};
      for (const [k, v] of Object.entries(json)) {
        if (v === undefined) continue;
        // encoding/json prefers an exact name, then a case-insensitive one; unknown keys are ignored.
        const field = type.fields.find((x) => x.name === k) ?? type.fields.find((x) => x.name.toLowerCase() === k.toLowerCase());
        if (!field) continue;
        const next = decode(field.type, out[field.name], v, `${where}.${field.name}`);
        if (next === undefined) delete out[field.name];
        else out[field.name] = next;
      }
      return out;
    }
  }
}

function encode(type: FieldType, value: unknown): unknown {
  switch (type.kind) {
    case 'string':
      return value ?? '';
    case 'int':
      return value ?? 0;
    case 'stringPointer':
      return value;
    case 'stringList':
      return value;
    case 'stringMap': {
      if (!isObject(value)) return value;
      const out: JsonObject = {};
      // Label and annotation keys are ASCII (qualified names), where UTF-16 order is Go's byte order.
      for (const k of Object.keys(value).sort()) setOwn(out, k, value[k]);
      return out;
    }
    case 'struct': {
      if (value === undefined && type.pointer) return undefined;
      const obj = isObject(value) ? value : {};
      const out: JsonObject = {};
      for (const field of type.fields) {
        const v = obj[field.name];
        if (field.omitempty && isEmpty(field.type, v)) continue;
        const encoded = encode(field.type, v);
        out[field.name] = encoded === undefined ? null : encoded;
      }
      return out;
    }
  }
}

/** encoding/json's `omitempty`: "", 0, nil pointers, empty maps and slices (a struct value is never empty). */
function isEmpty(type: FieldType, v: unknown): boolean {
  if (v === undefined || v === null) return type.kind !== 'struct' || type.pointer;
  switch (type.kind) {
    case 'string':
      return v === '';
    case 'int':
      return v === 0;
    case 'stringList':
      return (v as unknown[]).length === 0;
    case 'stringMap':
      return Object.keys(v as JsonObject).length === 0;
    default:
      return false;
  }
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (isObject(v)) return 'object';
  return typeof v;
}
