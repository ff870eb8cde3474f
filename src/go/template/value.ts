/**
 * Go values as text/template and sprig see them, in JavaScript. The template engine (this folder) and sprig's
 * function map (../sprig) both speak this model, so a function's result prints, compares and converts exactly as the
 * Go value would.
 *
 * - nil → `null`
 * - bool → `boolean`, string → `string`
 * - float64 → `number`: CAPI decodes variables with encoding/json, so every JSON number is a float64
 * - int → `bigint` (Go's 64-bit `int`)
 * - every other numeric kind (int64, int32, uint, uint8, float32, …) → {@link GoNumber}
 * - slices → JS arrays; `[]interface {}` unless tagged with {@link typedSlice} (sprig's `[]string` results)
 * - maps → `Map<string, GoValue>`; `map[string]interface {}` unless tagged with {@link typedMap}
 * - structs / pointers with fields and methods (sprig's `*semver.Version`) → {@link GoObject}
 * - functions → {@link GoFunc}
 */
export type GoValue =
  | null
  | boolean
  | string
  | number
  | bigint
  | GoNumber
  | GoValue[]
  | Map<string, GoValue>
  | GoObject
  | GoFunc;

/** Numeric kinds other than `int` and `float64`, with their Go type name kept for `%T`, `typeOf` and conversions. */
export class GoNumber {
  constructor(
    readonly type: GoNumericType,
    /** Integer kinds hold a bigint within the kind's range; float32 holds a number already rounded to float32. */
    readonly value: bigint | number,
  ) {}
}
export type GoNumericType =
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'uint'
  | 'uint8'
  | 'uint16'
  | 'uint32'
  | 'uint64'
  | 'uintptr'
  | 'float32';

/** A struct or pointer value with fields and methods, reached from a template by `.Name`. */
export abstract class GoObject {
  /** Go's `%T`, e.g. `*semver.Version`. */
  abstract readonly goType: string;
  /** An exported field, or undefined when the type has none of that name. */
  field(_name: string): GoValue | undefined {
    return undefined;
  }
  /**
   * The declared Go type of a field, when it is an interface type (`interface {}`, `fmt.Stringer`): the template
   * engine then treats the field's value as Go treats an interface-typed field (a nil one prints `<no value>`).
   * Undefined means a concrete type.
   */
  fieldType(_name: string): string | undefined {
    return undefined;
  }
  /** A method (called with the receiver bound), or undefined. */
  method(_name: string): GoFunc | undefined {
    return undefined;
  }
  /** What `%v` / `{{ . }}` prints (a `String()` method when the Go type has one). */
  abstract format(): string;
}

/**
 * A Go function as the template engine calls it. `params` are Go type names (`string`, `int`, `int64`, `float64`,
 * `bool`, `interface {}`, `[]interface {}`, `[]string`, `map[string]interface {}`, …); for a variadic function the
 * last entry is the element type of the `...` parameter. The engine checks the argument count and converts or rejects
 * each argument exactly as text/template does before `call` runs. A Go error result, or a panic, is thrown as a
 * {@link GoFuncError}; the engine wraps it as `error calling <name>: <message>`.
 */
export interface GoFunc {
  readonly kind: 'func';
  readonly name: string;
  readonly params: readonly string[];
  readonly variadic: boolean;
  /** The Go result types, e.g. `['string']` or `['interface {}', 'error']`; used for `%T` and parse-time checks. */
  readonly results: readonly string[];
  readonly call: (args: GoValue[]) => GoValue;
}

export class GoFuncError extends Error {}

const sliceTypes = new WeakMap<GoValue[], string>();
const mapTypes = new WeakMap<Map<string, GoValue>, string>();

/** Tags an array as a Go slice of the given element type (e.g. `string` for `[]string`). */
export function typedSlice<T extends GoValue[]>(items: T, elemType: string): T {
  sliceTypes.set(items, elemType);
  return items;
}
/**
 * Marks an empty slice as Go's nil slice (what `regexp.FindAllString` returns for no match): it prints and ranges
 * as an empty one, but encoding/json marshals it as `null`.
 */
export function nilSlice<T extends GoValue[]>(items: T): T {
  if (items.length === 0) nilSlices.add(items);
  return items;
}
/** Whether a slice is a nil slice (see {@link nilSlice}). */
export function isNilSlice(items: GoValue[]): boolean {
  return items.length === 0 && nilSlices.has(items);
}
const nilSlices = new WeakSet<GoValue[]>();
/** The element type of a slice: `interface {}` unless tagged. */
export function sliceElemType(items: GoValue[]): string {
  return sliceTypes.get(items) ?? 'interface {}';
}
/** Tags a map with its value type (e.g. `string` for sprig's `split`, a `map[string]string`). */
export function typedMap<T extends Map<string, GoValue>>(map: T, valueType: string): T {
  mapTypes.set(map, valueType);
  return map;
}
/** The value type of a map: `interface {}` unless tagged. */
export function mapValueType(map: Map<string, GoValue>): string {
  return mapTypes.get(map) ?? 'interface {}';
}

export function goFunc(
  name: string,
  params: readonly string[],
  results: readonly string[],
  call: (args: GoValue[]) => GoValue,
  variadic = false,
): GoFunc {
  return { kind: 'func', name, params, results, variadic, call };
}
