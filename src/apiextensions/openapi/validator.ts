/**
 * kube-openapi's schema validator (`pkg/validation/validate`) as the API server runs it for custom resources and CAPI
 * runs it for ClusterClass variables: the same validators in the same order (type, allOf/anyOf/oneOf/not, string,
 * format, number, array, enum, object), the same message texts, and the same conversion of its results into field
 * errors (`kubeOpenAPIResultToFieldErrors`).
 */
import { RE2JS } from '@bufbuild/re2';
import {
  FieldPath,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  fieldTooLong,
  fieldTooMany,
  fieldTypeInvalid,
  GoFloat,
  goFormatFloat,
  goJsonMarshal,
  goStringQuote,
  type FieldError,
} from '../field/index.js';
import type { JSONSchemaProps } from '../schema/index.js';
import { effectiveFormat, knownFormat, matchesFormat } from './formats.js';
import { deepEqual, formatFloatF, isIntegral, isObject } from './json.js';

/** Options shared by validation entry points. */
export interface OpenAPIOptions {
  /** Kubernetes minor whose formats apply (`1.35` by default, the API server's n-1 compatibility version). */
  compatibilityVersion?: string;
  /** Deepest nesting of values and schemas followed (default 1000); deeper values fail validation. */
  maxDepth?: number;
  /**
   * The object is a built-in kind: the API server decodes it into Go structs and never runs this schema's formats,
   * so `format: byte` accepts what encoding/json accepts for a `[]byte` (an empty string, line breaks), not
   * kube-openapi's stricter base64 pattern.
   */
  nativeDecoding?: boolean;
}

type Code =
  | 'InvalidType'
  | 'Required'
  | 'TooLong'
  | 'TooShort'
  | 'Pattern'
  | 'Enum'
  | 'MultipleOf'
  | 'Max'
  | 'Min'
  | 'Unique'
  | 'MaxItems'
  | 'MinItems'
  | 'TooFewProperties'
  | 'TooManyProperties'
  | 'UnallowedProperty'
  | 'MultipleOfMustBePositive';

/** kube-openapi `errors.Validation` (a failed keyword at a path), or a plain composite error (anyOf, ranges). */
type OpenAPIError =
  | { kind: 'validation'; code: Code; name: string; value: unknown; valid?: number; values?: unknown[]; message: string }
  | { kind: 'plain'; message: string };

interface Result {
  errors: OpenAPIError[];
  matchCount: number;
}

const IN = 'body';

function newResult(): Result {
  return { errors: [], matchCount: 0 };
}

/** `Result.AddErrors`: an error with the same text is reported once. */
function addErrors(r: Result, ...errs: Array<OpenAPIError | undefined>): void {
  for (const e of errs) {
    if (!e) continue;
    if (!r.errors.some((x) => x.message === e.message)) r.errors.push(e);
  }
}

function merge(r: Result, ...others: Array<Result | undefined>): Result {
  for (const o of others) {
    if (!o) continue;
    addErrors(r, ...o.errors);
    r.matchCount += o.matchCount;
  }
  return r;
}

function single(e: OpenAPIError): Result {
  return { errors: [e], matchCount: 0 };
}

function v(code: Code, name: string, message: string, value: unknown, extra: { valid?: number; values?: unknown[] } = {}): OpenAPIError {
  return { kind: 'validation', code, name, value, message, ...extra };
}

/** Go's `%v` of a number held as int64 (integral) or float64. */
function numText(n: number, asFloat: boolean): string {
  if (!asFloat && isIntegral(n)) return BigInt(Math.trunc(n)).toString();
  return goFormatFloat(n);
}

function invalidType(name: string, typeName: string, value: unknown): OpenAPIError {
  const message =
    typeof value === 'string'
      ? `${name} in ${IN} must be of type ${typeName}: ${goStringQuote(value)}`
      : `${name} in ${IN} must be of type ${typeName}`;
  return v('InvalidType', name, message, value);
}

