/**
 * The disk memo of provider components renders (render's `ComponentsMemo`): an entry is stored under the digest of
 * the render's input record (render/components/memo.ts) with capiform's version and code and the entry format,
 * computed by the one record-digest function (`canonicalDigest`). A hit skips parsing, transforming and emitting (the
 * 1.1 MB core components render in ~10 ms instead of ~100 ms; a hit that only prints reads the text without parsing
 * the objects). Entries are written atomically (temp file + rename); an unreadable or malformed entry is a miss,
 * never an error. Render hands no record of a text holding a credential (provider-components.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalDigest, writeFileAtomic } from '../../cache/index.js';
import type { ComponentsMemo, ComponentsRecord, MemoizedComponents, MemoizedComponentsHit } from '../../render/generate/index.js';
import { codeFingerprint } from '../../version.js';

/** Bump when the transforms, the record's meaning or the entry format change. */
const FORMAT = 'capiform-components-v3';

/** The cache key of a components render: every field of the record is in it. */
export function componentsKey(record: ComponentsRecord): string {
  return canonicalDigest({ format: FORMAT, capiform: codeFingerprint(), record });
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
function readEntry(dir: string, key: string): MemoizedComponentsHit | undefined {
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
  let objects: MemoizedComponents['objects'] | undefined | null = null;
  return {
    targetNamespace: header.targetNamespace,
    images: header.images,
    yaml: raw.slice(eol + 1, yamlEnd),
    objects: () => {
      if (objects === null) {
        try {
          const v = JSON.parse(raw.slice(yamlEnd)) as unknown;
          objects = Array.isArray(v) ? (v as MemoizedComponents['objects']) : undefined;
        } catch {
          objects = undefined;
        }
      }
      return objects;
    },
  };
}

function writeEntry(dir: string, key: string, value: MemoizedComponents): void {
  try {
    const header: Header = { targetNamespace: value.targetNamespace, images: value.images, yamlLength: value.yaml.length };
    writeFileAtomic(pathFor(dir, key), `${JSON.stringify(header)}\n${value.yaml}${JSON.stringify(value.objects)}`);
  } catch {
    // caching is best effort: a read-only or full disk must not fail the render
  }
}

/** The components memo in `dir` (`<capiform cache dir>/render`). */
export function diskComponentsMemo(dir: string): ComponentsMemo {
  return {
    get: (record) => readEntry(dir, componentsKey(record)),
    put: (record, value) => writeEntry(dir, componentsKey(record), value),
  };
}
