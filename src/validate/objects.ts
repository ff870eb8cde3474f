/**
 * Objects checked as the API server checks them on create: a custom resource against its CRD version's structural
 * schema (unknown fields, types, formats, enums, list-type uniqueness) and its `x-kubernetes-validations` CEL rules
 * (the CEL engine the topology's variable validation uses); a built-in kind against its OpenAPI schema.
 */
import { FieldPath, hasCelRules, validateCelRules, validateCustomResource, type FieldError, type JSONSchemaProps } from '../apiextensions/index.js';
import { withCapiWebhookDefaults } from './capi-webhooks.js';
import { findingAt, isRecord, type Finding, type SourceObject } from './findings.js';
import { builtInGroups, groupOf, isCrd, type KindSchema, type SchemaCatalog } from './schemas.js';
import { crdRuleFindings } from './crd-rules.js';

export interface ObjectsResult {
  findings: Finding[];
  /** Objects checked against a schema. */
  checked: number;
  /** Built-in kinds left unchecked for want of an OpenAPI document, by `apiVersion Kind`. */
  unchecked: string[];
}

/** Checks every object against the catalog's schema for its apiVersion and kind. */
export function validateObjects(objects: readonly SourceObject[], catalog: SchemaCatalog): ObjectsResult {
  const findings: Finding[] = [];
  const unchecked = new Set<string>();
  const notedTransitions = new Set<KindSchema>();
  let checked = 0;
  for (const src of objects) {
    const o = src.object;
    const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
    const kind = typeof o.kind === 'string' ? o.kind : '';
    if (!apiVersion || !kind) {
      const missing = !apiVersion ? 'apiVersion' : 'kind';
      findings.push(findingAt(src, { severity: 'error', field: missing, message: `Object '${missing === 'kind' ? 'Kind' : 'apiVersion'}' is missing` }));
      continue;
    }
    findings.push(...metadataFindings(src));
    if (isCrd(o)) findings.push(...crdRuleFindings(src));
    const found = catalog.lookup(apiVersion, kind);
    if (!found) {
      if (builtInGroups.has(groupOf(apiVersion))) unchecked.add(`${apiVersion} ${kind}`);
      else {
        // The CRD may come from elsewhere (Argo CD's own): not checkable here, but not known to be wrong either.
        findings.push(
          findingAt(src, {
            severity: 'warning',
            field: '',
            message: `no matches for kind "${kind}" in version "${apiVersion}"`,
            hint: 'pass the CRD that declares it (or its provider components) with --schemas',
          }),
        );
      }
      continue;
    }
    checked++;
    if (!found.served) {
      findings.push(findingAt(src, { severity: 'error', field: 'apiVersion', message: `${apiVersion} ${kind} is not served by ${found.origin}`, value: apiVersion }));
    }
    findings.push(...schemaFindings(src, found));
    if (found.custom && !notedTransitions.has(found)) {
      notedTransitions.add(found);
      const n = countTransitionRules(found.schema, 0);
      if (n > 0) {
        findings.push(
          findingAt(src, {
            severity: 'note',
            field: '',
            message: `${n} transition rule${n === 1 ? '' : 's'} (oldSelf) of ${found.origin} not checked: they compare an update with the stored object`,
          }),
        );
      }
    }
  }
  return { findings, checked, unchecked: [...unchecked].sort() };
}

function schemaFindings(src: SourceObject, found: KindSchema): Finding[] {
  // Native types decode into Go structs, where null is the zero value: `creationTimestamp: null` is fine there.
  const object = found.custom ? withCapiWebhookDefaults(src.object, String(src.object.apiVersion), String(src.object.kind)) : withoutNulls(src.object, 0);
  // The API server builds a CEL validator only for schemas with rules; without one nothing is left unchecked.
  const result = validateCustomResource(found.schema, object, {
    statusSubresource: found.statusSubresource === true,
    nativeDecoding: !found.custom,
    ...(found.custom && hasRules(found.schema) ? { cel: celRules } : {}),
  });
  const out: Finding[] = result.unknownFields.map((field) =>
    found.bundled
      ? findingAt(src, {
          severity: 'warning',
          field,
          message: `unknown field "${field}" in ${found.origin}'s definitions`,
          hint: "it may be newer than that Kubernetes release: pass your cluster's OpenAPI v3 documents with --schemas to check it",
        })
      : findingAt(src, { severity: 'error', field, message: `unknown field "${field}"` }),
  );
  for (const e of result.errors) out.push(fromFieldError(src, e));
  return out;
}

