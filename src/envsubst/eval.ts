/**
 * drone/envsubst's evaluator (`eval.go`): every argument is evaluated first, then the variable is looked up and the
 * operator's function applied. Intermediate results are ropes (nested arrays of byte slices) so chains of nested
 * defaults stay linear; the walk uses an explicit stack so nesting depth is not limited by the JavaScript stack.
 */
import { isUtf8 } from 'node:buffer';
import { lookupFunc, toDefault } from './funcs.js';
import { concatBytes } from './utf8.js';
import type { FuncNode, Node } from './parse.js';

/** A value under construction: bytes, or a list of values to concatenate. */
export type Rope = Uint8Array | Rope[];

/** Variable value bytes; `""` (empty) for unset and set-empty alike. */
export type ByteMapping = (name: string) => Uint8Array;

interface Work {
  node: FuncNode;
  next: number;
  vals: Rope[];
}

function apply(node: FuncNode, v: Uint8Array, vals: Rope[]): Rope {
  const fn = lookupFunc(node.name, vals.length);
  if (fn === toDefault) {
    if (v.length === 0 && vals.length > 0) return vals.length === 1 ? vals[0]! : vals;
    return v;
  }
  return fn(v, vals.map(flatten));
}

/** Evaluates one substitution. */
export function evalFunc(root: FuncNode, mapping: ByteMapping): Rope {
  if (root.args.length === 0) return apply(root, mapping(root.param), []);
  const stack: Work[] = [{ node: root, next: 0, vals: [] }];
  for (;;) {
    const w = stack[stack.length - 1]!;
    if (w.next < w.node.args.length) {
      const a = w.node.args[w.next++]!;
      if (a instanceof Uint8Array) w.vals.push(a);
      else if (a.args.length === 0) w.vals.push(apply(a, mapping(a.param), []));
      else stack.push({ node: a, next: 0, vals: [] });
      continue;
    }
    const r = apply(w.node, mapping(w.node.param), w.vals);
    stack.pop();
    const parent = stack[stack.length - 1];
    if (!parent) return r;
    parent.vals.push(r);
  }
}

/** Evaluates a parsed template into one byte array. */
export function evalNodes(nodes: Node[], mapping: ByteMapping): Uint8Array {
  const parts: Rope[] = [];
  for (const n of nodes) parts.push(n instanceof Uint8Array ? n : evalFunc(n, mapping));
  return flatten(parts);
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function decodeSmall(b: Uint8Array): string {
  if (b.length <= 64) {
    let ascii = true;
    for (let i = 0; i < b.length; i++) {
      if (b[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, b as unknown as number[]);
  }
  return decoder.decode(b);
}

/**
 * Evaluates a template parsed from a string. `stringValue` gives the same values as `mapping`, as strings, for the
 * common `${VAR}` case. Returns null when a substitution produced bytes that are not valid UTF-8 on their own
 * (byte slicing split a character): the caller must then evaluate on bytes so adjacent pieces can rejoin.
 */
export function evalNodesToString(
  nodes: readonly (string | FuncNode)[],
  mapping: ByteMapping,
  stringValue: (name: string) => string,
): string | null {
  const parts: string[] = [];
  for (const n of nodes) {
    if (typeof n === 'string') {
      parts.push(n);
    } else if (n.args.length === 0 && lookupFunc(n.name, 0) === toDefault) {
      parts.push(stringValue(n.param));
    } else {
      const b = flatten(evalFunc(n, mapping));
      if (b.length === 0) continue;
      if (!isUtf8(b)) return null;
      parts.push(decodeSmall(b));
    }
  }
  return parts.join('');
}

/** Concatenates a rope into one byte array (iteratively: ropes can be deep). */
export function flatten(r: Rope): Uint8Array {
  if (r instanceof Uint8Array) return r;
  const flat: Uint8Array[] = [];
  const stack: Rope[] = [r];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x instanceof Uint8Array) {
      flat.push(x);
    } else {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]!);
    }
  }
  return flat.length === 1 ? flat[0]! : concatBytes(flat);
}
