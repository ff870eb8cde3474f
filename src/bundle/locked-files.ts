// Where each locked release file sits in a bundle: shared by the layout writer, the verifier and the provenance
// statement, so none of them imports another.
import type { Lock, LockedFile } from '../lock/index.js';

export const repositoryDir = 'repository';

export function repositoryPath(label: string, version: string, file: string): string {
  return `${repositoryDir}/${label}/${version}/${file}`;
}

/** Every locked release file, with its bundle path. */
export function lockedFiles(lock: Lock): { label: string; version: string; file: LockedFile; path: string }[] {
  const out: { label: string; version: string; file: LockedFile; path: string }[] = [];
  for (const p of lock.providers) for (const f of p.files) out.push({ label: p.label, version: p.version, file: f, path: repositoryPath(p.label, p.version, f.name) });
  if (lock.certManager) {
    for (const f of lock.certManager.files) out.push({ label: 'cert-manager', version: lock.certManager.version, file: f, path: repositoryPath('cert-manager', lock.certManager.version, f.name) });
  }
  // The releases clusters pin their templates to: their template files, once (a pin may name the installed release).
  for (const t of lock.templatePins ?? []) {
    for (const f of t.files) {
      const path = repositoryPath(t.label, t.version, f.name);
      if (!out.some((o) => o.path === path)) out.push({ label: t.label, version: t.version, file: f, path });
    }
  }
  return out;
}