const withRules = new WeakMap<JSONSchemaProps, boolean>();
function hasRules(schema: JSONSchemaProps): boolean {
  let known = withRules.get(schema);
  if (known === undefined) withRules.set(schema, (known = hasCelRules(schema)));
  return known;
}

/**
 * The customresource strategy runs the CEL validator from a nil field path on the whole object: rules there see
 * `apiVersion`, `kind` and `metadata.name`/`generateName`, and their errors print the path as `<nil>`.
 */
function celRules(schema: JSONSchemaProps, object: unknown, old: unknown, path: FieldPath): FieldError[] {
  const root = path === FieldPath.nil();
  const errors = validateCelRules(schema, object, old, root ? '' : path.toString(), { resourceRoot: root });
  const nil = FieldPath.nil().toString();
  return root ? errors.map((e) => (e.field === '' ? { ...e, field: nil, message: `${nil}${e.message}` } : e)) : errors;
}

function fromFieldError(src: SourceObject, e: FieldError): Finding {
  const field = e.field === '<nil>' ? '' : e.field;
  // The API server's bad value is sometimes the type's name (`"string"`); the finding shows what the object holds.
  const held = field ? valueAt(src.object, field) : undefined;
  const value = held !== undefined ? held : typeof e.badValue === 'symbol' ? undefined : e.badValue;
  return findingAt(src, { severity: 'error', field, message: e.message, ...(value !== undefined && value !== null ? { value } : {}) });
}

/** The API server's ObjectMeta checks that need no cluster: a name, and names and namespaces it can store. */
function metadataFindings(src: SourceObject): Finding[] {
  const meta = src.object.metadata;
  if (!isRecord(meta)) return [findingAt(src, { severity: 'error', field: 'metadata.name', message: 'metadata.name: Required value: name or generateName is required' })];
  const out: Finding[] = [];
  if (typeof meta.name !== 'string' || meta.name === '') {
    if (typeof meta.generateName !== 'string' || meta.generateName === '') {
      out.push(findingAt(src, { severity: 'error', field: 'metadata.name', message: 'metadata.name: Required value: name or generateName is required' }));
    }
  }
  if (meta.namespace !== undefined && (typeof meta.namespace !== 'string' || !dnsLabel.test(meta.namespace))) {
    out.push(
      findingAt(src, {
        severity: 'error',
        field: 'metadata.namespace',
        message: `metadata.namespace: Invalid value: ${JSON.stringify(meta.namespace)}: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        value: meta.namespace,
      }),
    );
  }
  return out;
}

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function withoutNulls(v: unknown, depth: number): unknown {
  if (depth > 200) return v;
  if (Array.isArray(v)) return v.map((x) => withoutNulls(x, depth + 1));
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x, depth + 1);
  return out;
}

function countTransitionRules(s: JSONSchemaProps | undefined, depth: number): number {
  if (!s || depth > 64) return 0;
  let n = (s['x-kubernetes-validations'] ?? []).filter((r) => typeof r.rule === 'string' && /\boldSelf\b/.test(r.rule)).length;
  for (const p of Object.values(s.properties ?? {})) n += countTransitionRules(p, depth + 1);
  if (typeof s.additionalProperties === 'object') n += countTransitionRules(s.additionalProperties, depth + 1);
  n += countTransitionRules(s.items, depth + 1);
  for (const a of s.allOf ?? []) n += countTransitionRules(a, depth + 1);
  return n;
}

/** The value at a Go field path (`spec.a[0].b`, `data[key]`), when the object holds one. */
function valueAt(object: unknown, field: string): unknown {
  let cur: unknown = object;
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  for (let m = re.exec(field); m; m = re.exec(field)) {
    const seg = m[1] ?? m[2] ?? '';
    if (Array.isArray(cur)) {
      const i = Number(seg);
      if (!/^\d+$/.test(seg) || i >= cur.length) return undefined;
      cur = cur[i];
    } else if (isRecord(cur) && Object.prototype.hasOwnProperty.call(cur, seg)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}
