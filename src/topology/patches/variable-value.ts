/**
 * `valueFrom.variable` lookups (`core/reconcilers/topology/cluster/patches/variables/value.go`): a dotted path whose
 * first segment names the variable and whose segments may carry one array index (`name[2]`). Error messages are
 * CAPI's, so a review shows the same text the controller would log.
 */
import { goAtoi, goQuote } from '../../go/index.js';
import { isObject } from './json.js';
import type { VariableMap } from './variables.js';

/** A lookup failure; `notFound` marks CAPI's `IsNotFoundError` cases (missing variable or segment). */
export class VariableLookupError extends Error {
  constructor(
    message: string,
    readonly notFound = false,
  ) {
    super(message);
  }
}

export interface PathSegment {
  path: string;
  index: number | null;
}

export { goAtoi };

/** `parsePathSegment`: `name` or `name[i]` with a non-negative index. */
export function parsePathSegment(segment: string): PathSegment {
  const left = segment.indexOf('[');
  const right = segment.indexOf(']');
  if ((left >= 0) !== (right >= 0)) throw new VariableLookupError(`failed to parse path segment ${goQuote(segment)}`);
  if (left < 0) return { path: segment, index: null };
  // Go slices segment[left+1:right], which panics when `]` comes first; refuse such a segment instead.
  if (right < left) throw new VariableLookupError(`failed to parse path segment ${goQuote(segment)}`);
  let index: number;
  try {
    index = goAtoi(segment.slice(left + 1, right));
  } catch (err) {
    throw new VariableLookupError(`failed to parse array index in path segment ${goQuote(segment)}: ${(err as Error).message}`);
  }
  if (index < 0) throw new VariableLookupError(`invalid array index ${index} in path segment ${goQuote(segment)}`);
  return { path: segment.slice(0, left), index };
}

/** The element `segment.index` of an array value (`getVariableArrayElement`). */
function arrayElement(value: unknown, segment: PathSegment, fullPath: string): unknown {
  if (!Array.isArray(value)) {
    throw new VariableLookupError(
      `variable ${goQuote(fullPath)} is invalid: failed to get array ${goQuote(segment.path)}: value doesn't contain array; it contains ${fastjsonType(value)}`,
    );
  }
  const index = segment.index as number;
  // CAPI prints the index through a pointer here (an address); the index itself says what was meant.
  if (value.length < index + 1) throw new VariableLookupError(`variable ${goQuote(fullPath)} is invalid: array does not have index ${index}`);
  return value[index];
}

/** fastjson's `Value.Get(key)` of one key: an object member, or an array element by decimal index. */
function fastjsonGet(value: unknown, key: string): unknown {
  if (isObject(value)) return Object.hasOwn(value, key) ? value[key] : undefined;
  if (Array.isArray(value)) {
    let n: number;
    try {
      n = goAtoi(key);
    } catch {
      return undefined;
    }
    return n >= 0 && n < value.length ? value[n] : undefined;
  }
  return undefined;
}

function fastjsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** `GetVariableValue`: the JSON value at `variablePath` (`<variable>[.<segment>…]`). */
export function getVariableValue(variables: VariableMap, variablePath: string): unknown {
  const [variableName = '', ...relativePath] = variablePath.split('.');
  let nameSegment: PathSegment;
  try {
    nameSegment = parsePathSegment(variableName);
  } catch (err) {
    throw new VariableLookupError(`variable ${goQuote(variablePath)} is invalid: ${(err as Error).message}`);
  }
  if (!variables.has(nameSegment.path)) throw new VariableLookupError(`variable ${goQuote(variableName)} does not exist`, true);
  let value = variables.get(nameSegment.path);
  if (nameSegment.index !== null) value = arrayElement(value, nameSegment, variablePath);
  for (const p of relativePath) {
    let segment: PathSegment;
    try {
      segment = parsePathSegment(p);
    } catch (err) {
      throw new VariableLookupError(`variable ${goQuote(variablePath)} has invalid syntax: ${(err as Error).message}`);
    }
    const next = fastjsonGet(value, segment.path);
    if (next === undefined) {
      throw new VariableLookupError(`variable ${goQuote(variablePath)} does not exist: failed to lookup segment ${goQuote(segment.path)}`, true);
    }
    value = next;
    if (segment.index !== null) value = arrayElement(value, segment, variablePath);
  }
  return value;
}
