/**
 * The offline upgrade planner: clusterctl's `upgrade plan` / `upgrade apply` rules (spec §1) as pure functions, the
 * exact text output, and the upgrade-path checks capiform adds.
 */
import { describe, expect, it } from 'vitest';
import { clusterctlTable, tabwrite } from '../src/go/index.js';
import {
  addUpgradeItems,
  applyCustomPlan,
  applyPlan,
  checkUpgradePaths,
  createCustomPlan,
  formatUpgradePlan,
  getContractsForUpgrade,
  getLatestNextVersion,
  getUpgradeInfo,
  parseUpgradeItem,
  plan,
  planWithDropped,
  type InventoryProvider,
  type ReleaseSeries,
  type Repositories,
} from '../src/plan/upgrade/index.js';
import { ExitCode } from '../src/errors.js';
import { certManagerShouldUpgrade } from '../src/resolve/index.js';
import { thrown } from './helpers/thrown.js';

const core = (version: string, namespace = 'capi-system'): InventoryProvider => ({
  providerName: 'cluster-api',
  type: 'CoreProvider',
  version,
  namespace,
});
const infra = (version: string, name = 'infra'): InventoryProvider => ({
  providerName: name,
  type: 'InfrastructureProvider',
  version,
  namespace: `${name}-system`,
});
const series = (...s: [number, number, string][]): ReleaseSeries[] => s.map(([major, minor, contract]) => ({ major, minor, contract }));
const repo = (versions: string[], latestSeries: ReleaseSeries[]): Repositories[string] => ({
  versions,
  metadata: { [versions.reduce((a, b) => (b > a ? b : a))]: latestSeries },
});

describe('tabwriter (Go text/tabwriter, minwidth 10, tabwidth 4, padding 3)', () => {
  it('pads every column but the last to its widest cell plus 3, at least 10', () => {
    expect(tabwrite('A\tBB\tlast\nlonger-cell\tx\ty\n', clusterctlTable)).toBe('A             BB        last\nlonger-cell   x         y\n');
  });
  it('ends a column block at a line without that cell', () => {
    expect(tabwrite('a\tb\nplain line\nccccccccccccc\td\n')).toBe('a         b\nplain line\nccccccccccccc   d\n');
  });
  it('counts code points, not bytes', () => {
    expect(tabwrite('é\tx\n')).toBe('é         x\n');
  });
});

describe('getUpgradeInfo', () => {
  const p = infra('v1.0.1', 'p1');
  it('uses the latest version’s metadata and lists newer versions in order', () => {
    const info = getUpgradeInfo(p, repo(['v1.1.0', 'v1.0.0', 'v1.0.2', 'v1.0.1'], series([1, 1, 'v1beta2'], [1, 0, 'v1beta2'])));
    expect(info).toEqual({
      metadataReleaseSeries: series([1, 0, 'v1beta2'], [1, 1, 'v1beta2']),
      currentContract: 'v1beta2',
      currentVersion: 'v1.0.1',
      nextVersions: ['v1.0.2', 'v1.1.0'],
    });
  });
  it.each([
    ['no versions', { versions: [], metadata: {} }, 'failed to get available versions for the p1-system/infrastructure-p1 provider'],
    ['an unparsable version', { versions: ['v1.0.0', 'latest-ish'], metadata: {} }, 'failed to parse available version for the p1-system/infrastructure-p1 provider'],
    ['no metadata for the latest version', { versions: ['v1.0.1', 'v1.1.0'], metadata: { 'v1.0.1': [] } }, 'failed to read "metadata.yaml" from the repository for provider "infrastructure-p1"'],
    [
      'metadata without the current version',
      { versions: ['v1.0.1', 'v1.1.0'], metadata: { 'v1.1.0': series([1, 1, 'v1beta2']) } },
      'invalid provider metadata: version v1.0.1 (the current version) for the provider p1-system/infrastructure-p1 does not match any release series',
    ],
    [
      'metadata without an available version',
      { versions: ['v1.0.1', 'v1.2.0', 'v1.1.0'], metadata: { 'v1.2.0': series([1, 0, 'v1beta2'], [1, 1, 'v1beta2']) } },
      'invalid provider metadata: version v1.2.0 (one of the available versions) for the provider p1-system/infrastructure-p1 does not match any release series',
    ],
  ])('fails (exit 3) on %s', (_, listing, message) => {
    const err = thrown(() => getUpgradeInfo(p, listing));
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(ExitCode.resolution);
  });
});