type Kind = 'null' | 'bool' | 'string' | 'int' | 'float' | 'slice' | 'map';

function kindOf(data: unknown): Kind {
  if (data === null || data === undefined) return 'null';
  if (typeof data === 'boolean') return 'bool';
  if (typeof data === 'string') return 'string';
  if (typeof data === 'number') return isIntegral(data) ? 'int' : 'float';
  if (Array.isArray(data)) return 'slice';
  return 'map';
}

/** The converted schema's `type` (`x-kubernetes-int-or-string` becomes `[integer, string]`). */
export function schemaTypes(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string'] === true) return ['integer', 'string'];
  return s.type ? [s.type] : [];
}

function parseMinor(version: string | undefined): number {
  const m = /^v?1\.(\d+)/.exec(version ?? '');
  return m ? Number(m[1]) : 35;
}

interface Ctx {
  minor: number;
  maxDepth: number;
  nativeDecoding: boolean;
}

/** encoding/json's `[]byte`: base64.StdEncoding, which skips `\r` and `\n` and decodes "" to an empty slice. */
function goDecodesBase64(s: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s.replace(/[\r\n]/g, ''));
}

/** Compiled patterns, shared by every validation (a fleet validates the same class schemas again and again). */
const patterns = new Map<string, RE2JS | Error>();
const maxCachedPatterns = 4096;

function compilePattern(pattern: string): RE2JS | Error {
  let re = patterns.get(pattern);
  if (!re) {
    try {
      re = new RE2JS(pattern);
    } catch (err) {
      re = err instanceof Error ? err : new Error(String(err));
    }
    if (patterns.size >= maxCachedPatterns) patterns.clear();
    patterns.set(pattern, re);
  }
  return re;
}

/** `swag.IsFloat64AJSONInteger`. */
function isFloat64AJSONInteger(f: number): boolean {
  const max = 2 ** 53 - 1;
  if (!Number.isFinite(f) || f < -max || f > max) return false;
  const rounded = Math.round(f);
  if (f === rounded) return true;
  if (rounded === 0) return false;
  return Math.abs(f - rounded) < 1e-9 * Math.abs(rounded);
}

function validateSchema(ctx: Ctx, s: JSONSchemaProps, value: unknown, path: string, depth: number): Result {
  // A YAML reader may hand over big integers as bigint; the API server holds them as int64.
  const data = typeof value === 'bigint' ? Number(value) : value;
  const result = newResult();
  if (depth > ctx.maxDepth) {
    addErrors(result, { kind: 'plain', message: `${goStringQuote(path)} is nested more than ${ctx.maxDepth} levels deep` });
    return result;
  }
  const types = schemaTypes(s);
  const format = effectiveFormat(s.format, types, ctx.minor);
  const kind = kindOf(data);
  if (kind === 'null') {
    merge(result, typeValidator(s, types, format, data, kind, path));
    merge(result, enumValidator(s, data, path));
    return result;
  }
  const steps: Array<() => Result | undefined> = [];
  if (types.length > 0 || format !== '') steps.push(() => typeValidator(s, types, format, data, kind, path));
  steps.push(() => schemaPropsValidator(ctx, s, data, path, depth));
  if (kind === 'string') steps.push(() => stringValidator(s, data as string, path));
  if (kind === 'string' && knownFormat(format)) steps.push(() => formatValidator(ctx, format, data as string, path));
  if (kind === 'int' || kind === 'float') steps.push(() => numberValidator(s, types, format, data as number, kind, path));
  if (kind === 'slice') steps.push(() => sliceValidator(ctx, s, data as unknown[], path, depth));
  steps.push(() => enumValidator(s, data, path));
  if (kind === 'map') steps.push(() => objectValidator(ctx, s, data as Record<string, unknown>, path, depth));
  for (const step of steps) {
    merge(result, step());
    result.matchCount++;
  }
  result.matchCount++;
  return result;
}

