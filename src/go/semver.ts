/**
 * Version parsing and ordering exactly as clusterctl uses it:
 * - `parseSemantic` = k8s.io/apimachinery `version.ParseSemantic` (strict `X.Y.Z[-pre][+build]`, optional `v`,
 *   surrounding whitespace allowed, no leading zeros in numeric components);
 * - `compareSemantic` = that package's `Compare` (build metadata ignored);
 * - `compareWithBuildTags` = cluster-api `util/version.Compare(a, b, WithBuildTags())` (2 = "different").
 */
import { goQuote } from './quote.js';

export interface SemanticVersion {
  major: bigint;
  minor: bigint;
  patch: bigint;
  /** Pre-release without the leading `-` (`""` for a release). */
  preRelease: string;
  /** Build metadata without the leading `+` (`""` when none). */
  buildMetadata: string;
}

// Go RE2: `\s` is [\t\n\f\r ] and `.` does not match a newline.
const versionMatchRE = /^[\t\n\f\r ]*v?([0-9]+(?:\.[0-9]+)*)([^\n]*)$/;
const extraMatchRE = /^(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?[\t\n\f\r ]*$/;
const maxUint64 = (1n << 64n) - 1n;

/** Go's `strconv.ParseUint(s, 10, 64)`: digits only, no sign, within uint64. */
export function parseUint64(s: string): bigint | null {
  if (!/^[0-9]+$/.test(s)) return null;
  const n = BigInt(s);
  return n > maxUint64 ? null : n;
}

export class VersionParseError extends Error {}

/** `version.ParseSemantic`; throws VersionParseError with the library's message. */
export function parseSemantic(str: string): SemanticVersion {
  const parts = versionMatchRE.exec(str);
  if (!parts) throw new VersionParseError(`could not parse ${goQuote(str)} as version`);
  const numbers = parts[1] ?? '';
  const extra = parts[2] ?? '';
  const components = numbers.split('.');
  if (components.length !== 3) throw new VersionParseError(`illegal version string ${goQuote(str)}`);
  const nums: bigint[] = [];
  for (const comp of components) {
    if (comp.startsWith('0') && comp !== '0') {
      throw new VersionParseError(`illegal zero-prefixed version component ${goQuote(comp)} in ${goQuote(str)}`);
    }
    const n = parseUint64(comp);
    if (n === null) {
      throw new VersionParseError(
        `illegal non-numeric version component ${goQuote(comp)} in ${goQuote(str)}: strconv.ParseUint: parsing ${goQuote(comp)}: value out of range`,
      );
    }
    nums.push(n);
  }
  let preRelease = '';
  let buildMetadata = '';
  if (extra !== '') {
    const extraParts = extraMatchRE.exec(extra);
    if (!extraParts) {
      throw new VersionParseError(`could not parse pre-release/metadata (${extra}) in version ${goQuote(str)}`);
    }
    preRelease = extraParts[1] ?? '';
    buildMetadata = extraParts[2] ?? '';
    for (const comp of preRelease.split('.')) {
      if (parseUint64(comp) !== null && comp.startsWith('0') && comp !== '0') {
        throw new VersionParseError(`illegal zero-prefixed version component ${goQuote(comp)} in ${goQuote(str)}`);
      }
    }
  }
  return { major: nums[0] ?? 0n, minor: nums[1] ?? 0n, patch: nums[2] ?? 0n, preRelease, buildMetadata };
}

/** `ParseSemantic` without throwing. */
export function tryParseSemantic(str: string): SemanticVersion | null {
  try {
    return parseSemantic(str);
  } catch {
    return null;
  }
}

/** `Version.String()` for a semantic version: `1.2.3-pre+build` (no `v`). */
export function formatSemantic(v: SemanticVersion): string {
  let s = `${v.major}.${v.minor}.${v.patch}`;
  if (v.preRelease) s += `-${v.preRelease}`;
  if (v.buildMetadata) s += `+${v.buildMetadata}`;
  return s;
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePreRelease(a: string, b: string): number {
  if (a === '' && b !== '') return 1;
  if (a !== '' && b === '') return -1;
  if (a === b) return 0;
  const ap = a.split('.');
  const bp = b.split('.');
  for (let i = 0; i < ap.length && i < bp.length; i++) {
    const x = ap[i] ?? '';
    const y = bp[i] ?? '';
    const xn = parseUint64(x);
    const yn = xn === null ? null : parseUint64(y);
    if (xn !== null && yn !== null) {
      const c = cmp(xn, yn);
      if (c !== 0) return c;
      continue;
    }
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return cmp(BigInt(ap.length), BigInt(bp.length));
}

/** k8s `Version.Compare`: -1, 0, 1; build metadata does not count. */
export function compareSemantic(a: SemanticVersion, b: SemanticVersion): number {
  return (
    cmp(a.major, b.major) || cmp(a.minor, b.minor) || cmp(a.patch, b.patch) || comparePreRelease(a.preRelease, b.preRelease)
  );
}

/**
 * cluster-api `util/version.Compare(a, b, WithBuildTags())` over blang/semver versions: the normal comparison, then
 * build identifiers: numeric ones numerically, numeric < non-numeric, two different non-numeric ones → 2, an
 * equal shorter list is lower. Returns -1, 0, 1 or 2.
 */
export function compareWithBuildTags(a: SemanticVersion, b: SemanticVersion): -1 | 0 | 1 | 2 {
  const c = compareSemantic(a, b);
  if (c !== 0) return c < 0 ? -1 : 1;
  const ia = a.buildMetadata === '' ? [] : a.buildMetadata.split('.');
  const ib = b.buildMetadata === '' ? [] : b.buildMetadata.split('.');
  if (ia.some((x) => x === '') || ib.some((x) => x === '')) return 2;
  let i = 0;
  for (; i < ia.length && i < ib.length; i++) {
    const x = ia[i] ?? '';
    const y = ib[i] ?? '';
    const xn = parseUint64(x);
    const yn = parseUint64(y);
    let r: number;
    if (xn !== null && yn !== null) r = cmp(xn, yn);
    else if (xn !== null) r = -1;
    else if (yn !== null) r = 1;
    else r = x === y ? 0 : 2;
    if (r !== 0) return r as -1 | 1 | 2;
  }
  if (i === ia.length && i === ib.length) return 0;
  return i === ia.length ? -1 : 1;
}

/**
 * blang/semver `ParseTolerant`: trims spaces, drops a leading `v`, fills missing minor/patch with 0
 * (`1.2` → `1.2.0`), then parses strictly (leading zeros still rejected by blang for numeric parts).
 */
export function parseTolerant(input: string): SemanticVersion | null {
  let s = input.trim().replace(/^v/, '');
  const head = s.split(/[-+]/, 1)[0] ?? '';
  const dots = head.split('.').length;
  if (dots < 3) {
    const rest = s.slice(head.length);
    s = head + '.0'.repeat(3 - dots) + rest;
  }
  // blang: numbers without leading zeros, pre-release/build identifiers alphanumerics and '-'.
  const m = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/.exec(
    s,
  );
  if (!m) return null;
  const pre = m[4] ?? '';
  for (const p of pre === '' ? [] : pre.split('.')) {
    if (/^[0-9]+$/.test(p) && p.length > 1 && p.startsWith('0')) return null;
  }
  return {
    major: BigInt(m[1] ?? '0'),
    minor: BigInt(m[2] ?? '0'),
    patch: BigInt(m[3] ?? '0'),
    preRelease: pre,
    buildMetadata: m[5] ?? '',
  };
}


/**
 * Why blang/semver v4's `ParseTolerant` refuses `input`, with its own error text (CAPI's webhooks print it, e.g. a
 * KubeadmControlPlane's CoreDNS `imageTag`); `null` when blang accepts it. Unlike {@link parseTolerant}, a short
 * version with a pre-release or build (`1-7`) is refused, as blang does.
 */
export function blangParseTolerantError(input: string): string | null {
  const s = input.trim().replace(/^v/, '');
  const parts = s.split('.');
  const split = parts.length > 3 ? [parts[0] ?? '', parts[1] ?? '', parts.slice(2).join('.')] : parts;
  for (let i = 0; i < split.length; i++) {
    const p = split[i] ?? '';
    if (p.length > 1) {
      const t = p.replace(/^0+/, '');
      split[i] = t.length === 0 || !/[0-9]/.test(t[0] ?? '') ? `0${t}` : t;
    }
  }
  if (split.length < 3) {
    if (/[+-]/.test(split[split.length - 1] ?? '')) return 'Short version cannot contain PreRelease/Build meta data';
    while (split.length < 3) split.push('0');
  }
  return blangParseError(split.join('.'));
}

function blangParseError(s: string): string | null {
  if (s.length === 0) return 'Version string empty';
  const parts = s.split('.');
  if (parts.length < 3) return 'No Major.Minor.Patch elements found';
  const [major = '', minor = '', ...rest] = parts;
  const numeric = (p: string): boolean => /^[0-9]+$/.test(p);
  const zeroes = (p: string): boolean => p.length > 1 && p.startsWith('0');
  for (const [name, p] of [['major', major], ['minor', minor]] as const) {
    if (!numeric(p)) return `Invalid character(s) found in ${name} number ${goQuote(p)}`;
    if (zeroes(p)) return `${name === 'major' ? 'Major' : 'Minor'} number must not contain leading zeroes ${goQuote(p)}`;
  }
  let patch = rest.join('.');
  let build: string[] = [];
  let pre: string[] = [];
  const plus = patch.indexOf('+');
  if (plus !== -1) {
    build = patch.slice(plus + 1).split('.');
    patch = patch.slice(0, plus);
  }
  const dash = patch.indexOf('-');
  if (dash !== -1) {
    pre = patch.slice(dash + 1).split('.');
    patch = patch.slice(0, dash);
  }
  if (!numeric(patch)) return `Invalid character(s) found in patch number ${goQuote(patch)}`;
  if (zeroes(patch)) return `Patch number must not contain leading zeroes ${goQuote(patch)}`;
  for (const p of pre) {
    if (p.length === 0) return 'Prerelease is empty';
    if (numeric(p)) {
      if (zeroes(p)) return `Numeric PreRelease version must not contain leading zeroes ${goQuote(p)}`;
    } else if (!/^[0-9A-Za-z-]+$/.test(p)) return `Invalid character(s) found in prerelease ${goQuote(p)}`;
  }
  for (const b of build) {
    if (b.length === 0) return 'Build meta data is empty';
    if (!/^[0-9A-Za-z-]+$/.test(b)) return `Invalid character(s) found in build meta data ${goQuote(b)}`;
  }
  return null;
}
