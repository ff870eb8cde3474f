/**
 * CEL types as the Kubernetes checker sees them, and the declared types (apiserver `DeclType`) a structural schema
 * maps to: what a rule may select, and the size bounds cost estimation multiplies by.
 */
import type { JSONSchemaProps } from '../schema/index.js';
import { escapePropertyName } from './escape.js';

export type CelType =
  | { readonly kind: 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null_type' | 'dyn' | 'timestamp' | 'duration' | 'error' }
  | { readonly kind: 'list'; readonly elem: CelType }
  | { readonly kind: 'map'; readonly key: CelType; readonly value: CelType }
  | { readonly kind: 'object'; readonly name: string; readonly fields: ReadonlyMap<string, CelType> }
  /** Abstract types: `optional_type(T)`, `net.IP`, `kubernetes.Quantity`… */
  | { readonly kind: 'opaque'; readonly name: string; readonly params: readonly CelType[] }
  | { readonly kind: 'type'; readonly of: CelType }
  | { readonly kind: 'param'; readonly name: string };

type SimpleKind = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null_type' | 'dyn' | 'timestamp' | 'duration' | 'error';
const simple = (kind: SimpleKind): CelType => ({ kind });
export const T = {
  int: simple('int'),
  uint: simple('uint'),
  double: simple('double'),
  bool: simple('bool'),
  string: simple('string'),
  bytes: simple('bytes'),
  null: simple('null_type'),
  dyn: simple('dyn'),
  timestamp: simple('timestamp'),
  duration: simple('duration'),
  error: simple('error'),
  list: (elem: CelType): CelType => ({ kind: 'list', elem }),
  map: (key: CelType, value: CelType): CelType => ({ kind: 'map', key, value }),
  opaque: (name: string, ...params: CelType[]): CelType => ({ kind: 'opaque', name, params }),
  optional: (of: CelType): CelType => ({ kind: 'opaque', name: 'optional_type', params: [of] }),
  type: (of: CelType): CelType => ({ kind: 'type', of }),
  param: (name: string): CelType => ({ kind: 'param', name }),
};

/** cel-go's `FormatCELType`: how types read in checker messages. */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'list':
      return `list(${formatType(t.elem)})`;
    case 'map':
      return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'object':
      return t.name;
    case 'opaque':
      return t.params.length ? `${t.name}(${t.params.map(formatType).join(', ')})` : t.name;
    case 'type':
      return `type(${formatType(t.of)})`;
    case 'param':
      return t.name;
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    default:
      return t.kind;
  }
}

export function sameType(a: CelType, b: CelType): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'list':
      return sameType(a.elem, (b as typeof a).elem);
    case 'map':
      return sameType(a.key, (b as typeof a).key) && sameType(a.value, (b as typeof a).value);
    case 'object':
      return a === b || a.name === (b as typeof a).name;
    case 'opaque': {
      const o = b as typeof a;
      return a.name === o.name && a.params.length === o.params.length && a.params.every((p, i) => sameType(p, o.params[i]!));
    }
    case 'type':
      return sameType(a.of, (b as typeof a).of);
    case 'param':
      return a.name === (b as typeof a).name;
    default:
      return true;
  }
}

// apiserver/pkg/cel/limits.go and apis/cel/config.go
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

/** A schema node's CEL type with the bounds cost estimation needs (apiserver `DeclType`). */
export interface DeclType {
  readonly type: CelType;
  /** Max length of a string/bytes, items of a list, entries of a map (0 when not a sized type). */
  readonly maxElements: number;
  readonly minSerializedSize: number;
  readonly elem?: DeclType;
  readonly key?: DeclType;
  /** Object fields by escaped name. */
  readonly fields?: ReadonlyMap<string, DeclType>;
}

const zeroIfNegative = (v: number): number => (v < 0 ? 0 : v);

