/**
 * Field errors as apimachinery prints them (`field.Invalid`, `Forbidden`, `Required`, `Duplicate`,
 * `InternalError`), for CEL findings.
 */
import { fieldErrorTypeText, omitValue, type FieldError, type FieldErrorType } from '../field/index.js';

/** A bad value already in Go's printed form (`%#v` of a struct). */
export class GoPrinted {
  constructor(readonly text: string) {}
}

function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21) {
    return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(n);
}

/** Go's rendering of a bad value in `Error()`. */
export function printValue(value: unknown): string {
  if (value instanceof GoPrinted) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return goFloat(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goInterface).join(', ')}}`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[string]interface {}{${entries.map(([k, v]) => `${JSON.stringify(k)}:${goInterface(v)}`).join(', ')}}`;
  }
  return String(value);
}

function goInterface(v: unknown): string {
  if (typeof v === 'number') return `${goFloat(v)}`;
  return printValue(v);
}

export function fieldError(type: FieldErrorType, field: string, badValue: unknown, detail: string): FieldError {
  let body = fieldErrorTypeText[type];
  const valueShown = !['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError'].includes(type) && badValue !== omitValue;
  if (valueShown) body += `: ${printValue(badValue)}`;
  if (detail) body += `: ${detail}`;
  const shown = badValue instanceof GoPrinted ? badValue.text : badValue;
  return { type, field, badValue: shown, detail, message: `${field}: ${body}` };
}

export const invalid = (field: string, value: unknown, detail: string): FieldError => fieldError('FieldValueInvalid', field, value, detail);
export const forbidden = (field: string, detail: string): FieldError => fieldError('FieldValueForbidden', field, omitValue, detail);
export const required = (field: string, detail: string): FieldError => fieldError('FieldValueRequired', field, omitValue, detail);
export const internalError = (field: string, detail: string): FieldError => fieldError('InternalError', field, omitValue, detail);
export const duplicate = (field: string, value: unknown): FieldError => fieldError('FieldValueDuplicate', field, value, '');
export const notSupported = (field: string, value: unknown, valid: readonly string[]): FieldError =>
  fieldError('FieldValueNotSupported', field, value, `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}`);

/** Go's `%#v` of an apiextensions ValidationRule, the bad value of rule compile errors. */
export function printRule(rule: { rule?: string; message?: string; messageExpression?: string; reason?: string; fieldPath?: string; optionalOldSelf?: boolean }): GoPrinted {
  const ptr = (v: unknown, type: string): string => (v === undefined ? `(${type})(nil)` : `(${type})(${JSON.stringify(v)})`);
  return new GoPrinted(
    `apiextensions.ValidationRule{Rule:${JSON.stringify(rule.rule ?? '')}, Message:${JSON.stringify(rule.message ?? '')}, ` +
      `MessageExpression:${JSON.stringify(rule.messageExpression ?? '')}, Reason:${ptr(rule.reason, '*apiextensions.FieldValueErrorReason')}, ` +
      `FieldPath:${JSON.stringify(rule.fieldPath ?? '')}, OptionalOldSelf:${ptr(rule.optionalOldSelf, '*bool')}}`,
  );
}
