/**
 * Tolerant reading of vector fields. Vector files from different transcriptions name the same input differently
 * (`objects`/`objs`, `vars`/`variables`, `rawYaml`/`template`); a handler accepts the reasonable variants, and when it
 * finds none of them — or nothing in `expected` it knows how to check — it fails the vector with a message naming
 * the fields it looked for, so an uninterpretable vector is never counted as passing.
 */
import { expect } from 'vitest';
import type { Vector } from './types.js';

export type Rec = Record<string, unknown>;

export const rec = (v: unknown): Rec => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : {});

/** The first of `names` present (not undefined) in `from`. */
export function field(from: Rec, names: readonly string[]): unknown {
  for (const n of names) if (from[n] !== undefined) return from[n];
  return undefined;
}

/** Like `field`, but a vector without any of `names` fails with a message naming them. */
export function need(v: Vector, names: readonly string[], what: string): unknown {
  const got = field(v.input, names);
  if (got === undefined) {
    expect.fail(`${what}: the vector's input has none of ${names.map((n) => `input.${n}`).join(', ')}; cannot interpret it`);
  }
  return got;
}

export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(rec(v))) if (val !== null && val !== undefined) out[k] = String(val);
  return out;
}

/** Does the vector expect an error (`error: true`, `errorMessage`, `errorContains`, `wantErr`)? */
export function expectsError(v: Vector): boolean {
  const e = v.expected;
  return e.error === true || e.wantErr === true || typeof e.errorMessage === 'string' || typeof e.errorContains === 'string';
}

/** Runs `fn`, asserting the vector's expected error, or returns its value (undefined when an error was expected). */
export async function outcome<T>(v: Vector, fn: () => T | Promise<T>): Promise<T | undefined> {
  if (!expectsError(v)) return await fn();
  let thrown: unknown;
  try {
    await fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown, 'expected an error').toBeInstanceOf(Error);
  const message = (thrown as Error).message;
  if (typeof v.expected.errorMessage === 'string') expect(message).toBe(v.expected.errorMessage);
  if (typeof v.expected.errorContains === 'string') expect(message).toContain(v.expected.errorContains);
  return undefined;
}

/**
 * Runs the checks whose `expected` field is present; fails when none is, naming the fields the handler understands.
 * `checks` maps an expected field name to its assertion.
 */
export function checkExpected(v: Vector, what: string, checks: Record<string, (want: unknown) => void>): void {
  let ran = 0;
  for (const [name, check] of Object.entries(checks)) {
    if (v.expected[name] === undefined) continue;
    check(v.expected[name]);
    ran++;
  }
  if (ran === 0) {
    expect.fail(
      `${what}: expected has none of ${Object.keys(checks).map((n) => `expected.${n}`).join(', ')}; nothing this handler can check`,
    );
  }
}
