/**
 * A whole custom resource checked the way the API server's customresource strategy does on create: unknown fields
 * pruned (and reported, as `kubectl --validate=strict` does), nulls the schema neither allows nor defaults dropped and
 * the schema's defaults applied (what the API server's decoder does before any check, so `matchLabels: null` or a
 * defaulted required field is no error), then the OpenAPI schema, list-type uniqueness, then the CEL rules — unless a
 * type, required, enum or size error already shows the object lacks the shape the rules expect.
 * Object metadata (name, labels) and embedded resources' metadata are not checked here.
 */
import { FieldPath, fieldInvalid, type FieldError } from '../field/index.js';
import type { JSONSchemaProps } from '../schema/index.js';
import { decodeDefaultsInPlace } from './defaulting.js';
import { isObject } from './json.js';
import { validateListSetsAndMaps } from './listtype.js';
import { pruneUnknownFields } from './pruning.js';
import { validateValue, type OpenAPIOptions } from './validator.js';

export interface CustomResourceOptions extends OpenAPIOptions {
  /** The stored object, for transition rules (`oldSelf`). */
  oldObject?: unknown;
  /** The version enables the status subresource: a create drops `status` (after pruning) before any check. */
  statusSubresource?: boolean;
  /** Runs the schema's CEL rules on the object (the shared CEL engine); without it CEL rules are not checked. */
  cel?: (schema: JSONSchemaProps, object: unknown, oldObject: unknown, path: FieldPath) => FieldError[];
}

export interface CustomResourceResult {
  /** Schema, list-type and CEL errors, in the API server's order. */
  errors: FieldError[];
  /** Fields the schema does not specify (`spec.foo`), which the API server drops. */
  unknownFields: string[];
}

const blocking = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/** `customResourceStrategy.Validate` for one object and the schema of its version. */
export function validateCustomResource(schema: JSONSchemaProps, object: unknown, options: CustomResourceOptions = {}): CustomResourceResult {
  const pruned = pruneUnknownFields(object, schema, { isResourceRoot: true });
  const value = decoded(pruned.value, schema);
  if (options.statusSubresource === true && isObject(value)) delete value.status;
  const errors = validateValue(schema, value, null, options);
  if (isObject(value)) errors.push(...validateListSetsAndMaps(FieldPath.nil(), schema, value));
  if (options.cel) {
    if (errors.some((e) => blocking.has(e.type))) {
      errors.push(
        fieldInvalid(
          FieldPath.nil(),
          null,
          'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
        ),
      );
    } else {
      const old = options.oldObject === undefined ? undefined : decoded(pruneUnknownFields(options.oldObject, schema, { isResourceRoot: true }).value, schema);
      errors.push(...options.cel(schema, value, old, FieldPath.nil()));
    }
  }
  return { errors, unknownFields: pruned.unknownFields };
}

/** The apiextensions decoder after pruning, on the pruned copy (which nothing else holds). */
function decoded(pruned: unknown, schema: JSONSchemaProps): unknown {
  decodeDefaultsInPlace(pruned, schema);
  return pruned;
}
