/**
 * Kubernetes versions as clusterctl and kubeadm read them, on top of the k8s `version.ParseSemantic` port
 * (src/go/semver.ts): numbers instead of bigints (release series hold int32s), `Compare` ignoring build
 * metadata, `versionTag` (`v` + the version), and the looser reading kubeadm's image pins need.
 */
import { compareSemantic, formatSemantic, tryParseSemantic, type SemanticVersion } from '../go/index.js';

export interface KubernetesVersion {
  major: number;
  minor: number;
  patch: number;
  /** Pre-release without `-`; `""` for a release. */
  preRelease: string;
  /** Build metadata without `+`; `""` when absent. */
  buildMetadata: string;
}

function toSemantic(v: KubernetesVersion): SemanticVersion {
  return { major: BigInt(v.major), minor: BigInt(v.minor), patch: BigInt(v.patch), preRelease: v.preRelease, buildMetadata: v.buildMetadata };
}

/** `version.ParseSemantic`, or `null` when the string is not a strict semantic version. */
export function parseKubernetesVersion(s: string): KubernetesVersion | null {
  const v = tryParseSemantic(s);
  if (!v) return null;
  return { major: Number(v.major), minor: Number(v.minor), patch: Number(v.patch), preRelease: v.preRelease, buildMetadata: v.buildMetadata };
}

/** `version.ParseSemantic` from k8s.io/apimachinery: true when `value` is a valid semantic version. */
export function isKubernetesSemanticVersion(value: string): boolean {
  return tryParseSemantic(value) !== null;
}

/** k8s `Version.Compare`: -1, 0 or 1; build metadata is ignored. */
export function compareKubernetesVersions(a: KubernetesVersion, b: KubernetesVersion): number {
  return compareSemantic(toSemantic(a), toSemantic(b));
}

/** `Version.String()`: `1.2.3-pre+build`. */
export function formatKubernetesVersion(v: KubernetesVersion): string {
  return formatSemantic(toSemantic(v));
}

/** clusterctl's `versionTag(v)`: `v` + the semantic version string. */
export function versionTag(v: KubernetesVersion): string {
  return `v${formatKubernetesVersion(v)}`;
}

/**
 * The minor (`1.33`) of a Kubernetes version as kubeadm's image pins are keyed: `[v]X.Y.Z` followed by nothing or
 * a `-`/`+` suffix, read loosely (leading zeros allowed); `null` when it has no such shape.
 */
export function kubernetesMinor(version: string): string | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(version);
  return m ? `${m[1]}.${m[2]}` : null;
}