describe('contracts and next versions', () => {
  it('considers the contracts of series not older than the current version, sorted as strings', () => {
    expect(getContractsForUpgrade('v1.1.3', series([1, 0, 'v1alpha4'], [1, 1, 'v1beta2'], [2, 0, 'v99'], [1, 2, 'v1beta1']))).toEqual([
      'v1beta1',
      'v1beta2',
      'v99',
    ]);
  });
  it('never proposes a pre-release', () => {
    expect(getLatestNextVersion(['v2.0.1', 'v3.0.0-alpha.0'], series([2, 0, 'v1beta2'], [3, 0, 'v1beta2']), ['v1beta2'])).toBe('v2.0.1');
  });
});

describe('plan (upgrade plan)', () => {
  it('requires exactly one core provider (exit 2)', () => {
    const err = thrown(() => plan({ inventory: [infra('v1.0.0')], repositories: {} }));
    expect(err.message).toBe('invalid management cluster: there must be one core provider, found 0');
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('drops a partial plan for a contract change, keeps a partial plan for the current contract', () => {
    const input = {
      inventory: [core('v1.0.0'), infra('v2.0.0')],
      repositories: {
        'CoreProvider/cluster-api': repo(['v1.0.0', 'v2.0.0'], series([1, 0, 'v1beta2'], [2, 0, 'v99'])),
        'InfrastructureProvider/infra': repo(['v2.0.0', 'v2.0.1'], series([2, 0, 'v1beta2'])),
      },
    };
    const r = planWithDropped(input);
    expect(r.plans.map((p) => p.contract)).toEqual(['v1beta2']);
    expect(r.plans[0]?.providers.map((p) => p.nextVersion)).toEqual(['', 'v2.0.1']);
    expect(r.droppedPlans.map((p) => p.contract)).toEqual(['v99']);
    // capiform says why the v99 plan is missing.
    expect(checkUpgradePaths(r, input.inventory, input.repositories)).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        code: 'plan-dropped',
        message: 'no plan for contract v99: infra-system/infrastructure-infra has no release implementing it',
      }),
    );
  });
});

describe('upgrade plan text output', () => {
  it('prints "no providers" when there is no plan', () => {
    expect(formatUpgradePlan([])).toBe(
      'There are no providers in the cluster. Please use clusterctl init to initialize a Cluster API management cluster.\n',
    );
  });
  it('starts with the cert-manager line, sorts plans by contract and rows by type, name, namespace', () => {
    const text = formatUpgradePlan(
      [
        {
          contract: 'v99',
          providers: [
            { providerName: 'infra', type: 'InfrastructureProvider', namespace: 'i', currentVersion: 'v1.0.0', nextVersion: 'v2.0.0' },
            { providerName: 'cluster-api', type: 'CoreProvider', namespace: 'c', currentVersion: 'v1.0.0', nextVersion: 'v2.0.0' },
            { providerName: 'kubeadm', type: 'ControlPlaneProvider', namespace: 'k', currentVersion: 'v1.0.0', nextVersion: 'v2.0.0' },
          ],
        },
        { contract: 'v1beta2', providers: [{ providerName: 'cluster-api', type: 'CoreProvider', namespace: 'c', currentVersion: 'v1.0.0', nextVersion: '' }] },
      ],
      { certManager: { from: 'v1.16.1', to: 'v1.19.4', shouldUpgrade: true } },
    );
    expect(text).toBe(
      [
        'Cert-Manager will be upgraded from "v1.16.1" to "v1.19.4"',
        '',
        '',
        'Latest release available for the v1beta2 Cluster API contract version:',
        '',
        'NAME          NAMESPACE   TYPE           CURRENT VERSION   NEXT VERSION',
        'cluster-api   c           CoreProvider   v1.0.0            Already up to date',
        '',
        'You are already up to date!',
        '',
        '',
        'Latest release available for the v99 Cluster API contract version:',
        '',
        'NAME                    NAMESPACE   TYPE                     CURRENT VERSION   NEXT VERSION',
        'control-plane-kubeadm   k           ControlPlaneProvider     v1.0.0            v2.0.0',
        'cluster-api             c           CoreProvider             v1.0.0            v2.0.0',
        'infrastructure-infra    i           InfrastructureProvider   v1.0.0            v2.0.0',
        '',
        'The current version of clusterctl could not upgrade to v99 contract (only v1beta2 supported).',
        '',
        '',
      ].join('\n'),
    );
  });
  it('says cert-manager is up to date when it is', () => {
    expect(formatUpgradePlan([], { certManager: { from: 'v1.21.1', to: 'v1.21.1', shouldUpgrade: false } })).toMatch(
      /^Cert-Manager is already up to date\n\nThere are no providers/,
    );
  });
});

