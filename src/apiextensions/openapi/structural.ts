/**
 * Structural schemas (apiextensions-apiserver `pkg/apiserver/schema`): what `NewStructural` refuses and what
 * `ValidateStructural` reports. A schema is structural when every type is specified outside the logical junctors
 * (allOf/anyOf/oneOf/not), which carry only value validations.
 */
import { RE2JS } from '@bufbuild/re2';
import { FieldPath, fieldForbidden, fieldInvalid, fieldRequired, type FieldError } from '../field/index.js';
import type { JSONSchemaProps } from '../schema/index.js';
import { isObject } from './json.js';

type Level = 'root' | 'item' | 'field';

/** `NewStructural`'s refusal of fields structural schemas do not support, or undefined. */
export function unsupportedSchemaField(s: JSONSchemaProps): string | undefined {
  const check = (x: JSONSchemaProps): string | undefined => {
    if (typeof x.id === 'string' && x.id.length > 0) return "OpenAPIV3Schema 'id' is not supported";
    if (typeof x.$schema === 'string' && x.$schema.length > 0) return "OpenAPIV3Schema 'schema' is not supported";
    if (typeof x.$ref === 'string' && x.$ref.length > 0) return "OpenAPIV3Schema '$ref' is not supported";
    if (isObject(x.patternProperties) && Object.keys(x.patternProperties).length > 0) {
      return "OpenAPIV3Schema 'patternProperties' is not supported";
    }
    if (isObject(x.dependencies) && Object.keys(x.dependencies).length > 0) return "OpenAPIV3Schema 'dependencies' is not supported";
    if (x.additionalItems !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported";
    if (isObject(x.definitions) && Object.keys(x.definitions).length > 0) return "OpenAPIV3Schema 'definitions' is not supported";
    if (Array.isArray(x.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
    if (x['x-kubernetes-preserve-unknown-fields'] === false) {
      return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
    }
    for (const sub of children(x)) {
      const err = check(sub);
      if (err) return err;
    }
    return undefined;
  };
  return check(s);
}

/** Every sub-schema of a node: items, properties, additionalProperties and the junctors. */
export function children(s: JSONSchemaProps): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (isObject(s.items)) out.push(s.items as JSONSchemaProps);
  for (const p of Object.values(s.properties ?? {})) out.push(p);
  if (isObject(s.additionalProperties)) out.push(s.additionalProperties as JSONSchemaProps);
  for (const list of [s.allOf, s.anyOf, s.oneOf]) for (const x of list ?? []) out.push(x);
  if (s.not) out.push(s.not);
  return out;
}

function sortedKeys(o: Record<string, unknown> | undefined): string[] {
  return Object.keys(o ?? {}).sort();
}

function hasOnlyType(s: JSONSchemaProps, type: string): boolean {
  const keys = Object.keys(s).filter((k) => (s as Record<string, unknown>)[k] !== undefined);
  return keys.length === 1 && keys[0] === 'type' && s.type === type;
}

function isIntOrStringAnyOf(list: JSONSchemaProps[] | undefined): boolean {
  return (
    list !== undefined && list.length === 2 && hasOnlyType(list[0] as JSONSchemaProps, 'integer') && hasOnlyType(list[1] as JSONSchemaProps, 'string')
  );
}

function validatePattern(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  if (!s.pattern) return [];
  try {
    new RE2JS(s.pattern);
    return [];
  } catch (err) {
    return [fieldInvalid(path.child('pattern'), s.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`)];
  }
}

function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (s.anyOf ?? []).forEach((x, i) => errs.push(...nested(x, false, lvl, path.child('anyOf').index(i))));
  (s.allOf ?? []).forEach((x, i) => errs.push(...nested(x, skipFirstAllOfAnyOf && i === 0, lvl, path.child('allOf').index(i))));
  (s.oneOf ?? []).forEach((x, i) => errs.push(...nested(x, false, lvl, path.child('oneOf').index(i))));
  if (s.not) errs.push(...nested(s.not, false, lvl, path.child('not')));
  errs.push(...validatePattern(s, path));
  return errs;
}

function nested(s: JSONSchemaProps, skipAnyOf: boolean, lvl: Level, path: FieldPath): FieldError[] {
  const errs = valueValidation(s, skipAnyOf, false, lvl, path);
  if (isObject(s.items)) errs.push(...nested(s.items as JSONSchemaProps, false, lvl, path.child('items')));
  for (const k of sortedKeys(s.properties)) errs.push(...nested(s.properties?.[k] as JSONSchemaProps, false, 'field', path.child('properties').key(k)));
  if (s.type) errs.push(fieldForbidden(path.child('type'), 'must be empty to be structural'));
  if (isObject(s.additionalProperties) || s.additionalProperties === true) {
    errs.push(fieldForbidden(path.child('additionalProperties'), 'must be undefined to be structural'));
  }
  if (s.default !== undefined && s.default !== null) errs.push(fieldForbidden(path.child('default'), 'must be undefined to be structural'));
  if (s.title) errs.push(fieldForbidden(path.child('title'), 'must be empty to be structural'));
  if (s.description) errs.push(fieldForbidden(path.child('description'), 'must be empty to be structural'));
  if (s.nullable === true) errs.push(fieldForbidden(path.child('nullable'), 'must be false to be structural'));
  if (s['x-kubernetes-preserve-unknown-fields'] === true) {
    errs.push(fieldForbidden(path.child('x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'));
  }
  if (s['x-kubernetes-embedded-resource'] === true) {
    errs.push(fieldForbidden(path.child('x-kubernetes-embedded-resource'), 'must be false to be structural'));
  }
  if (s['x-kubernetes-int-or-string'] === true) errs.push(fieldForbidden(path.child('x-kubernetes-int-or-string'), 'must be false to be structural'));
  if ((s['x-kubernetes-list-map-keys'] ?? []).length > 0) {
    errs.push(fieldForbidden(path.child('x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  }
  if (s['x-kubernetes-list-type'] !== undefined) errs.push(fieldForbidden(path.child('x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (s['x-kubernetes-map-type'] !== undefined) errs.push(fieldForbidden(path.child('x-kubernetes-map-type'), 'must be undefined to be structural'));
  if ((s['x-kubernetes-validations'] ?? []).length > 0) {
    errs.push(fieldForbidden(path.child('x-kubernetes-validations'), 'must be empty to be structural'));
  }
  if (s.properties && Object.prototype.hasOwnProperty.call(s.properties, 'metadata')) {
    errs.push(fieldForbidden(path.child('properties').key('metadata'), 'must not be specified in a nested context'));
  }
  return errs;
}

function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(fieldInvalid(path.child('type'), s.type ?? '', 'must be object'));
  if (lvl === 'root') {
    const props = Object.keys(s.properties ?? {});
    const onlyNames = props.every((p) => p === 'name' || p === 'generateName');
    const rest = Object.keys(s).filter(
      (k) => !['type', 'default', 'properties'].includes(k) && (s as Record<string, unknown>)[k] !== undefined,
    );
    if (!onlyNames || rest.length > 0) {
      errs.push(fieldForbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errs;
}

function invariants(s: JSONSchemaProps, lvl: Level, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  if (s.type === 'array' && !isObject(s.items)) errs.push(fieldRequired(path.child('items'), 'must be specified'));
  if (isObject(s.items)) errs.push(...invariants(s.items as JSONSchemaProps, 'item', path.child('items')));
  for (const k of sortedKeys(s.properties)) errs.push(...invariants(s.properties?.[k] as JSONSchemaProps, 'field', path.child('properties').key(k)));
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(fieldForbidden(path.child('additionalProperties'), 'must not be used at the root'));
    if (isObject(s.additionalProperties)) {
      errs.push(...invariants(s.additionalProperties as JSONSchemaProps, 'field', path.child('additionalProperties')));
    }
  }
  if (intOrString && preserve) {
    errs.push(fieldInvalid(path.child('x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (intOrString && embedded) {
    errs.push(fieldInvalid(path.child('x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const skipFirstAllOfAnyOf = (s.allOf ?? []).length >= 1 && isIntOrStringAnyOf(s.allOf?.[0]?.anyOf);
  errs.push(...valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, lvl, path));

  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && s.type !== 'object') {
    if (!s.type) errs.push(fieldRequired(path.child('type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(fieldInvalid(path.child('type'), s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!s.type && !intOrString && !preserve) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    errs.push(fieldRequired(path.child('type'), `must not be empty ${where}`));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errs.push(fieldForbidden(path.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && s.type && s.type !== 'object') errs.push(fieldInvalid(path.child('type'), s.type, 'must be object at the root'));
  const props = s.properties ?? {};
  if (checkMetadata && props.kind && props.kind.type !== 'string') {
    errs.push(fieldInvalid(path.child('properties').key('kind').child('type'), props.kind.type ?? '', 'must be string'));
  }
  if (checkMetadata && props.apiVersion && props.apiVersion.type !== 'string') {
    errs.push(fieldInvalid(path.child('properties').key('apiVersion').child('type'), props.apiVersion.type ?? '', 'must be string'));
  }
  if (props.metadata) errs.push(...metadataInvariants(props.metadata, checkMetadata, lvl, path.child('properties').key('metadata')));
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errs.push(fieldRequired(path.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: FieldPath, vPath: FieldPath): FieldError[] {
  if (!s) return [fieldRequired(sPath, `because it is defined in ${vPath.toString()}`)];
  const errs: FieldError[] = [];
  if (v.not) errs.push(...nestedCompleteness(v.not, s, sPath, vPath.child('not')));
  (v.allOf ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, vPath.child('allOf').index(i))));
  (v.anyOf ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, vPath.child('anyOf').index(i))));
  (v.oneOf ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, vPath.child('oneOf').index(i))));
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: FieldPath, vPath: FieldPath): FieldError[] {
  if (!s) return [fieldRequired(sPath, `because it is defined in ${vPath.toString()}`)];
  const errs = completeness(v, s, sPath, vPath);
  if (isObject(v.items)) {
    const sItems = isObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
    errs.push(...nestedCompleteness(v.items as JSONSchemaProps, sItems, sPath.child('items'), vPath.child('items')));
  }
  for (const k of sortedKeys(v.properties)) {
    const sub = s.properties?.[k];
    if (!sub) {
      errs.push(fieldRequired(sPath.child('properties').key(k), `because it is defined in ${vPath.child('properties').key(k).toString()}`));
    } else {
      errs.push(...nestedCompleteness(v.properties?.[k] as JSONSchemaProps, sub, sPath.child('properties').key(k), vPath.child('properties').key(k)));
    }
  }
  return errs;
}

/**
 * `ValidateStructural(fldPath, schema)` with the CRD options (no additionalProperties or x-kubernetes-validations
 * under junctors): the schema at `path` is the root of a resource. Errors sorted by message, as Kubernetes does.
 */
export function validateStructural(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs = [...invariants(schema, 'root', path), ...completeness(schema, schema, path, path)];
  return errs.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
}
