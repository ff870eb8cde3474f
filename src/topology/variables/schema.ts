/**
 * CAPI's `convertToAPIExtensionsJSONSchemaProps`: the variable schema as the Kubernetes libraries see it. Only the
 * fields CAPI's API carries are kept (a ClusterClass cannot set `nullable`, `multipleOf` or list types on a
 * variable), raw default/example/enum values are decoded, and `false` flags are dropped.
 */
import { GoJsonError, decodeGoJson } from '../../go/index.js';
import {
  fieldInvalid,
  FieldPath,
  RawJson,
  type FieldError,
  type JSONSchemaProps,
  type ValidationRule,
} from '../../apiextensions/index.js';

function decode(value: unknown, path: FieldPath, what: 'default' | 'enum value' | 'example', errs: FieldError[]): { ok: boolean; value: unknown } {
  if (!(value instanceof RawJson)) return { ok: true, value };
  try {
    return { ok: true, value: decodeGoJson(value.text) };
  } catch (err) {
    const message = err instanceof GoJsonError ? err.message : String(err);
    errs.push(fieldInvalid(path, value.text, `${what} is not valid JSON: ${message}`));
    return { ok: false, value: undefined };
  }
}

const copied = [
  'type',
  'required',
  'maxProperties',
  'minProperties',
  'maxItems',
  'minItems',
  'format',
  'maxLength',
  'minLength',
  'pattern',
  'maximum',
  'minimum',
] as const;

/** Converts a variable schema; errors carry the paths under `path`. */
export function convertVariableSchema(schema: JSONSchemaProps, path: FieldPath): { schema: JSONSchemaProps; errors: FieldError[] } {
  const errs: FieldError[] = [];
  const out: JSONSchemaProps = {};
  for (const k of copied) if (schema[k] !== undefined) (out as Record<string, unknown>)[k] = schema[k];
  for (const k of ['uniqueItems', 'exclusiveMaximum', 'exclusiveMinimum', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields'] as const) {
    if (schema[k] === true) (out as Record<string, unknown>)[k] = true;
  }
  if (schema.default !== undefined && schema.default !== null) {
    const d = decode(schema.default, path.child('default'), 'default', errs);
    if (d.ok) out.default = d.value;
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values: unknown[] = [];
    schema.enum.forEach((e, i) => {
      if (e === null || e === undefined) return;
      const d = decode(e, path.child('enum').index(i), 'enum value', errs);
      if (d.ok) values.push(d.value);
    });
    out.enum = values;
  }
  if (schema.example !== undefined && schema.example !== null) {
    const d = decode(schema.example, path.child('example'), 'example', errs);
    if (d.ok) out.example = d.value;
  }
  const sub = (s: JSONSchemaProps, p: FieldPath): JSONSchemaProps | undefined => {
    const r = convertVariableSchema(s, p);
    errs.push(...r.errors);
    return r.errors.length > 0 ? undefined : r.schema;
  };
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties === 'object') {
    const ap = sub(schema.additionalProperties, path.child('additionalProperties'));
    if (ap) out.additionalProperties = ap;
  }
  if (schema.properties && Object.keys(schema.properties).length > 0) {
    out.properties = {};
    for (const [k, p] of Object.entries(schema.properties)) {
      const c = sub(p, path.child('properties').key(k));
      if (c) out.properties[k] = c;
    }
  }
  if (schema.items && typeof schema.items === 'object') {
    const items = sub(schema.items, path.child('items'));
    if (items) out.items = items;
  }
  for (const junctor of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = schema[junctor];
    if (!Array.isArray(list) || list.length === 0) continue;
    const converted: JSONSchemaProps[] = [];
    list.forEach((x, i) => {
      const c = sub(x, path.child(junctor).index(i));
      if (c) converted.push(c);
    });
    out[junctor] = converted;
  }
  if (schema.not) {
    const n = sub(schema.not, path.child('not'));
    if (n) out.not = n;
  }
  if (Array.isArray(schema['x-kubernetes-validations'])) {
    out['x-kubernetes-validations'] = schema['x-kubernetes-validations'].map((r: ValidationRule) => {
      const rule: ValidationRule = { rule: r.rule ?? '' };
      if (r.message) rule.message = r.message;
      if (r.messageExpression) rule.messageExpression = r.messageExpression;
      if (r.reason) rule.reason = r.reason;
      if (r.fieldPath) rule.fieldPath = r.fieldPath;
      return rule;
    });
  }
  return { schema: out, errors: errs };
}
