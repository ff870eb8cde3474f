/**
 * Field-level differences between two versions of an object. Lists whose items all carry a unique string `name`
 * (containers, args of KubeadmConfig, ClusterClass variables, MachineDeployment topologies, CRD versions) are
 * compared by name, other lists by index; lists of scalars are compared as a whole.
 */
import type { FieldChange, PathSegment } from './types.js';
import { isRecord } from './objects.js';
import { readerDeepEqual } from '../../go/index.js';

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function formatPath(segments: PathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (typeof s === 'object') out += `[${s.field}=${s.value}]`;
    else if (identifier.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out || '.';
}

function itemsBy(list: unknown[], field: 'name' | 'class'): Map<string, unknown> | null {
  const m = new Map<string, unknown>();
  for (const item of list) {
    if (!isRecord(item)) return null;
    const v = item[field];
    if (typeof v !== 'string' || m.has(v)) return null;
    m.set(v, item);
  }
  return m;
}

/** Items keyed by `name`, else by `class` (ClusterClass worker classes), when every item of both lists has one. */
function keyedItems(a: unknown[], b: unknown[]): { field: 'name' | 'class'; a: Map<string, unknown>; b: Map<string, unknown> } | null {
  for (const field of ['name', 'class'] as const) {
    const ma = itemsBy(a, field);
    const mb = ma ? itemsBy(b, field) : null;
    if (ma && mb && (ma.size > 0 || mb.size > 0)) return { field, a: ma, b: mb };
  }
  return null;
}

function isScalarList(list: unknown[]): boolean {
  return list.every((v) => v === null || typeof v !== 'object');
}

/** Equality as the diff reports it: NaN equals NaN, Dates by their text. */
export const deepEqual = readerDeepEqual;

/** All differences from `a` to `b`, in a stable order (keys of `a`, then keys only in `b`). */
export function diffFields(a: unknown, b: unknown, base: PathSegment[] = []): FieldChange[] {
  const out: FieldChange[] = [];
  walk(a, b, base, out);
  return out;
}

function push(out: FieldChange[], segments: PathSegment[], change: Omit<FieldChange, 'path' | 'segments'>): void {
  out.push({ path: formatPath(segments), segments: [...segments], ...change });
}

function walk(a: unknown, b: unknown, path: PathSegment[], out: FieldChange[]): void {
  if (deepEqual(a, b)) return;
  if (isRecord(a) && isRecord(b)) {
    for (const k of Object.keys(a)) {
      if (!Object.prototype.hasOwnProperty.call(b, k)) push(out, [...path, k], { action: 'removed', old: a[k] });
      else walk(a[k], b[k], [...path, k], out);
    }
    for (const k of Object.keys(b)) {
      if (!Object.prototype.hasOwnProperty.call(a, k)) push(out, [...path, k], { action: 'added', new: b[k] });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (isScalarList(a) && isScalarList(b) && a.length !== b.length) {
      // Different lengths: index-wise changes would mislead (everything after an insertion "changes").
      push(out, path, { action: 'changed', old: a, new: b });
      return;
    }
    const keyed = keyedItems(a, b);
    if (keyed) {
      const { field } = keyed;
      for (const [value, item] of keyed.a) {
        const seg = { field, value };
        if (!keyed.b.has(value)) push(out, [...path, seg], { action: 'removed', old: item });
        else walk(item, keyed.b.get(value), [...path, seg], out);
      }
      for (const [value, item] of keyed.b) if (!keyed.a.has(value)) push(out, [...path, { field, value }], { action: 'added', new: item });
      return;
    }
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= b.length) push(out, [...path, i], { action: 'removed', old: a[i] });
      else if (i >= a.length) push(out, [...path, i], { action: 'added', new: b[i] });
      else walk(a[i], b[i], [...path, i], out);
    }
    return;
  }
  push(out, path, { action: 'changed', old: a, new: b });
}

/**
 * A multi-line string change narrowed to the lines that differ (`…` standing for the lines both sides share), so a
 * one-word edit inside a file embedded in a spec (a kubeadm file, an admission config) is visible in a report cell.
 */
export function narrowTextChange<F extends { old?: unknown; new?: unknown }>(f: F): F {
  if (typeof f.old !== 'string' || typeof f.new !== 'string' || !f.old.includes('\n') || !f.new.includes('\n')) return f;
  const a = f.old.split('\n');
  const b = f.new.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const cut = (lines: string[]): string => [...(start > 0 ? ['…'] : []), ...lines.slice(start, lines.length - end), ...(end > 0 ? ['…'] : [])].join('\n');
  return { ...f, old: cut(a), new: cut(b) };
}