function typeValidator(s: JSONSchemaProps, types: string[], format: string, data: unknown, kind: Kind, path: string): Result {
  const result: Result = { errors: [], matchCount: 1 };
  if (kind === 'null') {
    if (types.length > 0 && !types.includes('null') && s.nullable !== true) return single(invalidType(path, types.join(','), 'null'));
    return result;
  }
  const schType = { bool: 'boolean', string: 'string', int: 'integer', float: 'number', slice: 'array', map: 'object' }[kind];
  const dataFormat = kind === 'int' ? 'int64' : kind === 'float' ? 'float64' : '';
  const isFloatInt = kind === 'float' && isFloat64AJSONInteger(data as number) && types.includes('integer');
  const isIntFloat = kind === 'int' && types.includes('number');
  if (
    kind !== 'string' &&
    kind !== 'slice' &&
    format !== '' &&
    !(types.includes(schType) || dataFormat === format || isFloatInt || isIntFloat)
  ) {
    return single(invalidType(path, format, dataFormat));
  }
  if (!(types.includes('number') || types.includes('integer')) && format !== '' && (kind === 'string' || kind === 'slice')) {
    return result;
  }
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) return single(invalidType(path, types.join(','), schType));
  return result;
}

function schemaPropsValidator(ctx: Ctx, s: JSONSchemaProps, data: unknown, path: string, depth: number): Result {
  const main = newResult();
  if (s.anyOf && s.anyOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let succeeded = false;
    for (const sub of s.anyOf) {
      const r = validateSchema(ctx, sub, data, path, depth + 1);
      if (r.errors.length === 0) {
        best = undefined;
        succeeded = true;
        firstSuccess ??= r;
        break;
      }
      if (!best || r.matchCount > best.matchCount) best = r;
    }
    if (!succeeded) addErrors(main, { kind: 'plain', message: `${goStringQuote(path)} must validate at least one schema (anyOf)` });
    if (best) merge(main, best);
    else if (firstSuccess) merge(main, firstSuccess);
  }
  if (s.oneOf && s.oneOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sub of s.oneOf) {
      const r = validateSchema(ctx, sub, data, path, depth + 1);
      if (r.errors.length === 0) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      const additional = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      addErrors(main, {
        kind: 'plain',
        message: `${goStringQuote(path)} must validate one and only one schema (oneOf). ${additional}`,
      });
      if (best) merge(main, best);
    } else if (firstSuccess) merge(main, firstSuccess);
  }
  if (s.allOf && s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateSchema(ctx, sub, data, path, depth + 1);
      if (r.errors.length === 0) validated++;
      merge(main, r);
    }
    if (validated !== s.allOf.length) {
      const additional = validated === 0 ? '. None validated' : '';
      addErrors(main, { kind: 'plain', message: `${goStringQuote(path)} must validate all the schemas (allOf)${additional}` });
    }
  }
  if (s.not) {
    const r = validateSchema(ctx, s.not, data, path, depth + 1);
    if (r.errors.length === 0) addErrors(main, { kind: 'plain', message: `${goStringQuote(path)} must not validate the schema (not)` });
  }
  main.matchCount++;
  return main;
}

function stringValidator(s: JSONSchemaProps, data: string, path: string): Result | undefined {
  const length = [...data].length;
  if (s.maxLength !== undefined && length > s.maxLength) {
    return single(v('TooLong', path, `${path} in ${IN} should be at most ${s.maxLength} chars long`, data, { valid: s.maxLength }));
  }
  if (s.minLength !== undefined && length < s.minLength) {
    return single(v('TooShort', path, `${path} in ${IN} should be at least ${s.minLength} chars long`, data, { valid: s.minLength }));
  }
  if (s.pattern) {
    const re = compilePattern(s.pattern);
    if (re instanceof Error) {
      return single(v('Pattern', path, `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${re.message}'`, data));
    }
    if (!re.test(data)) return single(v('Pattern', path, `${path} in ${IN} should match '${s.pattern}'`, data));
  }
  return undefined;
}

