/**
 * Portable YAML: the documents every reader capiform emulates means the same thing by, whatever the YAML version or
 * schema (go-yaml v2 and v3, the `yaml` package's YAML 1.1 and 1.2 core schemas). capiform's small, often-read files
 * are written this way (capi.lock.yaml, metadata.yaml, a clusterctl.yaml of URLs and names), and reading them with the
 * fast parser instead of the `yaml` package spares a command the package's ~30 ms of loading.
 *
 * Portable means: one document (no `---`/`...` lines), block mappings and sequences (flow ones only empty), and
 * scalars whose meaning no schema changes: quoted (double-quoted without escapes) and literal block scalars, plain
 * words that no schema resolves (not null/bool words of either version, not starting with a digit, sign or dot, except
 * lower-case hex such as digests), decimal integers within 15 digits, `true`/`false` in their three spellings and the
 * null words. Keys are plain words of the same kind or quoted. Anything else is not portable (`undefined`), and the
 * caller takes the `yaml` package's path, which also owns every error message.
 *
 * Writing is the mirror image: a value made only of such words, decimal numbers in strings, integers, booleans and
 * nulls is written by emit.ts the way the package's write profiles write it, byte for byte.
 */
import { emitObject, isPlainSafe } from './emit.js';
import { Bail, FastParser, type Node } from './fast-parse.js';

/** A scalar: its value (the same in every schema) and, for a plain one, its text (for readers that type it themselves). */
export interface PortableScalar {
  t: 'scalar';
  value: string | number | boolean | null;
  /** The source text of a plain scalar (folded over its lines); null for quoted and block scalars. */
  plain: string | null;
}
export interface PortableMap {
  t: 'map';
  entries: Array<[string, PortableNode]>;
}
export interface PortableSeq {
  t: 'seq';
  items: PortableNode[];
}
export type PortableNode = PortableScalar | PortableMap | PortableSeq;

/** Words some schema reads as null or a boolean (YAML 1.1's y/n/yes/no/on/off included). */
const specialWords = new Set(
  ['', '~', 'null', 'Null', 'NULL', 'y', 'Y', 'n', 'N'].concat(
    ...['yes', 'no', 'on', 'off', 'true', 'false'].map((w) => [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase()]),
  ),
);
const trueWords = new Set(['true', 'True', 'TRUE']);
const falseWords = new Set(['false', 'False', 'FALSE']);
const nullWords = new Set(['', '~', 'null', 'Null', 'NULL']);
const decimal = /^(?:0|-?[1-9][0-9]{0,14})$/;

/** A plain word every schema leaves a string. */
function portableWord(text: string): boolean {
  if (specialWords.has(text) || text === '__proto__') return false;
  const c = text.charCodeAt(0);
  const digitOrSign = (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
  if (!digitOrSign) return true;
  // Lower-case hex with a letter (sha256 digests): no number form of any schema (not an exponent, not 0b…) matches.
  return /^[0-9a-f]+$/.test(text) && /[a-f]/.test(text) && !/^[0-9]*e[0-9]+$/.test(text) && !text.startsWith('0b');
}

class NotPortable extends Error {}

function convert(src: string, node: Node): PortableNode {
  if (node.t === 'map') {
    if (node.flow) {
      if (node.keys.length > 0) throw new NotPortable();
      return { t: 'map', entries: [] };
    }
    const entries: Array<[string, PortableNode]> = [];
    node.keys.forEach((key, i) => {
      const start = node.keyStarts[i]!;
      const raw = src.slice(start, node.colonEnds[i]! - 1).trimEnd();
      const quoted = raw[0] === '"' || raw[0] === "'";
      if (quoted ? raw.includes('\\') || key === '__proto__' : raw !== key || !portableWord(key)) throw new NotPortable();
      entries.push([key, convert(src, node.vals[i]!)]);
    });
    return { t: 'map', entries };
  }
  if (node.t === 'seq') {
    if (node.flow) {
      if (node.value.length > 0) throw new NotPortable();
      return { t: 'seq', items: [] };
    }
    return { t: 'seq', items: node.items.map((item) => convert(src, item)) };
  }
  const first = src[node.start];
  const value = node.value;
  if (node.end > node.start && (first === '"' || first === "'" || first === '|')) {
    if (first === '"' && src.slice(node.start, node.end).includes('\\')) throw new NotPortable();
    return { t: 'scalar', value, plain: null };
  }
  const raw = src.slice(node.start, node.end);
  if (typeof value === 'string') {
    if (!portableWord(value)) throw new NotPortable();
    return { t: 'scalar', value, plain: value };
  }
  if (raw.includes('\n')) throw new NotPortable();
  const ok =
    typeof value === 'number' ? decimal.test(raw) : value === true ? trueWords.has(raw) : value === false ? falseWords.has(raw) : nullWords.has(raw);
  if (!ok) throw new NotPortable();
  return { t: 'scalar', value, plain: raw };
}

/**
 * The document's tree when the text is portable YAML: null for an empty document, undefined when the text is not
 * portable (or not valid at all: the caller's full parser explains).
 */
export function readPortableYaml(text: string): PortableNode | null | undefined {
  if (/(?:^|\n)(?:---|\.\.\.)/.test(text)) return undefined;
  try {
    const node = new FastParser(text, 0, text.length).parseDocument();
    return node === null ? null : convert(text, node);
  } catch (e) {
    if (e instanceof Bail || e instanceof NotPortable) return undefined;
    throw e;
  }
}

/** The plain value of a portable tree (objects, arrays, scalars). */
export function portableValue(node: PortableNode): unknown {
  if (node.t === 'scalar') return node.value;
  if (node.t === 'seq') return node.items.map(portableValue);
  const out: Record<string, unknown> = {};
  for (const [k, v] of node.entries) out[k] = portableValue(v);
  return out;
}

/** A string every writer writes plain (isPlainSafe quotes whatever any YAML 1.1 or 1.2 reader would type). */
function plainEverywhere(s: string): boolean {
  return /^[\x20-\x7e]+$/.test(s) && !specialWords.has(s) && isPlainSafe(s);
}

function emittable(v: unknown, depth: number): boolean {
  if (depth > 64) return false;
  if (v === null || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isSafeInteger(v) && Math.abs(v) < 1e15 && !Object.is(v, -0);
  // A decimal number as a string is double-quoted by every writer ("4", "0644", "1.5").
  if (typeof v === 'string') return plainEverywhere(v) || /^-?[0-9]{1,15}(?:\.[0-9]{1,15})?$/.test(v);
  if (Array.isArray(v)) return v.every((item) => emittable(item, depth + 1));
  if (typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
  return Object.entries(v).every(([k, item]) => plainEverywhere(k) && emittable(item, depth + 1));
}

/**
 * A mapping of portable values as YAML text (the same bytes as the package's `manifest` and `config` write profiles),
 * or undefined when the value holds anything else (quoted or multi-line strings, fractions, undefined, class
 * instances): the package writes those.
 */
export function emitPortable(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !emittable(value, 0)) return undefined;
  return emitObject(value as Record<string, unknown>);
}
