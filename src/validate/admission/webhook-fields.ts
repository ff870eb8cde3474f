/**
 * The pieces of apimachinery and CAPI's util packages that CAPI's validating webhooks decide with: Kubernetes
 * version strings (`util/version.KubeSemver`), IntOrString values (`intstr`), label selectors (`metav1` and
 * `labels`), and a field error turned into a validate finding with its rule id.
 */
import { fieldError, isQualifiedName, isValidLabelValue, type FieldError, type FieldErrorType } from '../../apiextensions/index.js';
import { findingAt, isRecord, type Finding, type SourceObject } from '../findings.js';
import { objectOrEmpty as rec } from '../../go/index.js';

export { rec };
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** The value at `path` below `o`, or undefined. */
export function at(o: unknown, path: string): unknown {
  let cur: unknown = o;
  for (const k of path.split('.')) {
    if (!isRecord(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** Go's `IsDefined()` of an optional struct: set to something other than its zero value. */
export function defined(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (isRecord(v)) return Object.values(v).some(defined);
  return v !== undefined && v !== null && v !== '' && v !== 0 && v !== false;
}

/** `util/version.KubeSemver` (cluster-api): a Kubernetes version, with the `v` it requires. */
export const kubeSemver = /^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)([-0-9a-zA-Z_.+]*)?$/;

/** `intstr.IntValue()`: a string that is not a number reads as 0. */
export function intOrStringValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    // strconv.Atoi: an optional sign and decimal digits only.
    return /^[+-]?[0-9]+$/.test(v) ? Number(v) : 0;
  }
  return 0;
}

/** Why `intstr.GetScaledValueFromIntOrPercent` refuses `v` (its error text), or null when it accepts it. */
export function intOrPercentError(v: unknown): string | null {
  if (typeof v === 'number') return null;
  if (typeof v !== 'string') return 'invalid value for IntOrString: invalid type: neither int nor percentage';
  if (!v.endsWith('%')) return 'invalid value for IntOrString: invalid type: string is not a percentage';
  const n = v.slice(0, -1);
  if (/^[+-]?[0-9]+$/.test(n)) return null;
  return `invalid value for IntOrString: invalid value ${JSON.stringify(v)}: strconv.Atoi: parsing ${JSON.stringify(n)}: invalid syntax`;
}

/** `intstr.IntOrString.String()`. */
export const intOrStringText = (v: unknown): string => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '');

interface Requirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!' | '=';
  values: string[];
}

/** `metav1.LabelSelectorAsSelector` for a well-formed selector: requirements sorted by key, as `labels` keeps them. */
export function selectorRequirements(selector: unknown): Requirement[] {
  const s = rec(selector);
  const out: Requirement[] = [];
  for (const [key, value] of Object.entries(rec(s.matchLabels))) out.push({ key, op: '=', values: [String(value)] });
  for (const e of Array.isArray(s.matchExpressions) ? s.matchExpressions : []) {
    const x = rec(e);
    const values = (Array.isArray(x.values) ? x.values : []).map(String).sort();
    const op = x.operator === 'In' ? 'in' : x.operator === 'NotIn' ? 'notin' : x.operator === 'Exists' ? 'exists' : '!';
    out.push({ key: String(x.key ?? ''), op, values });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** `labels.Selector.Matches`. */
export function selectorMatches(reqs: readonly Requirement[], labels: Record<string, unknown>): boolean {
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    const v = has ? String(labels[r.key]) : undefined;
    switch (r.op) {
      case '=':
      case 'in':
        return has && r.values.includes(v as string);
      case 'notin':
        return !has || !r.values.includes(v as string);
      case 'exists':
        return has;
      case '!':
        return !has;
    }
    return false;
  });
}

/** `labels.Selector.String()`: `a=b,c in (d,e),!f`. */
export function selectorText(reqs: readonly Requirement[]): string {
  return reqs
    .map((r) => {
      if (r.op === '=') return `${r.key}=${r.values[0] ?? ''}`;
      if (r.op === 'exists') return r.key;
      if (r.op === '!') return `!${r.key}`;
      return `${r.key} ${r.op} (${r.values.join(',')})`;
    })
    .join(',');
}

/** One refusal of a webhook: the field error as the API server prints it, and the rule that found it. */
export interface WebhookError {
  readonly rule: string;
  readonly error: FieldError;
  readonly hint?: string;
}

