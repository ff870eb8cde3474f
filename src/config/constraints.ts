/** Version constraints of capi.config: `latest`, an exact version, or a semver range. */
import { createRequire } from 'node:module';
import type * as SemverNS from 'semver';

let semverMod: typeof SemverNS | undefined;

/**
 * npm's semver, loaded on first use: it is ~40 CommonJS files, and commands given exact versions (`generate provider
 * --core cluster-api:v1.13.5`) never compare versions.
 */
export function npmSemver(): typeof SemverNS {
  semverMod ??= createRequire(import.meta.url)('semver') as typeof SemverNS;
  return semverMod;
}

/** clusterctl's ParseSemantic: optional `v`, exactly three numeric components, optional pre-release and build. */
export function isSemanticVersion(v: string): boolean {
  return npmSemver().valid(v) !== null && /^v?\d+\.\d+\.\d+/.test(v);
}

/**
 * Whether `version` satisfies `constraint`. Pre-releases only match when the constraint asks for one (an exact
 * pre-release, or a range with a pre-release on the same major.minor.patch), as npm's semver does; `latest` matches
 * any version (pre-releases are ordered last by `orderCandidates`).
 */
export function satisfiesConstraint(version: string, constraint: string): boolean {
  if (!isSemanticVersion(version)) return false;
  if (constraint === 'latest') return true;
  if (npmSemver().valid(constraint) !== null) return npmSemver().eq(version, constraint);
  return npmSemver().satisfies(version, constraint);
}

/** Candidates for a constraint: full releases before pre-releases, each newest first (clusterctl's order). */
export function orderCandidates(versions: readonly string[], constraint: string): string[] {
  const ok = versions.filter((v) => satisfiesConstraint(v, constraint));
  const rel = ok.filter((v) => npmSemver().prerelease(v) === null).sort((a, b) => npmSemver().rcompare(a, b));
  const pre = ok.filter((v) => npmSemver().prerelease(v) !== null).sort((a, b) => npmSemver().rcompare(a, b));
  return [...rel, ...pre];
}
