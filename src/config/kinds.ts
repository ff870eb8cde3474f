/**
 * The config's plain facts that do not need the schema library: the provider kinds, the contract name pattern and
 * what a version constraint is. Kept apart from schema.ts so that commands which only consult them (`generate`,
 * `lock --contract`) do not load zod.
 */
import { npmSemver } from './constraints.js';

/** `latest`, an exact version (`v1.13.5`) or a semver range (`~1.13.0`, `^2.10`, `>=1.12 <1.14`). */
export function isVersionConstraint(value: string): boolean {
  return value === 'latest' || npmSemver().valid(value) !== null || npmSemver().validRange(value) !== null;
}

/*
 * The same forms as a regular expression, for the JSON Schema (editors and ajv cannot call npm semver): node-semver's
 * range grammar (README "Range Grammar") with the `v` / `=` prefixes and the spaces after an operator it accepts.
 * A test keeps it in step with isVersionConstraint.
 */
const nr = '(?:0|[1-9][0-9]*)';
const xr = `(?:[xX*]|${nr})`;
const preId = `(?:${nr}|[0-9]*[A-Za-z-][0-9A-Za-z-]*)`;
const qualifier = `(?:-${preId}(?:\\.${preId})*)?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?`;
const partial = `=?v?${xr}(?:\\.${xr}(?:\\.${xr}${qualifier})?)?`;
const simple = `(?:(?:<=|>=|<|>|=|~>|~|\\^) *)?${partial}`;
const range = `(?:${partial} +- +${partial}|${simple}(?: +${simple})*)?`;
const rangeSet = ` *${range} *(?:\\|\\| *${range} *)*`;

/** `latest`, an exact version or a semver range, as a JSON Schema `pattern` (ECMA-262, anchored). */
export const versionConstraintPattern = `^(?:latest|${rangeSet})$`;

/** An exact version or a semver range, not `latest` (a cluster's `templateVersion`). */
export const versionRangePattern = `^${rangeSet}$`;

/** A CAPI contract name: `v1beta2`, `v1alpha4`, `v1`. */
export const contractPattern = /^v[0-9]+((alpha|beta)[0-9]+)?$/;

export const providerKinds = ['core', 'bootstrap', 'controlPlane', 'infrastructure', 'ipam', 'addon', 'runtimeExtension'] as const;
export type ProviderKind = (typeof providerKinds)[number];
