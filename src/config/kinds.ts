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

/** A CAPI contract name: `v1beta2`, `v1alpha4`, `v1`. */
export const contractPattern = /^v[0-9]+((alpha|beta)[0-9]+)?$/;

export const providerKinds = ['core', 'bootstrap', 'controlPlane', 'infrastructure', 'ipam', 'addon', 'runtimeExtension'] as const;
export type ProviderKind = (typeof providerKinds)[number];