export function refuse(rule: string, type: FieldErrorType, path: string, badValue: unknown, detail: string, hint?: string): WebhookError {
  return { rule, error: fieldError(type, path, badValue, detail), ...(hint ? { hint } : {}) };
}

export function findingOf(src: SourceObject, e: WebhookError, severity: Finding['severity'] = 'error'): Finding {
  return findingAt(src, {
    severity,
    field: e.error.field,
    message: e.error.message,
    rule: e.rule,
    ...(typeof e.error.badValue === 'symbol' || e.error.badValue === '' ? {} : { value: e.error.badValue }),
    ...(e.hint ? { hint: e.hint } : {}),
  });
}

type Obj = Record<string, unknown>;

export interface Webhook {
  readonly group: string;
  readonly kind: string;
  /** The upstream file the rules follow: a path in kubernetes-sigs/cluster-api, or `owner/repo path` of a provider. */
  readonly source: string;
  /** The defaulting webhook, as far as it changes what the checks decide. */
  readonly defaults: (o: Obj) => Obj;
  /** `ValidateCreate`; `ValidateUpdate` runs these on the new object too, unless `createOnUpdate` is false. */
  readonly create: (o: Obj) => WebhookError[];
  /** What `ValidateUpdate` adds: the checks of the old object against the new one. */
  readonly update: (before: Obj, after: Obj) => WebhookError[];
  /** False where `ValidateUpdate` does not repeat the create checks on the new object (CAPZ's machine webhooks). */
  readonly createOnUpdate?: boolean;
}

/** `ObjectMeta.Validate` of CAPI's API (`metav1validation.ValidateLabels`, `apivalidation.ValidateAnnotations`). */
export function objectMetaErrors(rule: string, meta: unknown, path: string): WebhookError[] {
  const out: WebhookError[] = [];
  const m = rec(meta);
  // Go walks the maps in random order; sorted keys keep the report stable.
  for (const [k, v] of Object.entries(rec(m.labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const e of isQualifiedName(k)) out.push(refuse(rule, 'FieldValueInvalid', `${path}.labels`, k, e, 'label keys are `name` or `prefix/name`: alphanumerics, `-`, `_` and `.`'));
    for (const e of isValidLabelValue(String(v))) out.push(refuse(rule, 'FieldValueInvalid', `${path}.labels`, String(v), e));
  }
  for (const k of Object.keys(rec(m.annotations)).sort()) {
    for (const e of isQualifiedName(k.toLowerCase())) out.push(refuse(rule, 'FieldValueInvalid', `${path}.annotations`, k, e));
  }
  return out;
}

/** A copy the defaulting webhook may change. */
export const clone = (o: Obj): Obj => structuredClone(o);

/** Sets `path` below `o` to `value` where it is unset (absent, null or empty), as a defaulting webhook does. */
export function setDefault(o: Obj, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = o;
  for (const k of keys.slice(0, -1)) {
    const next = cur[k];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[k] = {};
    cur = cur[k] as Obj;
  }
  const last = keys[keys.length - 1] as string;
  if (cur[last] === undefined || cur[last] === null || cur[last] === '') cur[last] = value;
}

/** JSON equality of two decoded values (Go's `cmp.Equal`/`reflect.DeepEqual` of the typed fields). */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Obj)[k])]),
    );
  }
  return v;
}

/** The hint of a field that only a new object can change. */
export const recreateHint = (what: string): string => `${what} cannot change on an existing cluster: keep the old value, or create a new cluster under another name`;

/** A decoded value without null, empty strings, lists and maps: what Go's typed round trip (`omitempty`) drops. */
function withoutEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => withoutEmpty(x) ?? null);
  if (typeof v === 'object' && v !== null) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      const y = withoutEmpty(x);
      if (y !== undefined) out[k] = y;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null || v === '' ? undefined : v;
}

/**
 * A spec without the fields an update may change (dotted paths, at most two deep), compared with `same`: the
 * `delete(spec, key)` then `reflect.DeepEqual` of the providers' ValidateUpdate on the unstructured spec.
 */
export function withoutFields(spec: Obj, fields: readonly string[]): unknown {
  const s = clone(spec);
  for (const f of fields) {
    const [head, tail] = f.split('.') as [string, string | undefined];
    if (tail === undefined) delete s[head];
    else if (typeof s[head] === 'object' && s[head] !== null) delete (s[head] as Obj)[tail];
  }
  return withoutEmpty(s);
}
