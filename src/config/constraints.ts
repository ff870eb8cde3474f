/** Version constraints of capi.config: `latest`, an exact version, or a semver range. */
import semver from 'semver';

/** clusterctl's ParseSemantic: optional `v`, exactly three numeric components, optional pre-release and build. */
export function isSemanticVersion(v: string): boolean {
  return semver.valid(v) !== null && /^v?\d+\.\d+\.\d+/.test(v);
}

/**
 * Whether `version` satisfies `constraint`. Pre-releases only match when the constraint asks for one (an exact
 * pre-release, or a range with a pre-release on the same major.minor.patch), as npm's semver does; `latest` matches
 * any version (pre-releases are ordered last by `orderCandidates`).
 */
export function satisfiesConstraint(version: string, constraint: string): boolean {
  if (!isSemanticVersion(version)) return false;
  if (constraint === 'latest') return true;
  if (semver.valid(constraint) !== null) return semver.eq(version, constraint);
  return semver.satisfies(version, constraint);
}

/** Candidates for a constraint: full releases before pre-releases, each newest first (clusterctl's order). */
export function orderCandidates(versions: readonly string[], constraint: string): string[] {
  const ok = versions.filter((v) => satisfiesConstraint(v, constraint));
  const rel = ok.filter((v) => semver.prerelease(v) === null).sort((a, b) => semver.rcompare(a, b));
  const pre = ok.filter((v) => semver.prerelease(v) !== null).sort((a, b) => semver.rcompare(a, b));
  return [...rel, ...pre];
}
