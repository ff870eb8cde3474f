import { cloneJson, goDeepEqual, isObject } from '../../go/index.js';

/**
 * Decoded JSON values as the API server holds them (`interface{}` from JSON): objects, arrays, strings, booleans,
 * null and numbers. Integral numbers are int64 there and the rest float64; here both are JS numbers and
 * {@link isIntegral} tells them apart.
 */
export type JsonObject = Record<string, unknown>;

/** The toolkit's guard, re-exported for the schema code that reads values with it. */
export { isObject };

/** `reflect.DeepEqual` of two decoded JSON values. */
export const deepEqual = goDeepEqual;

/** `runtime.DeepCopyJSONValue`. */
export const deepCopy = cloneJson;

/**
 * Would k8s.io/apimachinery's JSON decoding hold this number as an int64? Only an integral number in int64's range
 * (`json.Number.Int64()` succeeds); `1e+300` is a float64 there, and validated as one (`type: integer` refuses it,
 * `multipleOf` divides floats).
 */
export function isIntegral(n: number): boolean {
  return Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63;
}

/** Go's `strconv.FormatFloat(f, 'f', -1, 64)`: shortest digits, never an exponent. */
export function formatFloatF(f: number): string {
  const s = String(f);
  if (!/e/i.test(s)) return s;
  const [mant, expText] = s.split('e') as [string, string];
  const exp = Number(expText);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const point = (mant.replace('-', '').indexOf('.') + 1 || mant.replace('-', '').length + 1) - 1 + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return neg ? `-${out}` : out;
}
