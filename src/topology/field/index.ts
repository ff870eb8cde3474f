/**
 * Kubernetes field errors (k8s.io/apimachinery/pkg/util/validation/field): what CAPI's variable validation and the
 * API server's schema and CEL validation report, with the same type strings, paths and message shapes, so a finding
 * reads exactly as `kubectl apply` would print it.
 */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
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
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marks an error whose bad value is not printed (Go's `omitValue`). */
export const omitValue: unique symbol = Symbol('omitValue');

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
