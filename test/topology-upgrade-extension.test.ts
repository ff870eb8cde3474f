/**
 * A ClusterClass that plans Kubernetes upgrades through a runtime extension (`spec.upgrade.external.
 * generateUpgradePlanExtension`, CAPI v1.11+): the extension cannot be asked offline, so every Cluster of the class
 * carries a warning saying so, and an upgrade is reported as planned by the extension instead of computed one minor at
 * a time or through the class's `kubernetesVersions` (the extension takes precedence over both, and may skip minors).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandTopology, parseManifests, planTopology, reviewTopology, type KubeObject } from '../src/index.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'topology');
const extension = 'generate-upgrade-plan.test-extension';

/** CAPI's `quick-start-runtimesdk` class and a Cluster of it at `version`, with or without the upgrade extension. */
function objects(version: string, withExtension: boolean): KubeObject[] {
  const all = structuredClone(parseManifests(readFileSync(join(fixtures, 'class-runtimesdk.yaml'), 'utf8')));
  const cc = all.find((o) => o.kind === 'ClusterClass') as KubeObject;
  const spec = cc.spec as Record<string, unknown>;
  // The fixture is CAPI's class as its e2e tests ship it, with an upgrade extension of its own.
  if (withExtension) spec.upgrade = { external: { generateUpgradePlanExtension: extension } };
  else delete spec.upgrade;
  const cluster = all.find((o) => o.kind === 'Cluster') as KubeObject;
  ((cluster.spec as Record<string, unknown>).topology as Record<string, unknown>).version = version;
  return all;
}

const plannerWarning = (w: string): boolean => w.includes('generateUpgradePlanExtension');

describe('a ClusterClass with spec.upgrade.external.generateUpgradePlanExtension', () => {
  it('warns on each Cluster of the class that the upgrade plan comes from the extension, which cannot be asked offline', () => {
    const { clusters } = expandTopology(objects('v1.33.0', true));
    expect(clusters).toHaveLength(1);
    const warnings = clusters[0]?.warnings.filter(plannerWarning);
    expect(warnings).toEqual([
      `ClusterClass default/quick-start-runtimesdk plans Kubernetes upgrades through the runtime extension "${extension}" (spec.upgrade.external.generateUpgradePlanExtension), which cannot be asked offline: the versions an upgrade of this Cluster goes through are unknown`,
    ]);
    expect(clusters[0]?.errors).toEqual([]);
  });

  it('says nothing of it for a class without the extension', () => {
    const { clusters } = expandTopology(objects('v1.33.0', false));
    expect(clusters[0]?.warnings.filter(plannerWarning)).toEqual([]);
  });

  it('plan topology shows the warning with the Cluster', () => {
    const plan = planTopology(objects('v1.33.0', true));
    expect(plan.clusters[0]?.warnings.filter(plannerWarning)).toHaveLength(1);
    expect(plan.clusters[0]?.failed).toBe(false);
  });

  it('an upgrade across minors is the extension\'s plan: no hops computed, no one-minor refusal', () => {
    const base = expandTopology(objects('v1.33.0', true));
    const head = expandTopology(objects('v1.36.0', true), { previous: base.clusters });
    expect(head.clusters[0]?.errors).toEqual([]);
    expect(head.clusters[0]?.upgrade).toEqual({ from: 'v1.33.0', to: 'v1.36.0', hops: [], extension });
  });

  it('without the extension the same upgrade is refused, as CAPI computes it one minor at a time', () => {
    const base = expandTopology(objects('v1.33.0', false));
    const head = expandTopology(objects('v1.36.0', false), { previous: base.clusters });
    expect(head.clusters[0]?.errors.map((e) => e.message)).toEqual([
      'spec.topology.version: Invalid value: "v1.36.0": cannot compute an upgrade plan from v1.33.0 to v1.36.0',
    ]);
  });

  it('a review reports the upgrade as planned by the extension, with no skipped-minor warning', () => {
    const review = reviewTopology(objects('v1.33.0', true), objects('v1.36.0', true));
    const cluster = review.clusters[0];
    expect(cluster?.status).toBe('changed');
    expect(cluster?.upgrade).toEqual({ from: 'v1.33.0', to: 'v1.36.0', hops: [], order: ['controlPlane', 'md-0', 'mp-0'], extension });
    expect(cluster?.warnings.filter((w) => w.includes('skips a minor'))).toEqual([]);
    expect(cluster?.impacts.map((i) => i.reason)).toContain(
      `Kubernetes upgrade v1.33.0 → v1.36.0 through the versions the runtime extension "${extension}" plans (unknown offline): the control plane upgrades first`,
    );
  });

  it('without the extension the review warns that the upgrade skips minors', () => {
    const review = reviewTopology(objects('v1.33.0', false), objects('v1.36.0', false));
    expect(review.clusters[0]?.warnings.some((w) => w.includes('skips a minor'))).toBe(true);
  });
});