function formatValidator(ctx: Ctx, format: string, data: string, path: string): Result | undefined {
  if (ctx.nativeDecoding && format === 'byte') return goDecodesBase64(data) ? undefined : single(invalidType(path, format, data));
  if (!matchesFormat(format, data)) return single(invalidType(path, format, data));
  return undefined;
}

/** `IsValueValidAgainstRange`: can the number be held by the schema's type and format? */
function rangeError(n: number, isFloat: boolean, typeName: string, format: string, prefix: string, path: string): OpenAPIError | undefined {
  const text = isFloat || !isIntegral(n) ? formatFloatF(n) : BigInt(n).toString();
  let ok = true;
  if (typeName === 'integer') {
    const bits = format === 'int32' || format === 'uint32' ? 32 : 64;
    const unsigned = format === 'uint32' || format === 'uint64';
    if (!/^[+-]?[0-9]+$/.test(text)) ok = false;
    else {
      const b = BigInt(text);
      const lo = unsigned ? 0n : -(2n ** BigInt(bits - 1));
      const hi = unsigned ? 2n ** BigInt(bits) - 1n : 2n ** BigInt(bits - 1) - 1n;
      ok = b >= lo && b <= hi;
    }
  } else if (format === 'float' || format === 'float32') {
    ok = Math.abs(Number(text)) <= 3.4028234663852886e38;
  }
  if (ok) return undefined;
  const message =
    format !== ''
      ? `${prefix} value must be of type ${typeName} with format ${format} in ${path}`
      : `${prefix} value must be of type ${typeName} (default format) in ${path}`;
  return { kind: 'plain', message };
}

function numberValidator(s: JSONSchemaProps, types: string[], format: string, data: number, kind: Kind, path: string): Result {
  const res = newResult();
  let typeName = '';
  let fmt = '';
  if (types.length === 1) {
    if (types[0] === 'integer') {
      typeName = 'integer';
      if (format === 'int32' || format === 'int64') fmt = format;
    } else if (types[0] === 'number') {
      typeName = 'number';
      if (format === 'float' || format === 'double') fmt = format;
    }
  }
  const isInt = kind === 'int';
  addErrors(res, rangeError(data, !isInt, typeName, fmt, 'Checked', path));
  const resMultiple = newResult();
  const resMinimum = newResult();
  const resMaximum = newResult();
  if (s.multipleOf !== undefined) {
    const factor = s.multipleOf;
    addErrors(resMultiple, rangeError(factor, !isIntegral(factor), typeName, fmt, 'MultipleOf', path));
    addErrors(resMultiple, multipleOf(path, data, factor, isInt && resMultiple.errors.length === 0));
  }
  if (s.maximum !== undefined) {
    const max = s.maximum;
    addErrors(resMaximum, rangeError(max, !isIntegral(max), typeName, fmt, 'Maximum boundary', path));
    const native = isInt && resMaximum.errors.length === 0;
    const bound = native ? Math.trunc(max) : max;
    const excl = s.exclusiveMaximum === true;
    if ((!excl && data > bound) || (excl && data >= bound)) {
      const rel = excl ? 'less than' : 'less than or equal to';
      addErrors(resMaximum, v('Max', path, `${path} in ${IN} should be ${rel} ${numText(bound, !native)}`, data));
    }
  }
  if (s.minimum !== undefined) {
    const min = s.minimum;
    addErrors(resMinimum, rangeError(min, !isIntegral(min), typeName, fmt, 'Minimum boundary', path));
    const native = isInt && resMinimum.errors.length === 0;
    const bound = native ? Math.trunc(min) : min;
    const excl = s.exclusiveMinimum === true;
    if ((!excl && data < bound) || (excl && data <= bound)) {
      const rel = excl ? 'greater than' : 'greater than or equal to';
      addErrors(resMinimum, v('Min', path, `${path} in ${IN} should be ${rel} ${numText(bound, !native)}`, data));
    }
  }
  merge(res, resMultiple, resMinimum, resMaximum);
  res.matchCount++;
  return res;
}

