/**
 * The update rule of immutable templates: the webhooks of `immutableTemplates` (src/capi) refuse an update whose
 * compared part (`spec.template.spec`, or the whole `spec` for AWSClusterTemplate) differs from the stored object's.
 * Argo CD applies a changed file as an update of the object of the same name, so such a change never lands.
 */
import { immutableTemplateOf, type ImmutableTemplate } from '../../capi/index.js';
import { deepEqual } from '../../yaml/index.js';
import { findingAt, isRecord, type Finding, type SourceObject } from '../findings.js';
import type { UpdateRule } from './update-rule.js';

function at(object: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = object;
  for (const k of path) v = isRecord(v) ? v[k] : undefined;
  return v;
}

/**
 * Go's zero values are what a webhook compares: a decoded `{}`, `[]` or `null` is the same as an absent field in a
 * typed struct with `omitempty`, so they must not count as a change.
 */
function withoutZero(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(withoutZero);
    return items.length === 0 ? undefined : items.map((x) => (x === undefined ? null : x));
  }
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const y = withoutZero(x);
      if (y !== undefined) out[k] = y;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null ? undefined : v;
}

/** `value` at `path` below `v` where nothing is set there (both sides get it, so it cannot differ). */
function withDefault(v: unknown, path: readonly string[], value: unknown): unknown {
  if (v !== undefined && !isRecord(v)) return v;
  const out: Record<string, unknown> = v === undefined ? {} : structuredClone(v);
  let cur: Record<string, unknown> = out;
  for (const k of path.slice(0, -1)) {
    if (!isRecord(cur[k])) cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  const last = path[path.length - 1] as string;
  if (cur[last] === undefined) cur[last] = value;
  return out;
}

function compared(rule: ImmutableTemplate, before: Record<string, unknown>, after: Record<string, unknown>): { old: unknown; new: unknown } {
  let old = withoutZero(at(before, rule.compared));
  let now = withoutZero(at(after, rule.compared));
  for (const d of rule.appliedDefaults ?? []) {
    old = withDefault(old, d.path, d.value);
    now = withDefault(now, d.path, d.value);
  }
  if (!isRecord(old)) return { old, new: now };
  const adopted = structuredClone(old);
  for (const k of rule.adoptedWhenUnset ?? []) if (adopted[k] === undefined && isRecord(now) && now[k] !== undefined) adopted[k] = now[k];
  // A previous default left out by the new object: the webhook copies the old value over, so drop it from both.
  for (const d of rule.previousDefaults ?? []) {
    if (at(isRecord(now) ? now : {}, d.path) === undefined && deepEqual(at(adopted, d.path), withoutZero(d.value))) unset(adopted, d.path);
  }
  return { old: withoutZero(adopted), new: now };
}

function unset(object: Record<string, unknown>, path: readonly string[]): void {
  const parent = at(object, path.slice(0, -1));
  if (isRecord(parent)) delete parent[path[path.length - 1] as string];
}

/** `spec.template.spec.instanceType`: the first leaf that differs, to tell the reviewer which edit is refused. */
function firstDifference(a: unknown, b: unknown, path: string): string {
  // An absent object on one side is empty there: name the field set on the other side.
  if ((isRecord(a) && b === undefined) || (a === undefined && isRecord(b))) return firstDifference(a ?? {}, b ?? {}, path);
  if (isRecord(a) && isRecord(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (!deepEqual(a[k], b[k])) return firstDifference(a[k], b[k], `${path}.${k}`);
    }
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return firstDifference(a[i], b[i], `${path}[${i}]`);
  }
  return path;
}

export const templateImmutability: UpdateRule = (before: SourceObject, after: SourceObject): Finding[] => {
  const rule = immutableTemplateOf(after.object.apiVersion, after.object.kind);
  // Across API versions the webhook compares converted objects; without the conversion that is not decidable here.
  if (!rule || before.object.apiVersion !== after.object.apiVersion || before.object.kind !== after.object.kind) return [];
  const { old, new: now } = compared(rule, before.object, after.object);
  if (deepEqual(old, now)) return [];
  const changed = firstDifference(old, now, rule.compared.join('.'));
  return [
    findingAt(after, {
      severity: 'error',
      field: rule.field,
      message: `${rule.message} (changed: ${changed})`,
      rule: `immutable/${rule.kind}`,
      hint: 'give the changed template a new name and point its users at it: templates: { hashNames: true } in capi.config.ts does this on every spec change',
    }),
  ];
};

/** Where the rule comes from, for the docs and the reviewer: the webhook of the kind. */
export function templateImmutabilitySource(apiVersion: unknown, kind: unknown): string | undefined {
  return immutableTemplateOf(apiVersion, kind)?.source;
}
