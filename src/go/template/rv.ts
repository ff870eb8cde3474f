/**
 * Values as the executor holds them, which is what reflect.Value gives Go's executor: besides a Go value, "no
 * value" (the invalid reflect.Value a missing map key yields, printed `<no value>`), and a value read from an
 * interface-typed slot (an element of `[]interface {}`, a value of `map[string]interface {}`), whose static type
 * `interface {}` shows in Go's error messages and whose nil differs from "no value".
 */
import { goTypeName } from './types.js';
import type { GoValue } from './value.js';

export const NO_VALUE: unique symbol = Symbol('no value');

/** A value held in an interface-typed slot. */
export class Iface {
  constructor(readonly v: GoValue) {}
}

export type RV = GoValue | typeof NO_VALUE | Iface;

/** Go's indirectInterface: the value inside an interface, or "no value" for a nil interface. */
export function indirectInterface(v: RV): GoValue | typeof NO_VALUE {
  if (v instanceof Iface) return v.v === null ? NO_VALUE : v.v;
  return v;
}

/** The Go value a function receives: "no value" becomes nil. */
export function concrete(v: RV): GoValue {
  if (v instanceof Iface) return v.v;
  return v === NO_VALUE ? null : v;
}

/** The static type Go's messages name: `interface {}` for a value read from an interface-typed slot. */
export function rvTypeName(v: RV): string {
  if (v instanceof Iface) return 'interface {}';
  if (v === NO_VALUE) return '<invalid reflect.Value>';
  // A nil whose concrete type the model does not keep: Go's messages name the interface it arrived in.
  if (v === null) return 'interface {}';
  return goTypeName(v);
}