function multipleOf(path: string, data: number, factor: number, native: boolean): OpenAPIError | undefined {
  if (native) {
    const f = Math.trunc(factor);
    if (f <= 0) return v('MultipleOfMustBePositive', path, `factor MultipleOf declared for ${path} must be positive: ${f}`, f);
    if (BigInt(Math.trunc(data)) % BigInt(f) !== 0n) {
      return v('MultipleOf', path, `${path} in ${IN} should be a multiple of ${f}`, data);
    }
    return undefined;
  }
  if (factor <= 0) {
    return v('MultipleOfMustBePositive', path, `factor MultipleOf declared for ${path} must be positive: ${goFormatFloat(factor)}`, factor);
  }
  const mult = factor < 1 ? (1 / factor) * data : data / factor;
  if (!isFloat64AJSONInteger(mult)) return v('MultipleOf', path, `${path} in ${IN} should be a multiple of ${goFormatFloat(factor)}`, new GoFloat(data));
  return undefined;
}

function sliceValidator(ctx: Ctx, s: JSONSchemaProps, data: unknown[], path: string, depth: number): Result {
  const result = newResult();
  if (s.items) {
    for (let i = 0; i < data.length; i++) merge(result, validateSchema(ctx, s.items, data[i], `${path}[${i}]`, depth + 1));
  }
  if (s.minItems !== undefined && data.length < s.minItems) {
    addErrors(result, v('MinItems', path, `${path} in ${IN} should have at least ${s.minItems} items`, data.length, { valid: s.minItems }));
  }
  if (s.maxItems !== undefined && data.length > s.maxItems) {
    addErrors(result, v('MaxItems', path, `${path} in ${IN} should have at most ${s.maxItems} items`, data.length, { valid: s.maxItems }));
  }
  if (s.uniqueItems === true) {
    const dup = data.some((x, i) => data.slice(0, i).some((y) => deepEqual(x, y)));
    if (dup) addErrors(result, v('Unique', path, `${path} in ${IN} shouldn't contain duplicates`, undefined));
  }
  result.matchCount++;
  return result;
}

/** Go's reflect conversion of the value to the enum entry's type, then DeepEqual. */
function enumMatches(data: unknown, entry: unknown): boolean {
  if (entry === null || entry === undefined) return false;
  const dk = kindOf(data);
  const ek = kindOf(entry);
  if (dk === 'null') return false;
  if (ek === 'int') {
    if (dk === 'int' || dk === 'float') return Math.trunc(data as number) === entry;
    return false;
  }
  if (ek === 'float') return (dk === 'int' || dk === 'float') && data === entry;
  if (ek === 'string') {
    if (dk === 'string') return data === entry;
    if (dk === 'int') {
      const n = data as number;
      const rune = n >= 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\ufffd';
      return rune === entry;
    }
    return false;
  }
  if (ek === 'bool') return dk === 'bool' && data === entry;
  return dk === ek && deepEqual(data, entry);
}

function enumValidator(s: JSONSchemaProps, data: unknown, path: string): Result | undefined {
  if (!s.enum || s.enum.length === 0) return undefined;
  if (s.enum.some((e) => enumMatches(data, e))) return undefined;
  return single(v('Enum', path, `${path} in ${IN} should be one of ${goListText(s.enum)}`, data, { values: s.enum }));
}

/** Go's `%v` of a `[]interface{}` (only used inside a message the field error does not print). */
function goListText(list: unknown[]): string {
  return `[${list.map((x) => (typeof x === 'string' ? x : goJsonMarshal(x))).join(' ')}]`;
}

