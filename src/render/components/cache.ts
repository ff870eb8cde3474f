/**
 * Memoisation of `renderComponents` on disk: the result is a pure function of its inputs, so it is stored under the
 * sha256 of (format version, capiform's version and code, text, provider, version, target namespace, image
 * overrides). A hit skips parsing, transforming and emitting (the 1.1 MB core components render in ~10 ms instead of
 * ~100 ms; a hit that only prints reads the text without parsing the objects). Entries are written atomically (temp
 * file + rename); an unreadable or malformed entry is a miss, never an error. The text is substituted: callers
 * memoise only results that hold no credential (provider-components.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../cache/index.js';
import { codeFingerprint } from '../../version.js';
import type { KubeObject } from '../../yaml/index.js';

/** Bump when the transforms or the output format change. */
const FORMAT = 'capiform-components-v2';

export interface CachedComponents {
  targetNamespace: string;
  images: string[];
  objects: KubeObject[];
  yaml: string;
}

/** A hit: the objects are parsed only when someone reads them (`generate provider` prints the text alone). */
export interface CachedComponentsHit {
  targetNamespace: string;
  images: string[];
  yaml: string;
  /** The objects, or undefined when that part of the entry is damaged (then it is a miss after all). */
  objects(): KubeObject[] | undefined;
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
  return join(dir, FORMAT, key.slice(0, 2), `${key}.entry`);
}

interface Header {
  targetNamespace: string;
  images: string[];
  /** Length of the YAML text that follows the header line (in UTF-16 code units, as JavaScript counts). */
  yamlLength: number;
}

function isHeader(v: Partial<Header>): v is Header {
  return typeof v.targetNamespace === 'string' && Array.isArray(v.images) && typeof v.yamlLength === 'number' && Number.isInteger(v.yamlLength) && v.yamlLength >= 0;
}

/**
 * An entry is one file: a JSON header line, the YAML text, then the objects as JSON. The text is taken as is and the
 * objects parsed on demand, so a hit that only prints costs a file read instead of a parse of the objects.
 */
export function readCachedComponents(dir: string, key: string): CachedComponentsHit | undefined {
  let raw: string;
  try {
    raw = readFileSync(pathFor(dir, key), 'utf8');
  } catch {
    return undefined;
  }
  const eol = raw.indexOf('\n');
  let header: Partial<Header>;
  try {
    header = JSON.parse(raw.slice(0, eol)) as Partial<Header>;
  } catch {
    return undefined;
  }
  if (eol < 0 || !isHeader(header)) return undefined;
  const yamlEnd = eol + 1 + header.yamlLength;
  if (yamlEnd > raw.length || !raw.endsWith(']')) return undefined;
  let objects: KubeObject[] | undefined | null = null;
  return {
    targetNamespace: header.targetNamespace,
    images: header.images,
    yaml: raw.slice(eol + 1, yamlEnd),
    objects: () => {
      if (objects === null) {
        try {
          const v = JSON.parse(raw.slice(yamlEnd)) as unknown;
          objects = Array.isArray(v) ? (v as KubeObject[]) : undefined;
        } catch {
          objects = undefined;
        }
      }
      return objects;
    },
  };
}

export function writeCachedComponents(dir: string, key: string, value: CachedComponents): void {
  try {
    const header: Header = { targetNamespace: value.targetNamespace, images: value.images, yamlLength: value.yaml.length };
    writeFileAtomic(pathFor(dir, key), `${JSON.stringify(header)}\n${value.yaml}${JSON.stringify(value.objects)}`);
  } catch {
    // caching is best effort: a read-only or full disk must not fail the render
  }
}
