/**
 * Memoisation of `renderComponents` on disk: the result is a pure function of its inputs, so it is stored under the
 * sha256 of (format version, capiform's version and code, text, provider, version, target namespace, image
 * overrides). A hit skips parsing, transforming and emitting (the 1.1 MB core components render in ~10 ms instead of
 * ~100 ms). Entries are written atomically (temp file + rename); an unreadable or malformed entry is a miss, never an
 * error. The text is substituted: callers memoise only results that hold no credential (provider-components.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../cache/index.js';
import { codeFingerprint } from '../../version.js';
import type { KubeObject } from '../../yaml/index.js';

/** Bump when the transforms or the output format change. */
const FORMAT = 'capiform-components-v1';

export interface CachedComponents {
  targetNamespace: string;
  images: string[];
  objects: KubeObject[];
  yaml: string;
}

export function componentsCacheKey(parts: unknown[]): string {
  const h = createHash('sha256');
  h.update(FORMAT).update('\0').update(codeFingerprint());
  for (const p of parts) {
    h.update('\0');
    h.update(typeof p === 'string' ? p : JSON.stringify(p ?? null));
  }
  return h.digest('hex');
}

function pathFor(dir: string, key: string): string {
  return join(dir, FORMAT, key.slice(0, 2), `${key}.json`);
}

export function readCachedComponents(dir: string, key: string): CachedComponents | undefined {
  let raw: string;
  try {
    raw = readFileSync(pathFor(dir, key), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const v = JSON.parse(raw) as Partial<CachedComponents>;
    if (
      typeof v.targetNamespace === 'string' &&
      Array.isArray(v.images) &&
      Array.isArray(v.objects) &&
      typeof v.yaml === 'string'
    )
      return v as CachedComponents;
  } catch {
    // a damaged entry is a miss
  }
  return undefined;
}

export function writeCachedComponents(dir: string, key: string, value: CachedComponents): void {
  try {
    writeFileAtomic(pathFor(dir, key), JSON.stringify(value));
  } catch {
    // caching is best effort: a read-only or full disk must not fail the render
  }
}