function objectValidator(ctx: Ctx, s: JSONSchemaProps, data: Record<string, unknown>, path: string, depth: number): Result {
  const res = newResult();
  const keys = Object.keys(data).sort();
  const n = keys.length;
  if (s.minProperties !== undefined && n < s.minProperties) {
    addErrors(res, v('TooFewProperties', path, `${path} in ${IN} should have at least ${s.minProperties} properties`, n, { valid: s.minProperties }));
  }
  if (s.maxProperties !== undefined && n > s.maxProperties) {
    addErrors(res, v('TooManyProperties', path, `${path} in ${IN} should have at most ${s.maxProperties} properties`, n, { valid: s.maxProperties }));
  }
  const props = s.properties ?? {};
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(props, k);
  if (s.additionalProperties === false) {
    for (const k of keys) {
      if (!has(k)) addErrors(res, v('UnallowedProperty', path, `${path}.${k} in ${IN} is a forbidden property`, k));
    }
  } else if (isObject(s.additionalProperties)) {
    const ap = s.additionalProperties as JSONSchemaProps;
    for (const k of keys) if (!has(k)) merge(res, validateSchema(ctx, ap, data[k], `${path}.${k}`, depth + 1));
  }
  for (const p of Object.keys(props).sort()) {
    if (!Object.prototype.hasOwnProperty.call(data, p)) continue;
    const name = path !== '' ? `${path}.${p}` : p;
    merge(res, validateSchema(ctx, props[p] as JSONSchemaProps, data[p], name, depth + 1));
  }
  for (const k of s.required ?? []) {
    if (!Object.prototype.hasOwnProperty.call(data, k)) {
      addErrors(res, v('Required', `${path}.${k}`, `${path}.${k} in ${IN} is required`, undefined));
    }
  }
  return res;
}

/**
 * Validates a decoded JSON value against a schema as the API server validates a custom resource
 * (`validation.ValidateCustomResource`): kube-openapi's checks, reported as field errors under `path`. Detail texts
 * are kube-openapi's (`spec.replicas in body should be less than or equal to 10`); the root path prints as
 * ` in body …`, as it does in Kubernetes. With a null `path` (a whole custom resource), field paths start at the
 * value's fields and root errors print `<nil>`.
 */
export function validateValue(
  schema: JSONSchemaProps,
  value: unknown,
  path: FieldPath | null,
  options: OpenAPIOptions = {},
): FieldError[] {
  const ctx: Ctx = { minor: parseMinor(options.compatibilityVersion), maxDepth: options.maxDepth ?? 1000, nativeDecoding: options.nativeDecoding === true };
  const result = validateSchema(ctx, schema, value, '', 0);
  const out: FieldError[] = [];
  for (const err of result.errors) {
    // A whole resource is validated without a root path: its root prints as Go's nil path, `<nil>`.
    const rootPath = path ?? FieldPath.nil();
    if (err.kind === 'plain') {
      out.push(fieldInvalid(rootPath, '', err.message));
      continue;
    }
    let errPath = rootPath;
    if (err.name.length > 0 && err.name !== '.') errPath = rootPath.child(err.name.replace(/^\./, ''));
    const value = err.value === undefined || err.value === null ? '' : err.value;
    switch (err.code) {
      case 'Required':
        out.push(fieldRequired(errPath, ''));
        break;
      case 'Enum': {
        const values = (err.values ?? []).map((x) => (typeof x === 'string' ? x : goJsonMarshal(x)));
        out.push(fieldNotSupported(errPath, err.value ?? null, values));
        break;
      }
      case 'TooLong':
        out.push(fieldTooLong(errPath, err.valid ?? -1));
        break;
      case 'MaxItems':
      case 'TooManyProperties':
        out.push(fieldTooMany(errPath, typeof err.value === 'number' ? err.value : -1, err.valid ?? -1));
        break;
      case 'InvalidType':
        out.push(fieldTypeInvalid(errPath, value, err.message));
        break;
      default:
        out.push(fieldInvalid(errPath, value, err.message));
    }
  }
  return out;
}
