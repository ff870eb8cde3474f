/**
 * `k8s.io/apimachinery/pkg/util/version.ParseSemantic` as a predicate: an optional `v`, exactly three numeric
 * components without leading zeros, then an optional semver pre-release and build. GitHub tags that fail it are not
 * versions (the user can still pin such a release explicitly).
 */
const versionMatch = /^\s*v?([0-9]+(?:\.[0-9]+)*)(.*)$/;
const extraMatch = /^(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

export function isSemanticVersion(tag: string): boolean {
  const m = versionMatch.exec(tag);
  if (!m) return false;
  const numbers = m[1]!.split('.');
  if (numbers.length !== 3) return false;
  if (numbers.some((n) => n.length > 1 && n.startsWith('0'))) return false;
  if (numbers.some((n) => Number(n) > Number.MAX_SAFE_INTEGER)) return false;
  const extra = extraMatch.exec(m[2] ?? '');
  if (!extra) return false;
  const pre = extra[1];
  if (pre && pre.split('.').some((id) => /^[0-9]+$/.test(id) && id.length > 1 && id.startsWith('0'))) return false;
  return true;
}
