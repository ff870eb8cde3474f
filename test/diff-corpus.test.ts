/**
 * capiform diff over real provider releases from ../shared/corpus: the classifications a reviewer relies on, on
 * the manifests CAPI actually ships.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { classFiles, clusterFiles, find, gitRepo, providerFiles, type Files } from './helpers/diff-fixtures.js';
import { sharedDir } from './helpers/shared.js';
import type { DiffReport } from '../src/plan/diff/index.js';
import { hashTemplateNames } from '../src/render/index.js';

const shared = sharedDir('corpus');
const corpus = join(shared.path, 'repository');

async function diff(base: Files, head: Files): Promise<DiffReport> {
  const r = await runCli(['diff', '--format', 'json'], { cwd: gitRepo(base, head) });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as DiffReport;
}

describe.skipIf(!shared.present)(`capiform diff on the corpus${shared.skipped}`, () => {
  it('cluster-api v1.12.11 → v1.13.5: a provider upgrade with image, flags and CRD changes, no cluster rolls', async () => {
    const report = await diff(providerFiles('cluster-api', 'v1.12.11', corpus), providerFiles('cluster-api', 'v1.13.5', corpus));
    const p = report.providers[0];
    expect(p).toMatchObject({ label: 'cluster-api', fromVersion: 'v1.12.11', toVersion: 'v1.13.5', impact: 'provider-upgrade', fromContract: 'v1beta2', toContract: 'v1beta2' });
    expect(p?.images[0]).toMatchObject({ from: 'registry.k8s.io/cluster-api/cluster-api-controller:v1.12.11', to: 'registry.k8s.io/cluster-api/cluster-api-controller:v1.13.5' });
    expect(p?.crds.changed.length).toBeGreaterThan(5);
    expect(report.clusters).toEqual([]);
    expect(report.summary.text).toBe('1 provider upgraded (cluster-api v1.12.11 → v1.13.5)');
  });

  it('cluster-api v1.10.10 → v1.13.5 crosses the contract: storage v1beta1 → v1beta2', async () => {
    const report = await diff(providerFiles('cluster-api', 'v1.10.10', corpus), providerFiles('cluster-api', 'v1.13.5', corpus));
    const p = report.providers[0];
    expect(p).toMatchObject({ fromContract: 'v1beta1', toContract: 'v1beta2' });
    expect(p?.crds.storageChanged).toContain('clusters.cluster.x-k8s.io: v1beta1 → v1beta2');
    expect(report.changes.find((c) => c.kind === 'Provider')?.impacts[0]?.reason).toBe('cluster-api v1.10.10 → v1.13.5; contract v1beta1 → v1beta2');
  });

  it('docker provider v1.12.11 → v1.13.5 (development components): an infrastructure provider upgrade', async () => {
    const file = 'infrastructure-components-development.yaml';
    const report = await diff(providerFiles('infrastructure-docker', 'v1.12.11', corpus, file), providerFiles('infrastructure-docker', 'v1.13.5', corpus, file));
    expect(report.providers[0]).toMatchObject({ label: 'infrastructure-docker', providerName: 'docker', type: 'InfrastructureProvider', impact: 'provider-upgrade' });
    expect(report.providers[0]?.images.length).toBeGreaterThan(0);
  });

  it('the quick-start ClusterClass of v1.13.5: a worker template change (a new template) rolls md-0 of both clusters', async () => {
    const cluster = (name: string): Files => clusterFiles({ namespace: 'team-a', name, flavor: 'development', providerVersion: 'v1.13.5', root: corpus });
    // A spec change under the same name is refused by CAPD's webhook; content-hash names make it a new template.
    const hashed = (edit?: (objs: Record<string, unknown>[]) => void) => (objs: Record<string, unknown>[]): void => {
      edit?.(objs);
      objs.splice(0, objs.length, ...hashTemplateNames(objs));
    };
    const base = { ...classFiles('team-a', hashed(), 'v1.13.5', corpus), ...cluster('dev-1'), ...cluster('dev-2') };
    const head = {
      ...base,
      ...classFiles(
        'team-a',
        hashed((objs) => {
          const t = find(objs, 'DockerMachineTemplate', 'quick-start-default-worker-machinetemplate');
          t.spec.template.spec.extraMounts = [...(t.spec.template.spec.extraMounts ?? []), { containerPath: '/data', hostPath: '/data' }];
        }),
        'v1.13.5',
        corpus,
      ),
    };
    const report = await diff(base, head);
    expect(report.clusters.map((c) => [c.cluster, c.workersRoll, c.controlPlaneRolls])).toEqual([
      ['team-a/dev-1', ['md-0'], false],
      ['team-a/dev-2', ['md-0'], false],
    ]);
    expect(report.summary.text).toBe('2 clusters will roll workers');
  });
});
