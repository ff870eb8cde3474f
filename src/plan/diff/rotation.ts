/**
 * Template rotations: a template removed as `<base>-<hash>` and added as `<base>-<otherhash>` (same group, kind and
 * namespace), where some reference changed from the old name to the new one, is one template rotated — the way
 * CAPI replaces an immutable machine template — not a deletion plus a creation. Switching `templates.hashNames` on
 * (`<name>` → `<name>-<hash>`) or off (the reverse) is the same kind of rename, and is paired the same way.
 */
import type { TreeObject } from './objects.js';

const hashSuffix = /^(.+)-([a-z0-9]{5,16})$/;

export function hashBase(name: string): string | undefined {
  return hashSuffix.exec(name)?.[1];
}

export interface Rotation {
  from: TreeObject;
  to: TreeObject;
  /** Set when the rename is template hash naming switched on or off rather than a new hash. */
  naming?: 'hash-names-on' | 'hash-names-off';
}

/** Whether `hashed` is `plain` with a hash suffix (a long name's base is cut so the result stays at 63 characters). */
function hashedFrom(hashed: string, plain: string): boolean {
  const base = hashBase(hashed);
  return base !== undefined && (base === plain || (hashed.length === 63 && plain.length > base.length && plain.startsWith(base)));
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
  const paired = new Set<TreeObject>();
  for (const r of removed) {
    const g = group(r);
    if (g === undefined) continue;
    const candidates = (addedBy.get(g) ?? []).filter((a) => !used.has(a) && referenceChanges.has(`${r.name}\0${a.name}`));
    const to = candidates[0];
    if (to) {
      used.add(to);
      paired.add(r);
      out.push({ from: r, to });
    }
  }
  // Hash naming switched on or off: a reference moved between `<name>` and `<name>-<hash>` of the same kind.
  const same = (a: TreeObject, b: TreeObject): boolean => a.group === b.group && a.kind === b.kind && a.namespace === b.namespace;
  for (const r of removed) {
    if (paired.has(r)) continue;
    const to = added.find((a) => !used.has(a) && same(r, a) && referenceChanges.has(`${r.name}\0${a.name}`) && (hashedFrom(a.name, r.name) || hashedFrom(r.name, a.name)));
    if (!to) continue;
    used.add(to);
    out.push({ from: r, to, naming: hashedFrom(to.name, r.name) ? 'hash-names-on' : 'hash-names-off' });
  }
  return out;
}
