/**
 * The field errors CEL findings use: apimachinery's constructors from ../field, plus the one bad value only CEL
 * prints, a ValidationRule in Go's `%#v` form.
 */
import { errorBody, omitValue, type FieldError } from '../field/index.js';
import type { ValidationRule } from '../schema/index.js';

export {
  fieldInvalid as invalid,
  fieldForbidden as forbidden,
  fieldRequired as required,
  fieldDuplicate as duplicate,
  fieldNotSupported as notSupported,
} from '../field/index.js';

/** `field.Invalid(path, rule, detail)`: the API server prints the whole rule struct as the bad value. */
export function invalidRule(field: string, rule: ValidationRule, detail: string): FieldError {
  const q = (s: string | undefined): string => JSON.stringify(s ?? '');
  const ptr = (v: unknown, type: string): string => (v === undefined ? `(${type})(nil)` : `(${type})(${JSON.stringify(v)})`);
  const printed =
    `apiextensions.ValidationRule{Rule:${q(rule.rule)}, Message:${q(rule.message)}, MessageExpression:${q(rule.messageExpression)}, ` +
    `Reason:${ptr(rule.reason, '*apiextensions.FieldValueErrorReason')}, FieldPath:${q(rule.fieldPath)}, ` +
    `OptionalOldSelf:${ptr(rule.optionalOldSelf, '*bool')}}`;
  const body = errorBody('FieldValueInvalid', omitValue, detail).replace(/^Invalid value/, `Invalid value: ${printed}`);
  return { type: 'FieldValueInvalid', field, badValue: rule, detail, message: `${field}: ${body}` };
}