function maxStringLengthPerRequest(s: JSONSchemaProps): number {
  if (s['x-kubernetes-int-or-string']) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

let objectTypeCounter = 0;

/**
 * `common.SchemaDeclType`: undefined where the schema has no CEL type (no `type`, or an array without items), which
 * leaves that part of the value out of CEL entirely.
 */
export function schemaDeclType(s: JSONSchemaProps | undefined, isResourceRoot = false): DeclType | undefined {
  if (s === undefined) return undefined;
  // A CRD's schema is walked for every object it validates: its types are built once per schema node.
  const cache = isResourceRoot ? declTypesOfRoots : declTypes;
  if (cache.has(s)) return cache.get(s);
  const decl = buildDeclType(isResourceRoot ? withTypeAndObjectMeta(s) : s);
  cache.set(s, decl);
  return decl;
}

/** Declared types by schema node (schemas are never changed once parsed), as a node and as a resource's root. */
const declTypes = new WeakMap<JSONSchemaProps, DeclType | undefined>();
const declTypesOfRoots = new WeakMap<JSONSchemaProps, DeclType | undefined>();

function buildDeclType(s: JSONSchemaProps): DeclType | undefined {
  if (s['x-kubernetes-int-or-string']) {
    const maxElements = s.maxLength !== undefined ? zeroIfNegative(s.maxLength) * 4 : maxStringLengthPerRequest(s);
    return { type: T.dyn, maxElements, minSerializedSize: 1 };
  }
  switch (s.type) {
    case 'array': {
      const items = schemaDeclType(s.items, s.items?.['x-kubernetes-embedded-resource'] === true);
      if (!items) return undefined;
      const maxItems =
        s.maxItems !== undefined
          ? zeroIfNegative(s.maxItems)
          : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (items.minSerializedSize + 1));
      return { type: T.list(items.type), maxElements: maxItems, minSerializedSize: 2, elem: items };
    }
    case 'object': {
      if (s.additionalProperties !== undefined && typeof s.additionalProperties === 'object') {
        const values = schemaDeclType(s.additionalProperties, s.additionalProperties['x-kubernetes-embedded-resource'] === true);
        if (!values) return undefined;
        const maxProperties =
          s.maxProperties !== undefined
            ? zeroIfNegative(s.maxProperties)
            : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (values.minSerializedSize + 6));
        // Map keys are apiserver's plain StringType, which declares no length bound (0): keys cost nothing to scan.
        const key: DeclType = { type: T.string, maxElements: 0, minSerializedSize: MIN_STRING_SIZE };
        return { type: T.map(T.string, values.type), maxElements: maxProperties, minSerializedSize: 2, elem: values, key };
      }
      const required = new Set(s.required ?? []);
      const fields = new Map<string, DeclType>();
      const fieldTypes = new Map<string, CelType>();
      let minSerializedSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const fieldType = schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (!fieldType) continue;
        const escaped = escapePropertyName(name);
        if (escaped !== undefined) {
          fields.set(escaped, fieldType);
          fieldTypes.set(escaped, fieldType.type);
        }
        if (required.has(name) && prop.default === undefined) {
          minSerializedSize += name.length + fieldType.minSerializedSize + 4;
        }
      }
      objectTypeCounter += 1;
      const type: CelType = { kind: 'object', name: `object${objectTypeCounter}`, fields: fieldTypes };
      return { type, maxElements: 0, minSerializedSize, fields };
    }
    case 'string': {
      switch (s.format) {
        case 'byte':
          return {
            type: T.bytes,
            maxElements: s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : maxStringLengthPerRequest(s),
            minSerializedSize: MIN_STRING_SIZE,
          };
        case 'duration':
          return { type: T.duration, maxElements: maxStringLengthPerRequest(s), minSerializedSize: MIN_DURATION_SIZE_JSON };
        case 'date':
          return { type: T.timestamp, maxElements: maxStringLengthPerRequest(s), minSerializedSize: JSON_DATE_SIZE };
        case 'date-time':
          return { type: T.timestamp, maxElements: maxStringLengthPerRequest(s), minSerializedSize: MIN_DATETIME_SIZE_JSON };
      }
      let maxElements: number;
      if (s.maxLength !== undefined) maxElements = zeroIfNegative(s.maxLength) * 4;
      else if (s.enum && s.enum.length > 0) {
        maxElements = Math.max(0, ...s.enum.map((v) => (typeof v === 'string' ? Buffer.byteLength(v) : 0)));
      } else maxElements = maxStringLengthPerRequest(s);
      return { type: T.string, maxElements, minSerializedSize: MIN_STRING_SIZE };
    }
    case 'boolean':
      return { type: T.bool, maxElements: 0, minSerializedSize: MIN_BOOL_SIZE };
    case 'number':
      return { type: T.double, maxElements: 0, minSerializedSize: MIN_NUMBER_SIZE };
    case 'integer':
      return { type: T.int, maxElements: 0, minSerializedSize: MIN_NUMBER_SIZE };
  }
  return undefined;
}

const stringSchema: JSONSchemaProps = { type: 'string' };

/**
 * apiserver `WithTypeAndObjectMeta`: the root of a resource (and an embedded resource) always exposes `kind`,
 * `apiVersion`, `metadata.name` and `metadata.generateName` to rules, whatever its schema declares.
 */
export function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const p = s.properties;
  if (
    p?.kind?.type === 'string' &&
    p.apiVersion?.type === 'string' &&
    p.metadata?.type === 'object' &&
    p.metadata.properties?.name?.type === 'string' &&
    p.metadata.properties.generateName?.type === 'string'
  ) {
    return s;
  }
  return {
    ...s,
    type: s.type ?? 'object',
    properties: {
      ...p,
      kind: stringSchema,
      apiVersion: stringSchema,
      metadata: { type: 'object', properties: { name: stringSchema, generateName: stringSchema } },
    },
  };
}
