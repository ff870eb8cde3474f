/**
 * Kubernetes field errors (k8s.io/apimachinery/pkg/util/validation/field): what CAPI's variable validation and the
 * API server's schema and CEL validation report, with the same type strings, paths and message shapes, so a finding
 * reads exactly as `kubectl apply` would print it.
 */
import { goQuote } from '../../go/index.js';
import { marshal } from '../../go/json/index.js';
import type { GoValue } from '../../go/template/index.js';

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTooFew'
  | 'FieldValueTooShort'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** `ErrorType.String()` in Go. */
export const fieldErrorTypeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTooFew: 'Too few',
  FieldValueTooShort: 'Too short',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marks an error whose bad value is not printed (Go's `omitValue`). */
export const omitValue: unique symbol = Symbol('omitValue');

/**
 * A Go float64 bad value. JSON numbers decode to int64 when integral and float64 otherwise in the API server
 * (apimachinery's json), and the two print differently (`10` vs `1e+06`); wrap a number in this to print it as a float.
 */
export class GoFloat {
  constructor(readonly value: number) {}
}

export interface FieldError {
  readonly type: FieldErrorType;
  /** The field path as Go prints it: `spec.topology.variables[cpu].value`. */
  readonly field: string;
  /** The offending value (a JSON value, or a preformatted Go string), or {@link omitValue}. */
  readonly badValue: unknown;
  readonly detail: string;
  /** Go's `Error()`: `<field>: <type text>[: <value>][: <detail>]`. */
  readonly message: string;
}

/**
 * Go's `%v` of a float64 (`strconv.FormatFloat(f, 'g', -1, 64)`): the shortest digits, in exponent form when the
 * decimal exponent is below -4 or at least 6 (`1e+06`, `1.5e-05`).
 */
export function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return goExponent(mant, exp);
  return f.toFixed(Math.max(0, mant.replace('-', '').replace('.', '').length - 1 - exp));
}

function goExponent(mant: string, exp: number): string {
  const sign = exp < 0 ? '-' : '+';
  const abs = Math.abs(exp);
  return `${mant}e${sign}${abs < 10 ? `0${abs}` : abs}`;
}

/**
 * Go's `json.Marshal` of a decoded JSON value (src/go/json's, over the value as encoding/json decodes it into
 * `interface{}`): map keys sorted, HTML characters escaped, Go's float text.
 */
export function goJsonMarshal(value: unknown): string {
  return marshal(asGoValue(value));
}

function asGoValue(v: unknown): GoValue {
  if (v instanceof GoFloat) return v.value;
  if (Array.isArray(v)) return v.map(asGoValue);
  if (v !== null && typeof v === 'object') {
    const m = new Map<string, GoValue>();
    for (const k of Object.keys(v)) m.set(k, asGoValue((v as Record<string, unknown>)[k]));
    return m;
  }
  return v === undefined ? null : (v as GoValue);
}

