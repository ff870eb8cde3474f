/**
 * Secrets are never shown. Secret `data`/`stringData` entries and any value containing a secret variable's value
 * appear only as added/removed/changed with a salted hash (`sha256:<12 hex>`): equal hashes mean equal values, so a
 * reviewer can tell two changes apart, and without the salt the hash cannot be looked up.
 */
import { sha256Hex } from '../../cache/index.js';
import type { FieldChange } from './types.js';
import { isRecord, type TreeObject } from './objects.js';
import { deepEqual, diffFields } from './field-diff.js';

export interface SecretPolicy {
  /** Stable per repository: $CAPIFORM_DIFF_SALT, else the repository's first commit id (see git.ts). */
  salt: string;
  /** Values of variables marked secret, by variable name (values of both sides when known). */
  values: { name: string; value: string }[];
}

export function saltedHash(salt: string, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `sha256:${sha256Hex(`${salt}\0${text}`).slice(0, 12)}`;
}

export function isSecret(o: TreeObject | undefined): boolean {
  return o !== undefined && o.group === '' && o.kind === 'Secret';
}

const secretSections = ['data', 'stringData'] as const;

/** Field changes of a Secret: ordinary fields as usual, data entries redacted one by one. */
export function diffSecret(a: TreeObject, b: TreeObject, policy: SecretPolicy): FieldChange[] {
  const strip = (o: Record<string, unknown>): Record<string, unknown> => {
    const copy = { ...o };
    for (const s of secretSections) delete copy[s];
    return copy;
  };
  const out = diffFields(strip(a.object), strip(b.object));
  for (const section of secretSections) {
    const da = isRecord(a.object[section]) ? (a.object[section] as Record<string, unknown>) : {};
    const db = isRecord(b.object[section]) ? (b.object[section] as Record<string, unknown>) : {};
    const keys = [...new Set([...Object.keys(da), ...Object.keys(db)])].sort();
    for (const key of keys) {
      const has = { a: Object.prototype.hasOwnProperty.call(da, key), b: Object.prototype.hasOwnProperty.call(db, key) };
      if (has.a && has.b && deepEqual(da[key], db[key])) continue;
      const action = !has.a ? 'added' : !has.b ? 'removed' : 'changed';
      const redacted: FieldChange['redacted'] = { reason: 'Secret data' };
      if (has.a) redacted.oldHash = saltedHash(policy.salt, da[key]);
      if (has.b) redacted.newHash = saltedHash(policy.salt, db[key]);
      out.push({ path: `.${section}[${JSON.stringify(key)}]`, segments: [section, key], action, redacted });
    }
  }
  return out;
}

function containsSecret(v: unknown, policy: SecretPolicy): string | undefined {
  if (v === undefined || policy.values.length === 0) return undefined;
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return policy.values.find((s) => s.value !== '' && text.includes(s.value))?.name;
}

/** Redacts field changes whose old or new value contains a secret variable's value. */
export function redactSecretValues(fields: FieldChange[], policy: SecretPolicy): FieldChange[] {
  if (policy.values.length === 0) return fields;
  return fields.map((f) => {
    if (f.redacted) return f;
    const name = containsSecret(f.old, policy) ?? containsSecret(f.new, policy);
    if (!name) return f;
    const redacted: FieldChange['redacted'] = { reason: `secret variable ${name}` };
    if (f.action !== 'added') redacted.oldHash = saltedHash(policy.salt, f.old);
    if (f.action !== 'removed') redacted.newHash = saltedHash(policy.salt, f.new);
    const { old: _old, new: _new, ...rest } = f;
    return { ...rest, redacted };
  });
}

/** Replaces secret values in every string of a JSON value (impact reasons, provider flags), as a last line of defence. */
export function scrubStrings<T>(value: T, policy: SecretPolicy): T {
  const values = policy.values.filter((s) => s.value !== '');
  if (values.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let s = v;
      for (const { name, value: secret } of values) if (s.includes(secret)) s = s.split(secret).join(`<secret ${name}>`);
      return s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
