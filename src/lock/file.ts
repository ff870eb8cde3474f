/**
 * `capi.lock.yaml` as a file: the one reader (size and UTF-8 checked before parsing, then `parseLock`) and the one
 * writer (`formatLock`, replaced atomically). Whatever reads a lock — the pipeline, `diff`, `plan`, a bundle on either
 * side of the air gap — reads it here, so a broken lock fails the same way everywhere.
 */
import { readFileSync, statSync } from 'node:fs';
import { InputError } from '../errors.js';
import { writeFileAtomic } from '../cache/index.js';
import { checkSize, decodeUtf8, MAX_CONFIG_SIZE } from '../yaml/index.js';
import { decodeLock, formatLock, parseLock, parseLockFile } from './format.js';
import { lockFileName, type Lock, type LockFile } from './model.js';
import { asObject as record } from '../go/index.js';

/** A lock as read: its text exactly as stored (bundles carry it and name themselves after it) and what it says. */
export interface LockDocument {
  readonly text: string;
  readonly lock: Lock;
}

/**
 * The lock in `bytes`, named `where` in messages. A byte order mark stays in `text` (it is part of the file's bytes)
 * and is ignored by the parser.
 */
export function lockFromBytes(bytes: Uint8Array, where: string): LockDocument {
  const text = lockText(bytes, where);
  return { text, lock: parseLock(text, where) };
}

/**
 * Reads the lock at `path`; `where` names it in messages (default: the path). With `cacheDir`, a lock text found
 * valid before is not checked against the schema again.
 */
export function readLockDocument(path: string, where = path, cacheDir?: string): LockDocument {
  const text = readLockText(path, where);
  return { text, lock: parseLock(text, where, cacheDir) };
}

/** A lock file as read, one management cluster's or a fleet's, with its text exactly as stored. */
export interface LockFileDocument {
  readonly text: string;
  readonly lock: LockFile;
}

/**
 * Reads the lock at `path` whichever form it has; `where` names it in messages (default: the path). With `cacheDir`,
 * a lock text found valid before is not checked against the schema again.
 */
export function readLockFile(path: string, where = path, cacheDir?: string): LockFileDocument {
  const text = readLockText(path, where);
  return { text, lock: parseLockFile(text, where, cacheDir) };
}

/** The lock in `bytes` whichever form it has. */
export function lockFileFromBytes(bytes: Uint8Array, where: string): LockFileDocument {
  const text = lockText(bytes, where);
  return { text, lock: parseLockFile(text, where) };
}

/** Reads and checks the lock at `path`. */
export function readLock(path: string): Lock {
  return readLockDocument(path).lock;
}

/** Writes `lock` to `path` as `formatLock` prints it, in one atomic rename; returns the text written. */
export function writeLock(path: string, lock: LockFile): string {
  const text = formatLock(lock);
  writeFileAtomic(path, text);
  return text;
}

function lockText(bytes: Uint8Array, where: string): string {
  checkSize(bytes.length, MAX_CONFIG_SIZE, where, lockFileName);
  return decodeUtf8(bytes, where, { keepBom: true });
}

/** The size is checked before reading, so a huge file costs nothing. */
function readLockText(path: string, where: string): string {
  checkSize(statSync(path).size, MAX_CONFIG_SIZE, where, lockFileName);
  return lockText(readFileSync(path), where);
}

/** A provider entry as `plan upgrade` takes it for its inventory. */
export interface LockedProviderSummary {
  readonly name: string;
  readonly type: string;
  readonly version: string;
  /** Absent in hand-written locks; the caller derives clusterctl's label. */
  readonly label: string | undefined;
  readonly source: { readonly kind: string; readonly url: string };
}

/**
 * The providers of the lock at `path`, for planning an upgrade. Decoding is the reader's (size, UTF-8, YAML, repeated
 * keys, a version this capiform reads), but only the fields a plan needs are required: `plan upgrade` also plans from
 * locks written by hand or by tools that record no file digests.
 */
export function readLockedProviders(path: string, target?: string): LockedProviderSummary[] {
  const doc = decodeLock(readLockText(path, path), path);
  const targets = record(record(doc)?.targets);
  if (targets && target === undefined) {
    const names = Object.keys(targets).sort();
    throw new InputError(`${path} holds one section per management cluster (${names.join(', ')}); this needs one of them`, {
      where: path,
      hint: `pass --target <name> (one of: ${names.join(', ')})`,
    }, 'E_LOCK_FLEET');
  }
  if (target !== undefined && !targets) {
    throw new InputError(`${path} has no section for management cluster "${target}": it is the lock of a single management cluster`, {
      where: path,
      hint: 'drop --target, or run `capiform lock` with the fleet config first',
    }, 'E_UNKNOWN_TARGET');
  }
  const section = target === undefined ? doc : targets![target];
  if (target !== undefined && section === undefined) {
    throw new InputError(`${path} has no section for management cluster "${target}"`, {
      where: path,
      hint: `use one of: ${Object.keys(targets!).sort().join(', ')}, or run \`capiform lock\` after adding it to the config`,
    }, 'E_UNKNOWN_TARGET');
  }
  const providers = record(section)?.providers;
  if (!Array.isArray(providers)) {
    throw new InputError(`${path} has no providers list`, { where: path, hint: 'run `capiform lock` to rewrite it' });
  }
  return providers.map((p, i) => {
    const e = record(p) ?? {};
    const name = String(e.name ?? '');
    const type = String(e.type ?? '');
    const version = String(e.version ?? '');
    if (!name || !type || !version) {
      throw new InputError(`provider entry ${i + 1} of ${path} lacks name, type or version`, { where: `${path}: providers[${i}]` });
    }
    const source = record(e.source) ?? {};
    return {
      name,
      type,
      version,
      label: e.label === undefined || e.label === null ? undefined : String(e.label),
      source: { kind: String(source.kind ?? ''), url: String(source.url ?? '') },
    };
  });
}