/** How Go's `ErrorBody` prints a bad value: `%v` for numbers and bools, `%q` for strings, JSON for the rest. */
export function formatBadValue(value: unknown): string {
  if (value instanceof GoFloat) return goFormatFloat(value.value);
  if (typeof value === 'number') return Number.isInteger(value) ? integerText(value) : goFormatFloat(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return goStringQuote(value);
  if (value === undefined) return 'null';
  return goJsonMarshal(value);
}

function integerText(n: number): string {
  // An int64 prints all its digits; a JS number beyond 2^53 already lost precision, print what it holds.
  return Math.abs(n) < 1e21 ? BigInt(n).toString() : goFormatFloat(n);
}

/** Go's `%q` (strconv.Quote). */
export const goStringQuote = goQuote;

/** `ErrorBody()`: the message without the field. */
export function errorBody(type: FieldErrorType, badValue: unknown, detail: string): string {
  let s = fieldErrorTypeText[type];
  switch (type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'FieldValueTooShort':
    case 'InternalError':
      break;
    default:
      if (badValue !== omitValue) s += `: ${formatBadValue(badValue)}`;
  }
  if (detail.length > 0) s += `: ${detail}`;
  return s;
}

/** Builds a FieldError with Go's `Error()` text. */
export function fieldError(type: FieldErrorType, field: FieldPath | string, badValue: unknown, detail: string): FieldError {
  const f = typeof field === 'string' ? field : field.toString();
  return { type, field: f, badValue, detail, message: `${f}: ${errorBody(type, badValue, detail)}` };
}

/** The same error with other parts (CAPI rewrites bad values, details and paths of the API server's errors). */
export function withFieldError(
  e: FieldError,
  change: { field?: string; badValue?: unknown; detail?: string },
): FieldError {
  return fieldError(
    e.type,
    change.field ?? e.field,
    'badValue' in change ? change.badValue : e.badValue,
    change.detail ?? e.detail,
  );
}

/** `field.Invalid`. */
export const fieldInvalid = (p: FieldPath | string, value: unknown, detail: string): FieldError =>
  fieldError('FieldValueInvalid', p, value, detail);
/** `field.TypeInvalid`. */
export const fieldTypeInvalid = (p: FieldPath | string, value: unknown, detail: string): FieldError =>
  fieldError('FieldValueTypeInvalid', p, value, detail);
/** `field.Required`. */
export const fieldRequired = (p: FieldPath | string, detail: string): FieldError =>
  fieldError('FieldValueRequired', p, '', detail);
/** `field.Forbidden`. */
export const fieldForbidden = (p: FieldPath | string, detail: string): FieldError =>
  fieldError('FieldValueForbidden', p, '', detail);
/** `field.Duplicate`. */
export const fieldDuplicate = (p: FieldPath | string, value: unknown): FieldError =>
  fieldError('FieldValueDuplicate', p, value, '');
/** `field.NotFound`. */
export const fieldNotFound = (p: FieldPath | string, value: unknown): FieldError =>
  fieldError('FieldValueNotFound', p, value, '');
/** `field.InternalError`. */
export const fieldInternalError = (p: FieldPath | string, message: string): FieldError =>
  fieldError('InternalError', p, message, message);

/** `field.NotSupported`: `supported values: "a", "b"`. */
export function fieldNotSupported(p: FieldPath | string, value: unknown, validValues: readonly string[]): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map(goStringQuote).join(', ')}` : '';
  return fieldError('FieldValueNotSupported', p, value, detail);
}

/** `field.TooLong`: the value is never printed. */
export function fieldTooLong(p: FieldPath | string, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return fieldError('FieldValueTooLong', p, '<value omitted>', detail);
}

/** `field.TooMany`. */
export function fieldTooMany(p: FieldPath | string, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  return fieldError('FieldValueTooMany', p, actual >= 0 ? actual : omitValue, detail);
}

/**
 * `field.Path`: `NewPath("spec").Child("topology", "variables").Key("cpu").Child("value")` prints
 * `spec.topology.variables[cpu].value`. Immutable; every step returns a new path.
 */
export class FieldPath {
  private constructor(
    private readonly parent: FieldPath | undefined,
    private readonly name: string,
    private readonly subscript: string | undefined,
  ) {}

  /**
   * Go's nil `*field.Path`: the root of a whole object. It prints `<nil>`; its children start bare (`spec`, `[0]`).
   */
  static nil(): FieldPath {
    return nilPath;
  }

  /** `field.NewPath(name, moreNames...)`. */
  static of(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(undefined, name, undefined);
    for (const n of more) p = new FieldPath(p, n, undefined);
    return p;
  }

  child(name: string, ...more: string[]): FieldPath {
    if (this === nilPath) return FieldPath.of(name, ...more);
    let p: FieldPath = new FieldPath(this, name, undefined);
    for (const n of more) p = new FieldPath(p, n, undefined);
    return p;
  }

  key(key: string): FieldPath {
    return new FieldPath(this === nilPath ? undefined : this, '', key);
  }

  index(i: number): FieldPath {
    return new FieldPath(this === nilPath ? undefined : this, '', String(i));
  }

  toString(): string {
    if (this === nilPath) return '<nil>';
    const parts: FieldPath[] = [this];
    for (let p = this.parent; p; p = p.parent) parts.push(p);
    let out = '';
    for (let i = parts.length - 1; i >= 0; i--) {
      const p = parts[i] as FieldPath;
      if (p.parent && p.name.length > 0) out += '.';
      out += p.name.length > 0 ? p.name : `[${p.subscript ?? ''}]`;
    }
    return out;
  }
}

const nilPath: FieldPath = FieldPath.of('<nil>');
