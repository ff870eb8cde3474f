/**
 * Template rotations: a template removed as `<base>-<hash>` and added as `<base>-<otherhash>` (same group, kind and
 * namespace), where some reference changed from the old name to the new one, is one template rotated — the way
 * CAPI replaces an immutable machine template — not a deletion plus a creation.
 */
import type { TreeObject } from './objects.js';

const hashSuffix = /^(.+)-([a-z0-9]{5,16})$/;

export function hashBase(name: string): string | undefined {
  return hashSuffix.exec(name)?.[1];
}

export interface Rotation {
  from: TreeObject;
  to: TreeObject;
}

/**
 * Pairs removed and added objects into rotations. `referenceChanges` holds `old name → new name` pairs seen in
 * changed objects' fields.
 */
export function findRotations(removed: TreeObject[], added: TreeObject[], referenceChanges: Set<string>): Rotation[] {
  const group = (o: TreeObject): string | undefined => {
    const base = hashBase(o.name);
    return base === undefined ? undefined : `${o.group}/${o.kind}/${o.namespace}/${base}`;
  };
  const addedBy = new Map<string, TreeObject[]>();
  for (const a of added) {
    const g = group(a);
    if (g === undefined) continue;
    const list = addedBy.get(g);
    if (list) list.push(a);
    else addedBy.set(g, [a]);
  }
  const out: Rotation[] = [];
  const used = new Set<TreeObject>();
  for (const r of removed) {
    const g = group(r);
    if (g === undefined) continue;
    const candidates = (addedBy.get(g) ?? []).filter((a) => !used.has(a) && referenceChanges.has(`${r.name}\0${a.name}`));
    const to = candidates[0];
    if (to) {
      used.add(to);
      out.push({ from: r, to });
    }
  }
  return out;
}
