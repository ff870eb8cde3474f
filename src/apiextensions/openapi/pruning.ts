/**
 * Structural pruning (apiextensions `schema/pruning`): the fields a schema does not specify are dropped, except
 * under `x-kubernetes-preserve-unknown-fields` and the apiVersion/kind/metadata of embedded resources. The API server
 * drops them silently; CAPI turns the dropped paths into a variable error, and `capiform validate` into findings.
 */
import type { JSONSchemaProps } from '../schema/index.js';
import { deepCopy, isObject } from './json.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

export interface PruneResult {
  /** The value without the unknown fields (a copy; the input is untouched). */
  readonly value: unknown;
  /** The dropped fields, `spec.foo`, `items[0].bar`, sorted. */
  readonly unknownFields: string[];
}

interface Walk {
  path: string[];
  unknown: string[];
}

/** Values nested deeper than about 1000 levels (path segments) are left as they are; validation reports the depth. */
const maxPathSegments = 4000;

function appendKey(w: Walk, key: string): void {
  if (w.path.length > 0) w.path.push('.');
  w.path.push(key);
}

function record(w: Walk, key: string): void {
  const l = w.path.length;
  appendKey(w, key);
  w.unknown.push(w.path.join(''));
  w.path.length = l;
}

/** The schema an object key falls under: its property, else additionalProperties (even `false`: no schema). */
function subSchema(s: JSONSchemaProps, key: string): { found: boolean; schema: JSONSchemaProps | undefined } {
  if (s.properties && Object.prototype.hasOwnProperty.call(s.properties, key)) return { found: true, schema: s.properties[key] };
  if (s.additionalProperties !== undefined) {
    return { found: true, schema: isObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined };
  }
  return { found: false, schema: undefined };
}

function prune(x: unknown, s: JSONSchemaProps | undefined, w: Walk): void {
  if (w.path.length > maxPathSegments) return;
  if (s && s['x-kubernetes-preserve-unknown-fields'] === true) {
    skipPrune(x, s, w);
    return;
  }
  const l = w.path.length;
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      w.path.push('[', String(i), ']');
      prune(v, s ? (isObject(s.items) ? (s.items as JSONSchemaProps) : undefined) : undefined, w);
      w.path.length = l;
    });
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x).sort()) {
    if (!s) {
      record(w, k);
      delete x[k];
      continue;
    }
    if (s['x-kubernetes-embedded-resource'] === true && metaFields.has(k)) continue;
    const sub = subSchema(s, k);
    if (sub.found) {
      appendKey(w, k);
      prune(x[k], sub.schema, w);
      w.path.length = l;
    } else {
      if (!metaFields.has(k) || w.path.length > 0) record(w, k);
      delete x[k];
    }
  }
}

function skipPrune(x: unknown, s: JSONSchemaProps, w: Walk): void {
  if (w.path.length > maxPathSegments) return;
  const l = w.path.length;
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      w.path.push('[', String(i), ']');
      if (isObject(s.items)) skipPrune(v, s.items as JSONSchemaProps, w);
      w.path.length = l;
    });
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x).sort()) {
    if (s['x-kubernetes-embedded-resource'] === true && metaFields.has(k)) continue;
    const sub = subSchema(s, k);
    if (sub.found) {
      appendKey(w, k);
      prune(x[k], sub.schema, w);
      w.path.length = l;
    }
  }
}

/**
 * `pruning.PruneWithOptions(obj, schema, isResourceRoot, TrackUnknownFieldPaths)`. With `isResourceRoot`, the root's
 * apiVersion, kind and metadata are kept, as for a whole custom resource.
 */
export function pruneUnknownFields(value: unknown, schema: JSONSchemaProps, options: { isResourceRoot?: boolean } = {}): PruneResult {
  const copy = deepCopy(value);
  const s = options.isResourceRoot === true && schema['x-kubernetes-embedded-resource'] !== true ? { ...schema, 'x-kubernetes-embedded-resource': true } : schema;
  const w: Walk = { path: [], unknown: [] };
  prune(copy, s, w);
  return { value: copy, unknownFields: w.unknown.sort() };
}
