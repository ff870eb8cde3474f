/**
 * JSON values as CEL sees them under a schema (apiextensions `UnstructuredToVal`): integers are `int`, objects with
 * properties expose their escaped field names, `date-time` strings are timestamps, `duration` strings durations and
 * `byte` strings bytes.
 */
import { create } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import type { CelInput } from '@bufbuild/cel';
import type { DeclType } from './types.js';
import { escapePropertyName } from './escape.js';
import { isObject } from '../../go/index.js';

export function toCelValue(value: unknown, decl: DeclType | undefined): CelInput {
  if (value === null || value === undefined) return null;
  const t = decl?.type;
  if (t === undefined || t.kind === 'dyn') return untyped(value);
  switch (t.kind) {
    case 'int':
      return typeof value === 'number' ? BigInt(Math.trunc(value)) : untyped(value);
    case 'double':
      return typeof value === 'number' ? value : untyped(value);
    case 'timestamp':
      return typeof value === 'string' ? (timestamp(value) ?? value) : untyped(value);
    case 'duration':
      return typeof value === 'string' ? (duration(value) ?? value) : untyped(value);
    case 'bytes':
      return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : untyped(value);
    case 'list':
      return Array.isArray(value) ? value.map((v) => toCelValue(v, decl?.elem)) : untyped(value);
    case 'map':
      if (isObject(value)) {
        return new Map(Object.entries(value).map(([k, v]) => [k, toCelValue(v, decl?.elem)]));
      }
      return untyped(value);
    case 'object':
      if (isObject(value)) {
        const out = new Map<string, CelInput>();
        for (const [k, v] of Object.entries(value)) {
          const escaped = escapePropertyName(k);
          if (escaped === undefined) continue;
          const field = decl?.fields?.get(escaped);
          if (field) out.set(escaped, toCelValue(v, field));
        }
        return out;
      }
      return untyped(value);
    default:
      return untyped(value);
  }
}

function untyped(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(untyped);
  if (isObject(value)) return new Map(Object.entries(value).map(([k, v]) => [k, untyped(v)]));
  return String(value);
}

/** RFC 3339 (`date-time`) or full-date (`date`) text as a protobuf Timestamp. */
export function timestamp(text: string): CelInput | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2}))?$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    ms -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60000;
  }
  const nanos = Number(frac.padEnd(9, '0'));
  return create(TimestampSchema, { seconds: BigInt(Math.floor(ms / 1000)), nanos }) as unknown as CelInput;
}

const durationUnits: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** A Go duration string (`1h30m`, `-1.5s`) as a protobuf Duration. */
export function duration(text: string): CelInput | undefined {
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(text);
  if (!m && text !== '0') return undefined;
  let nanos = 0n;
  for (const part of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    nanos += BigInt(Math.round(Number(part[1]) * durationUnits[part[2]!]!));
  }
  if (text.startsWith('-')) nanos = -nanos;
  const seconds = nanos / 1000000000n;
  return create(DurationSchema, { seconds, nanos: Number(nanos - seconds * 1000000000n) }) as unknown as CelInput;
}
