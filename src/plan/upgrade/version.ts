/**
 * Versions as clusterctl's upgrader reads them: k8s `version.ParseSemantic` (strict `X.Y.Z[-pre][+build]`, optional
 * leading `v`, no zero-prefixed numbers), `Compare` ignoring build metadata, and `versionTag` (`v` + the version).
 */

export interface Semantic {
  major: number;
  minor: number;
  patch: number;
  /** Pre-release without `-`; `""` for a release. */
  preRelease: string;
  /** Build metadata without `+`; `""` when absent. */
  buildMetadata: string;
}

const semanticRE =
  /^\s*v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?\s*$/;

/** `version.ParseSemantic`, or `null` when the string is not a strict semantic version. */
export function parseSemantic(s: string): Semantic | null {
  const m = semanticRE.exec(s);
  if (!m) return null;
  const pre = m[4] ?? '';
  if (pre.split('.').some((p) => /^0[0-9]+$/.test(p))) return null;
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    preRelease: pre,
    buildMetadata: m[5] ?? '',
  };
}

function cmp(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePreRelease(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const ap = a.split('.');
  const bp = b.split('.');
  for (let i = 0; i < ap.length && i < bp.length; i++) {
    const x = ap[i] ?? '';
    const y = bp[i] ?? '';
    const xn = /^[0-9]+$/.test(x);
    const yn = /^[0-9]+$/.test(y);
    let c: number;
    if (xn && yn) c = cmp(Number(x), Number(y));
    else if (xn) c = -1;
    else if (yn) c = 1;
    else c = x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return cmp(ap.length, bp.length);
}

/** k8s `Version.Compare`: -1, 0 or 1; build metadata is ignored. */
export function compareSemantic(a: Semantic, b: Semantic): number {
  return cmp(a.major, b.major) || cmp(a.minor, b.minor) || cmp(a.patch, b.patch) || comparePreRelease(a.preRelease, b.preRelease);
}

/** `Version.String()`: `1.2.3-pre+build`. */
export function formatSemantic(v: Semantic): string {
  return `${v.major}.${v.minor}.${v.patch}${v.preRelease ? `-${v.preRelease}` : ''}${v.buildMetadata ? `+${v.buildMetadata}` : ''}`;
}

/** clusterctl's `versionTag(v)`: `v` + the semantic version string. */
export function versionTag(v: Semantic): string {
  return `v${formatSemantic(v)}`;
}
