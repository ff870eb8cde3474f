/**
 * Versions as clusterctl's upgrader reads them, on top of the k8s `version.ParseSemantic` port
 * (src/resolve/semver.ts): numbers instead of bigints (release series hold int32s), `Compare` ignoring build
 * metadata, and `versionTag` (`v` + the version).
 */
import { compareSemantic as compareK8s, formatSemantic as formatK8s, tryParseSemantic, type SemanticVersion } from '../../resolve/semver.js';

export interface Semantic {
  major: number;
  minor: number;
  patch: number;
  /** Pre-release without `-`; `""` for a release. */
  preRelease: string;
  /** Build metadata without `+`; `""` when absent. */
  buildMetadata: string;
}

function toK8s(v: Semantic): SemanticVersion {
  return { major: BigInt(v.major), minor: BigInt(v.minor), patch: BigInt(v.patch), preRelease: v.preRelease, buildMetadata: v.buildMetadata };
}

/** `version.ParseSemantic`, or `null` when the string is not a strict semantic version. */
export function parseSemantic(s: string): Semantic | null {
  const v = tryParseSemantic(s);
  if (!v) return null;
  return { major: Number(v.major), minor: Number(v.minor), patch: Number(v.patch), preRelease: v.preRelease, buildMetadata: v.buildMetadata };
}

/** k8s `Version.Compare`: -1, 0 or 1; build metadata is ignored. */
export function compareSemantic(a: Semantic, b: Semantic): number {
  return compareK8s(toK8s(a), toK8s(b));
}

/** `Version.String()`: `1.2.3-pre+build`. */
export function formatSemantic(v: Semantic): string {
  return formatK8s(toK8s(v));
}

/** clusterctl's `versionTag(v)`: `v` + the semantic version string. */
export function versionTag(v: Semantic): string {
  return `v${formatSemantic(v)}`;
}