describe('upgrade apply', () => {
  const stack = {
    inventory: [core('v1.10.0'), { providerName: 'kubeadm', type: 'BootstrapProvider', version: 'v1.10.0', namespace: 'capi-kubeadm-bootstrap-system' }, infra('v1.0.0')],
    repositories: {
      'CoreProvider/cluster-api': repo(['v1.10.0', 'v1.13.0', 'v1.14.0'], series([1, 10, 'v1beta2'], [1, 13, 'v1beta2'], [1, 14, 'v1beta2'])),
      'BootstrapProvider/kubeadm': repo(['v1.10.0', 'v1.13.0'], series([1, 10, 'v1beta2'], [1, 13, 'v1beta2'])),
      'InfrastructureProvider/infra': repo(['v1.0.0', 'v1.9.0'], series([1, 0, 'v1beta1'], [1, 9, 'v1beta2'])),
    } as Repositories,
  };

  it('--contract must be clusterctl’s own contract (exit 2)', () => {
    const err = thrown(() => applyPlan(stack, 'v1beta1'));
    expect(err.message).toBe('current version of clusterctl could only upgrade to v1beta2 contract, requested v1beta1');
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('refuses cluster-api and kubeadm jumps of more than 3 minors (from v1.10 on)', () => {
    expect(thrown(() => applyPlan(stack, 'v1beta2')).message).toBe("upgrade for capi-system/cluster-api provider can't skip more than 3 versions");
    const ok = applyCustomPlan(stack, addUpgradeItems(['cluster-api:v1.13.0'], 'CoreProvider', stack.inventory));
    expect(ok.map((i) => `${i.providerName}@${i.nextVersion}`)).toEqual(['cluster-api@v1.13.0']);
  });

  it('orders the upgrade Core, Bootstrap, ControlPlane, Infrastructure', () => {
    const items = applyCustomPlan(stack, [
      ...addUpgradeItems(['infra-system/infra:v1.9.0'], 'InfrastructureProvider', stack.inventory),
      ...addUpgradeItems(['kubeadm:v1.13.0'], 'BootstrapProvider', stack.inventory),
      ...addUpgradeItems(['cluster-api:v1.13.0'], 'CoreProvider', stack.inventory),
    ]);
    expect(items.map((i) => i.type)).toEqual(['CoreProvider', 'BootstrapProvider', 'InfrastructureProvider']);
    expect(items[0]?.currentVersion).toBe('v1.10.0');
  });

  it('detects multiple instances of one provider', () => {
    const err = thrown(() => applyPlan({ ...stack, inventory: [...stack.inventory, { ...infra('v1.0.0'), namespace: 'other' }] }, 'v1beta2'));
    expect(err.message).toBe(
      'detected multiple instances of the same provider, but clusterctl does not support this use case. See https://cluster-api.sigs.k8s.io/developer/core/support-multiple-instances for more details: multiple instance of provider type "infrastructure-infra" found: [infra-system/infrastructure-infra other/infrastructure-infra]',
    );
  });

  describe('custom plan errors', () => {
    const twoContracts = {
      inventory: [core('v1.0.0'), infra('v2.0.0')],
      repositories: {
        'CoreProvider/cluster-api': repo(['v1.0.0', 'v2.0.0'], series([1, 0, 'v1beta2'], [2, 0, 'v99'])),
        'InfrastructureProvider/infra': repo(['v2.0.0', 'v3.0.0'], series([2, 0, 'v1beta2'], [3, 0, 'v99'])),
      } as Repositories,
    };
    const item = (p: InventoryProvider, nextVersion: string) => ({ ...p, currentVersion: p.version, nextVersion });
    it.each([
      [
        'the core provider moving to another contract',
        [item(core('v1.0.0'), 'v2.0.0')],
        'current version of clusterctl could only upgrade the core provider to v1beta2 contract version, requested v99',
      ],
      [
        'a provider moving to an incompatible contract',
        [item(infra('v2.0.0'), 'v3.0.0')],
        'unable to perform upgrade: the target version for the provider infra-system/infrastructure-infra implements the v99 contract version, while the core provider supports v1beta2, v1beta1 contract versions',
      ],
      [
        'a provider not in the inventory',
        [item(infra('v2.0.0', 'other'), 'v3.0.0')],
        'unable to perform upgrade: the provider other-system/infrastructure-other in not part of the management cluster',
      ],
      [
        'a target version outside every release series',
        [item(core('v1.0.0'), 'v7.0.0')],
        'invalid target version: version v7.0.0 for the provider capi-system/cluster-api does not match any release series',
      ],
    ])('rejects %s', (_, items, message) => {
      expect(thrown(() => createCustomPlan(twoContracts, items)).message).toBe(message);
    });
    it('requires lagging providers to be included', () => {
      const input = {
        inventory: [core('v1.0.0'), infra('v2.0.0')],
        repositories: {
          'CoreProvider/cluster-api': repo(['v1.0.0', 'v2.0.0'], series([1, 0, 'v1alpha4'], [2, 0, 'v1beta2'])),
          'InfrastructureProvider/infra': repo(['v2.0.0', 'v3.0.0'], series([2, 0, 'v1alpha4'], [3, 0, 'v1beta2'])),
        } as Repositories,
      };
      expect(thrown(() => createCustomPlan(input, [item(core('v1.0.0'), 'v2.0.0')])).message).toBe(
        'unable to perform upgrade: the provider infra-system/infrastructure-infra implements the v1alpha4 contract version, while the core provider is getting updated to a version that supports v1beta2, v1beta1 contract versions. Please include the infra-system/infrastructure-infra provider in the upgrade',
      );
    });
  });
});

describe('parseUpgradeItem and addUpgradeItems (exit 2 on bad references)', () => {
  const inventory = [core('v1.0.0')];
  it('takes the namespace from the inventory when the reference has none', () => {
    expect(parseUpgradeItem('cluster-api:v1.1.0', 'CoreProvider', inventory)).toEqual({
      namespace: 'capi-system',
      name: 'cluster-api',
      providerName: 'cluster-api',
      type: 'CoreProvider',
      nextVersion: 'v1.1.0',
    });
  });
  it.each([
    ['a/b/c:v1', 'invalid provider name "a/b/c:v1". Provider name should be in the form namespace/provider:version or provider:version'],
    ['/b:v1', 'invalid provider name "/b:v1". Provider name should be in the form namespace/provider:version or provider:version'],
    ['cluster-api', 'invalid provider name "cluster-api". Provider name should be in the form provider:version'],
    ['ns/a:b:c', 'invalid provider name "ns/a:b:c". Provider name should be in the form namespace/provider:version or provider:version: invalid provider name "a:b:c". Provider name should be in the form name[:version]'],
    ['ns/:v1', 'invalid provider name "ns/:v1". Provider name should be in the form namespace/provider:version or provider:version: invalid provider name ":v1". Provider name should be in the form name[:version] and name cannot be empty'],
    ['ns/x:', 'invalid provider name "ns/x:". Provider name should be in the form namespace/provider:version or provider:version: invalid provider name "x:". Provider name should be in the form name[:version] and version cannot be empty'],
    ['unknown:v1', 'unable to find default namespace for provider "unknown:v1"'],
  ])('rejects %s', (ref, message) => {
    const err = thrown(() => parseUpgradeItem(ref, 'CoreProvider', inventory));
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(ExitCode.input);
  });
  it('requires a version for upgrade apply', () => {
    expect(thrown(() => addUpgradeItems(['ns/cluster-api'], 'CoreProvider', inventory)).message).toBe(
      'invalid provider name "ns/cluster-api". Provider name should be in the form namespace/name:version and version cannot be empty',
    );
  });
});

describe('capiform upgrade-path checks', () => {
  it('reports a cluster-api jump clusterctl upgrade apply would refuse, and a provider left on an incompatible contract', () => {
    const inventory = [core('v1.10.0'), infra('v1.0.0')];
    const repositories: Repositories = {
      'CoreProvider/cluster-api': repo(['v1.10.0', 'v1.14.0'], series([1, 10, 'v1beta2'], [1, 14, 'v1beta2'])),
      'InfrastructureProvider/infra': repo(['v1.0.0'], series([1, 0, 'v1alpha4'])),
    };
    const findings = checkUpgradePaths(planWithDropped({ inventory, repositories }), inventory, repositories);
    expect(findings.map((f) => `${f.severity} ${f.code} ${f.message}`)).toEqual([
      "error skip-minor-guard upgrade for capi-system/cluster-api provider can't skip more than 3 versions (v1.10.0 → v1.14.0)",
      'error incompatible-contract infra-system/infrastructure-infra stays at v1.0.0 (contract v1alpha4), which is not compatible with contract v1beta2',
    ]);
  });
});

describe('cert-manager (helper C’s shouldUpgrade, as plan upgrade uses it)', () => {
  const obj = (version?: string) => ({ kind: 'Deployment', metadata: { annotations: version ? { 'cert-manager.clusterctl.cluster.x-k8s.io/version': version } : {} } });
  it('treats objects without the version annotation as v0.11.0', () => {
    expect(certManagerShouldUpgrade('v1.21.1', [obj()], [obj()])).toEqual({ shouldUpgrade: true, fromVersion: 'v0.11.0' });
  });
  it('upgrades from an older version and not from a newer one', () => {
    expect(certManagerShouldUpgrade('v1.21.1', [obj('v1.16.1')], [obj()])).toEqual({ shouldUpgrade: true, fromVersion: 'v1.16.1' });
    expect(certManagerShouldUpgrade('v1.21.1', [obj('v1.22.0')], [obj()])).toEqual({ shouldUpgrade: false, fromVersion: 'v1.22.0' });
  });
});
