/**
 * The upgrade plan of a topology version change (`exp/topology/desiredstate/upgrade_plan.go`): through the class's
 * `spec.kubernetesVersions` when it lists any (`GetUpgradePlanFromClusterClassVersions`: every listed version between
 * the current and the desired one, one per minor, the last patch of each minor), else straight to the desired version
 * one minor at a time (`GetUpgradePlanOneMinor`). The control plane takes each hop; workers follow it. A class with
 * `spec.upgrade.external.generateUpgradePlanExtension` (v1.11+) asks that runtime extension instead, which takes
 * precedence over both (`GetUpgradePlanFromExtension`); offline its hops are unknown.
 */
import { compareSemantic, compareWithBuildTags, formatSemantic, parseTolerant, type SemanticVersion } from '../../go/index.js';

export interface UpgradePlan {
  from?: string;
  to: string;
  /** The control plane versions in order; workers follow the control plane through them. Empty when `extension` plans. */
  hops: string[];
  /** The runtime extension that plans the upgrade (`spec.upgrade.external.generateUpgradePlanExtension`). */
  extension?: string;
}

/** A version CAPI cannot upgrade through (`failed to parse …`, `cannot compute an upgrade plan from … to …`). */
export class UpgradePlanError extends Error {}

function parse(v: string, what: string): SemanticVersion {
  const s = parseTolerant(v);
  if (!s) throw new UpgradePlanError(`failed to parse ${what}`);
  return s;
}

const same = (a: SemanticVersion, b: SemanticVersion): boolean => formatSemantic(a) === formatSemantic(b);

/**
 * The upgrade from `current` (the previous control plane version) to `desired`: none when they are equal, no hops
 * for a downgrade.
 */
export function upgradePlan(
  desired: string,
  current: string | undefined,
  classVersions: readonly string[],
  extension?: string,
): UpgradePlan | undefined {
  if (!current) return undefined;
  const want = parse(desired, 'desired version');
  const have = parse(current, 'current ControlPlane version');
  if (same(want, have)) return undefined;
  // The extension answers GenerateUpgradePlan with the hops, and may skip minors: nothing to compute or refuse here.
  if (extension) return { from: current, to: desired, hops: [], extension };
  // A downgrade has no upgrade path (CAPI's webhook rejects it); the review reports it.
  if (compareSemantic(want, have) < 0) return { from: current, to: desired, hops: [] };
  if (classVersions.length === 0) {
    if (want.minor > have.minor + 1n) throw new UpgradePlanError(`cannot compute an upgrade plan from ${current} to ${desired}`);
    return { from: current, to: desired, hops: [desired] };
  }
  const plan: string[] = [];
  for (const v of classVersions) {
    const sv = parse(v, `version ${v}`);
    if (compareSemantic(sv, have) <= 0) continue;
    if (compareWithBuildTags(sv, want) === 1) break;
    plan.push(v);
    if (same(sv, want)) break;
  }
  if (plan.length === 0) return { from: current, to: desired, hops: [] };
  const simplified: string[] = [];
  let currentMinor = have.minor;
  if (currentMinor === want.minor) simplified.push(plan[0] as string);
  for (const v of plan) {
    const sv = parse(v, `version ${v}`);
    if (sv.minor > currentMinor) simplified.push(v);
    if (sv.minor === currentMinor && simplified.length > 0) simplified[simplified.length - 1] = v;
    currentMinor = sv.minor;
  }
  return { from: current, to: desired, hops: simplified };
}
