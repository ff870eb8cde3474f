/**
 * json.Marshal, json.MarshalIndent and an Encoder without HTML escaping (sprig's toJson, toPrettyJson, toRawJson)
 * for the values of the template model: map keys sorted, Go's float formatting and string escaping.
 */
import { compareGoStrings } from '../order.js';
import { formatFloat, GoNumber, GoObject, type GoValue, goTypeName, isNilSlice } from '../template/index.js';
import { GoJsonError } from './errors.js';

/** A value whose Go type has a MarshalJSON method (e.g. `*semver.Version`). */
export interface JsonMarshaler {
  marshalJSON(): GoValue;
}
function isMarshaler(v: unknown): v is JsonMarshaler {
  return typeof (v as Partial<JsonMarshaler>).marshalJSON === 'function';
}

const hex = '0123456789abcdef';

function encodeString(s: string, escapeHTML: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80) {
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c && !(escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26))) {
        out += ch;
        continue;
      }
      switch (c) {
        case 0x22:
          out += '\\"';
          continue;
        case 0x5c:
          out += '\\\\';
          continue;
        case 0x08:
          out += '\\b';
          continue;
        case 0x0c:
          out += '\\f';
          continue;
        case 0x0a:
          out += '\\n';
          continue;
        case 0x0d:
          out += '\\r';
          continue;
        case 0x09:
          out += '\\t';
          continue;
      }
      out += `\\u00${hex[c >> 4]}${hex[c & 0xf]}`;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate stands for invalid UTF-8, which Go replaces.
      out += '\\ufffd';
      continue;
    }
    if (c === 0x2028 || c === 0x2029) {
      out += `\\u202${hex[c & 0xf]}`;
      continue;
    }
    out += ch;
  }
  return `${out}"`;
}

function encodeFloat(f: number, bits: 32 | 64): string {
  if (!Number.isFinite(f)) throw new GoJsonError(`json: unsupported value: ${formatFloat(f, 'g', -1, bits)}`);
  const abs = Math.abs(f);
  let fmt: 'e' | 'f' = 'f';
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) fmt = 'e';
  let s = formatFloat(f, fmt, -1, bits);
  if (fmt === 'e') s = s.replace(/e-0(\d)$/, 'e-$1');
  return s;
}

interface EncodeOptions {
  escapeHTML: boolean;
  /** MarshalIndent's indent ("" = compact). */
  indent: string;
}

function encode(v: GoValue, o: EncodeOptions, depth: number): string {
  // encoding/json starts looking for cycles past 1000 nested maps or slices; deeper data is reported as one.
  if (depth > 1000 && (v instanceof Map || Array.isArray(v))) {
    throw new GoJsonError(`json: unsupported value: encountered a cycle via ${goTypeName(v)}`);
  }
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return encodeString(v, o.escapeHTML);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return encodeFloat(v, 64);
    case 'bigint':
      return v.toString();
  }
  if (v instanceof GoNumber) return typeof v.value === 'number' ? encodeFloat(v.value, 32) : v.value.toString();
  const nl = o.indent === '' ? '' : `\n${o.indent.repeat(depth + 1)}`;
  const close = o.indent === '' ? '' : `\n${o.indent.repeat(depth)}`;
  const colon = o.indent === '' ? ':' : ': ';
  if (Array.isArray(v)) {
    if (v.length === 0) return isNilSlice(v) ? 'null' : '[]';
    return `[${v.map((e) => nl + encode(e, o, depth + 1)).join(',')}${close}]`;
  }
  if (v instanceof Map) {
    if (v.size === 0) return '{}';
    const keys = [...v.keys()].sort(compareGoStrings);
    return `{${keys.map((k) => `${nl}${encodeString(k, o.escapeHTML)}${colon}${encode(v.get(k) ?? null, o, depth + 1)}`).join(',')}${close}}`;
  }
  if (v instanceof GoObject) {
    if (isMarshaler(v)) return encode(v.marshalJSON(), o, depth);
    return '{}';
  }
  throw new GoJsonError(`json: unsupported type: ${goTypeName(v)}`);
}

/** json.Marshal */
export function marshal(v: GoValue): string {
  return encode(v, { escapeHTML: true, indent: '' }, 0);
}
/** json.MarshalIndent(v, "", "  ") */
export function marshalIndent(v: GoValue): string {
  return encode(v, { escapeHTML: true, indent: '  ' }, 0);
}
/** A json.Encoder with SetEscapeHTML(false), without the trailing newline. */
export function marshalRaw(v: GoValue): string {
  return encode(v, { escapeHTML: false, indent: '' }, 0);
}
