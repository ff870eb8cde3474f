/**
 * TEMPORARY narrow stand-in for a teammate's module that is not on main yet (F: the capi.lock.yaml reader). Only what src/bundle needs. Delete this file when they land and import theirs.
 */
import { parse as parseYaml } from 'yaml';
import { InputError } from '../errors.js';

export interface StandInLockedFile {
  name: string;
  path?: string;
  url?: string;
  sha256: string;
  size: number;
}
export interface StandInLockEntry {
  name: string;
  type: string;
  label: string;
  version: string;
  source: { kind: string; url: string };
  files: StandInLockedFile[];
}
export interface StandInLock {
  contract: string;
  providers: StandInLockEntry[];
  certManager: { version: string; source: { kind: string; url: string }; files: StandInLockedFile[] } | undefined;
}

/** Stand-in for F's `parseLock` (src/lock/format.ts): only the fields a bundle needs. */
export function parseLock(text: string, where: string): StandInLock {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new InputError(`${where} is not valid YAML: ${(err as Error).message}`, { where });
  }
  const d = doc as Partial<StandInLock> | null;
  if (!d || typeof d !== 'object' || !Array.isArray(d.providers)) throw new InputError(`${where} is not a capi.lock.yaml`, { where });
  return { contract: String(d.contract ?? ''), providers: d.providers, certManager: d.certManager ?? undefined };
}
