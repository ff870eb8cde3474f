/**
 * `capiform plan upgrade` and `capiform plan move` through the CLI: clusterctl's upgrade plan text byte for byte,
 * capiform's upgrade-path checks, the move order over a rendered cluster, JSON output, and every bad-input path.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitManifests, parseManifests } from '../src/yaml/index.js';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { capiStack, coreOnlyProject, tempDir, writeFile, writeRepository, writeTreeInventory } from './helpers/plan-fixtures.js';

const corpus = sharedDir('corpus');
const corpusRepo = join(corpus.path, 'repository');

describe('capiform plan upgrade', () => {
  it('prints clusterctl upgrade plan for the rendered tree inventory and a local repository', async () => {
    const base = tempDir();
    writeTreeInventory(base, [
      { name: 'cluster-api', type: 'CoreProvider', version: 'v1.0.0', namespace: 'capi-system' },
      { name: 'infra', type: 'InfrastructureProvider', version: 'v2.0.0', namespace: 'infra-system' },
    ]);
    const repo = join(base, 'repo');
    writeRepository(repo, 'cluster-api', ['v1.0.0', 'v1.0.1', 'v1.1.0'], [
      { major: 1, minor: 0, contract: 'v1beta2' },
      { major: 1, minor: 1, contract: 'v1beta2' },
    ]);
    writeRepository(repo, 'infrastructure-infra', ['v2.0.0', 'v2.1.0-rc.0'], [
      { major: 2, minor: 0, contract: 'v1beta2' },
      { major: 2, minor: 1, contract: 'v1beta2' },
    ]);
    const r = await runCli(['plan', 'upgrade', '--repository', 'repo'], { cwd: base });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        '',
        'Latest release available for the v1beta2 Cluster API contract version:',
        '',
        'NAME                   NAMESPACE      TYPE                     CURRENT VERSION   NEXT VERSION',
        'cluster-api            capi-system    CoreProvider             v1.0.0            v1.1.0',
        'infrastructure-infra   infra-system   InfrastructureProvider   v2.0.0            Already up to date',
        '',
        'You can now apply the upgrade by executing the following command:',
        '',
        'clusterctl upgrade apply --contract v1beta2',
        '',
        '',
      ].join('\n'),
    );
  });

  it('plans the embedded example stack (v1.12.4) against examples/repository: v1.13.1 everywhere', async () => {
    const base = tempDir();
    writeTreeInventory(base, capiStack('v1.12.4', { name: 'docker', version: 'v1.12.4', namespace: 'capd-system' }));
    const repository = join(import.meta.dirname, '..', 'examples', 'repository');
    const r = await runCli(['plan', 'upgrade', '--repository', repository, '--json'], { cwd: base });
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { plans: { contract: string; providers: { nextVersion: string }[] }[]; findings: unknown[] };
    expect(doc.plans.map((p) => [p.contract, p.providers.map((i) => i.nextVersion)])).toEqual([
      ['v1beta2', ['v1.13.1', 'v1.13.1', 'v1.13.1', 'v1.13.1']],
    ]);
    expect(doc.findings).toEqual([]);
  });

  it('says "You are already up to date!" when nothing is newer', async () => {
    const base = coreOnlyProject();
    const r = await runCli(['plan', 'upgrade', '--repository', 'repo'], { cwd: base });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('cluster-api   capi-system   CoreProvider   v1.0.0            Already up to date\n');
    expect(r.stdout).toContain('\nYou are already up to date!\n\n');
  });

  it('plans the cert-manager upgrade from the tree’s cert-manager objects and the newest cert-manager in --repository', async () => {
    const base = coreOnlyProject();
    const cm = (version: string): string =>
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: cert-manager',
        '  namespace: cert-manager',
        '  labels: { clusterctl.cluster.x-k8s.io/core: cert-manager }',
        `  annotations: { cert-manager.clusterctl.cluster.x-k8s.io/version: ${version} }`,
        '',
      ].join('\n');
    writeFile(join(base, 'providers', 'cert-manager', 'cert-manager.yaml'), cm('v1.18.2'));
    writeFile(join(base, 'repo', 'cert-manager', 'v1.18.2', 'cert-manager.yaml'), cm('v1.18.2'));
    writeFile(join(base, 'repo', 'cert-manager', 'v1.19.1', 'cert-manager.yaml'), cm('v1.19.1'));
    const r = await runCli(['plan', 'upgrade', '--repository', 'repo'], { cwd: base });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Cert-Manager will be upgraded from "v1.18.2" to "v1.19.1"\n\n\nLatest release available/);
    const same = await runCli(['plan', 'upgrade', '--repository', 'repo', '--cert-manager-version', 'v1.18.2'], { cwd: base });
    expect(same.stdout).toMatch(/^Cert-Manager is already up to date\n\n/);
  });

  it('reads the inventory from capi.lock.yaml and a local source, with namespaces from the tree', async () => {
    const base = tempDir();
    writeRepository(join(base, 'repository'), 'cluster-api', ['v1.0.0', 'v1.0.3'], [{ major: 1, minor: 0, contract: 'v1beta2' }]);
    writeFile(
      join(base, 'capi.lock.yaml'),
      [
        'lockfileVersion: 1',
        'configDigest: x',
        'contract: v1beta2',
        'providers:',
        '  - name: cluster-api',
        '    type: CoreProvider',
        '    label: cluster-api',
        '    constraint: ~1.0.0',
        '    version: v1.0.0',
        '    contract: v1beta2',
        '    source: { kind: local, url: ./repository/cluster-api/latest/core-components.yaml }',
        '    files: []',
        '',
      ].join('\n'),
    );
    writeTreeInventory(base, [{ name: 'cluster-api', type: 'CoreProvider', version: 'v1.0.0', namespace: 'capi-system' }]);
    const r = await runCli(['plan', 'upgrade', '--json'], { cwd: base });
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { inventory: { source: string }; plans: { contract: string; providers: { namespace: string; nextVersion: string }[] }[] };
    expect(doc.inventory.source).toBe('lock');
    expect(doc.plans).toEqual([
      {
        contract: 'v1beta2',
        providers: [
          { providerName: 'cluster-api', type: 'CoreProvider', namespace: 'capi-system', currentVersion: 'v1.0.0', nextVersion: 'v1.0.3' },
        ],
      },
    ]);
  });

  it('fails with exit 3 naming the providers whose release listing is missing offline', async () => {
    const base = tempDir();
    writeFile(
      join(base, 'capi.lock.yaml'),
      'lockfileVersion: 1\nproviders:\n  - name: aws\n    type: InfrastructureProvider\n    version: v2.10.3\n    source: { kind: github, url: https://github.com/kubernetes-sigs/cluster-api-provider-aws/releases/latest/infrastructure-components.yaml }\n',
    );
    const env = { PATH: process.env.PATH, CAPIFORM_CACHE_DIR: join(base, 'empty-cache') };
    const r = await runCli(['plan', 'upgrade'], { cwd: base, env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'Error: offline upgrade plan needs the release listing (versions and metadata.yaml) of every provider; missing for: infrastructure-aws (github source https://github.com/kubernetes-sigs/cluster-api-provider-aws/releases/latest/infrastructure-components.yaml: not in the cache)',
    );
    expect(r.stderr).toContain('run `capiform lock` once online to fill the cache (GitHub/GitLab sources), or pass --repository DIR');
  });

  it('names the missing folder of a local source', async () => {
    const base = tempDir();
    writeFile(
      join(base, 'capi.lock.yaml'),
      'lockfileVersion: 1\nproviders:\n  - name: cluster-api\n    type: CoreProvider\n    version: v1.12.4\n    source: { kind: local, url: gone/repository }\n',
    );
    const r = await runCli(['plan', 'upgrade'], { cwd: base });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`missing for: cluster-api (local source gone/repository: no folder ${join(base, 'gone/repository/cluster-api')})`);
    expect(r.stderr).toContain('fix: restore the local repository folders (local sources)');
  });

  it('fails with exit 2 when there is no inventory at all', async () => {
    const base = tempDir();
    const r = await runCli(['plan', 'upgrade'], { cwd: base });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: no inventory: neither capi.lock.yaml nor Provider objects under providers/ in ${base}`);
  });

  it('fails with exit 2 for a --repository that does not exist, and for a missing --config', async () => {
    const base = tempDir();
    const r = await runCli(['plan', 'upgrade', '--repository', 'nope'], { cwd: base });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: repository directory not found: nope');
    const c = await runCli(['plan', 'upgrade', '--config', 'capi.config.ts'], { cwd: base });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('Error: config file not found: capi.config.ts');
  });

  it('previews upgrade apply with explicit providers, with clusterctl’s checks and errors', async () => {
    const base = tempDir();
    writeTreeInventory(base, [
      { name: 'cluster-api', type: 'CoreProvider', version: 'v1.10.0', namespace: 'capi-system' },
      { name: 'infra', type: 'InfrastructureProvider', version: 'v2.0.0', namespace: 'infra-system' },
    ]);
    writeRepository(join(base, 'repo'), 'cluster-api', ['v1.10.0', 'v1.13.0', 'v1.14.0'], [
      { major: 1, minor: 10, contract: 'v1beta2' },
      { major: 1, minor: 13, contract: 'v1beta2' },
      { major: 1, minor: 14, contract: 'v1beta2' },
    ]);
    writeRepository(join(base, 'repo'), 'infrastructure-infra', ['v2.0.0', 'v2.1.0'], [
      { major: 2, minor: 0, contract: 'v1beta2' },
      { major: 2, minor: 1, contract: 'v1beta2' },
    ]);
    const ok = await runCli(['plan', 'upgrade', '--repository', 'repo', '-i', 'infra:v2.1.0', '--core', 'capi-system/cluster-api:v1.13.0'], { cwd: base });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain(
      [
        'clusterctl upgrade apply --core capi-system/cluster-api:v1.13.0 --infrastructure infra:v2.1.0 would upgrade, in this order:',
        '',
        'NAME                   NAMESPACE      TYPE                     CURRENT VERSION   NEXT VERSION',
        'cluster-api            capi-system    CoreProvider             v1.10.0           v1.13.0',
        'infrastructure-infra   infra-system   InfrastructureProvider   v2.0.0            v2.1.0',
        '',
      ].join('\n'),
    );

    const skip = await runCli(['plan', 'upgrade', '--repository', 'repo', '--core', 'cluster-api:v1.14.0'], { cwd: base });
    expect(skip.code).toBe(2);
    expect(skip.stderr).toContain("Error: upgrade for capi-system/cluster-api provider can't skip more than 3 versions");

    const both = await runCli(['plan', 'upgrade', '--repository', 'repo', '--contract', 'v1beta2', '--core', 'cluster-api:v1.13.0'], { cwd: base });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      "Error: The --contract flag can't be used in combination with --core, --bootstrap, --control-plane, --infrastructure, --ipam, --extension, --addon",
    );

    const noVersion = await runCli(['plan', 'upgrade', '--repository', 'repo', '--core', 'capi-system/cluster-api'], { cwd: base });
    expect(noVersion.code).toBe(2);
    expect(noVersion.stderr).toContain(
      'Error: invalid provider name "capi-system/cluster-api". Provider name should be in the form namespace/name:version and version cannot be empty',
    );
  });

  it('fails with exit 2 for a --contract clusterctl cannot apply', async () => {
    const base = coreOnlyProject();
    const r = await runCli(['plan', 'upgrade', '--repository', 'repo', '--contract', 'v1beta1'], { cwd: base });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: current version of clusterctl could only upgrade to v1beta2 contract, requested v1beta1');
  });

  it('fails with exit 2 when the inventory has two core providers', async () => {
    const base = tempDir();
    writeTreeInventory(base, [
      { name: 'cluster-api', type: 'CoreProvider', version: 'v1.0.0', namespace: 'capi-system' },
      { name: 'other', type: 'CoreProvider', version: 'v1.0.0', namespace: 'other-system' },
    ]);
    writeRepository(join(base, 'repo'), 'cluster-api', ['v1.0.0'], [{ major: 1, minor: 0, contract: 'v1beta2' }]);
    writeRepository(join(base, 'repo'), 'other', ['v1.0.0'], [{ major: 1, minor: 0, contract: 'v1beta2' }]);
    const r = await runCli(['plan', 'upgrade', '--repository', 'repo'], { cwd: base });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: invalid management cluster: there must be one core provider, found 2');
  });

  it('fails with exit 3 when metadata does not cover the current version', async () => {
    const base = coreOnlyProject('v0.9.0');
    const r = await runCli(['plan', 'upgrade', '--repository', 'repo'], { cwd: base });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'Error: invalid provider metadata: version v0.9.0 (the current version) for the provider capi-system/cluster-api does not match any release series',
    );
  });

  it.skipIf(!corpus.present)(`corpus: v1.12.11 core/kubeadm + CAPD → v1.13.5 under v1beta2${corpus.skipped}`, async () => {
    const base = tempDir();
    writeTreeInventory(base, capiStack('v1.12.11', { name: 'docker', version: 'v1.12.11', namespace: 'capd-system' }));
    const r = await runCli(['plan', 'upgrade', '--repository', corpusRepo, '--contract', 'v1beta2'], { cwd: base });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(
      [
        'Latest release available for the v1beta2 Cluster API contract version:',
        '',
        'NAME                    NAMESPACE                           TYPE                     CURRENT VERSION   NEXT VERSION',
        'bootstrap-kubeadm       capi-kubeadm-bootstrap-system       BootstrapProvider        v1.12.11          v1.13.5',
        'control-plane-kubeadm   capi-kubeadm-control-plane-system   ControlPlaneProvider     v1.12.11          v1.13.5',
        'cluster-api             capi-system                         CoreProvider             v1.12.11          v1.13.5',
        'infrastructure-docker   capd-system                         InfrastructureProvider   v1.12.11          v1.13.5',
        '',
        'You can now apply the upgrade by executing the following command:',
        '',
        'clusterctl upgrade apply --contract v1beta2',
      ].join('\n'),
    );
    expect(r.stdout).not.toContain('Latest release available for the v1beta1');
    // upgrade apply order: Core, Bootstrap, ControlPlane, Infrastructure.
    expect(r.stdout).toMatch(/would upgrade, in this order:\n\nNAME[^\n]*\ncluster-api [^\n]*\nbootstrap-kubeadm [^\n]*\ncontrol-plane-kubeadm [^\n]*\ninfrastructure-docker /);
  });

  it.skipIf(!corpus.present)(`corpus: CAPV v1.15.3 → v1.16.1 changes contract v1beta1 → v1beta2 (a capiform warning)${corpus.skipped}`, async () => {
    const base = tempDir();
    writeTreeInventory(base, capiStack('v1.13.5', { name: 'vsphere', version: 'v1.15.3', namespace: 'capv-system' }));
    const r = await runCli(['plan', 'upgrade', '--repository', corpusRepo, '--json'], { cwd: base });
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as {
      plans: { contract: string; providers: { providerName: string; nextVersion: string }[] }[];
      findings: { severity: string; code: string; provider?: string; message: string }[];
    };
    expect(doc.plans.map((p) => p.contract)).toEqual(['v1beta2']);
    const vsphere = doc.plans[0]?.providers.find((p) => p.providerName === 'vsphere');
    expect(vsphere?.nextVersion).toBe('v1.16.1');
    expect(doc.findings).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        code: 'contract-change',
        provider: 'capv-system/infrastructure-vsphere',
        message: 'capv-system/infrastructure-vsphere moves from contract v1beta1 to v1beta2 (v1.15.3 → v1.16.1)',
      }),
    );
  });

  it.skipIf(!corpus.present)(`corpus: core v1.10.10 reaches v1beta2 at v1.13.5 — exactly 3 minors, allowed by the skip guard${corpus.skipped}`, async () => {
    const base = tempDir();
    writeTreeInventory(base, capiStack('v1.10.10', { name: 'docker', version: 'v1.10.10', namespace: 'capd-system' }));
    const r = await runCli(['plan', 'upgrade', '--repository', corpusRepo, '--contract', 'v1beta2'], { cwd: base });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Two plans: the current contract (v1beta1, nothing newer) and v1beta2.
    expect(r.stdout).toContain('Latest release available for the v1beta1 Cluster API contract version:');
    expect(r.stdout).toContain('cluster-api             capi-system                         CoreProvider             v1.10.10          Already up to date');
    expect(r.stdout).toMatch(/v1beta1 Cluster API contract version:\n\n(?:[^\n]+\n){5}\nYou are already up to date!\n/);
    expect(r.stdout).toContain('cluster-api             capi-system                         CoreProvider             v1.10.10          v1.13.5');
    expect(r.stdout).toContain('would upgrade, in this order:');
    expect(r.stdout).toContain('info: capi-system/cluster-api skips minor versions 1.11, 1.12 (v1.10.10 → v1.13.5)');
    expect(r.stdout).toContain('warning: capi-system/cluster-api moves from contract v1beta1 to v1beta2 (v1.10.10 → v1.13.5)');
  });
});

function clusterManifests(ns: string, name: string): string {
  return [
    'apiVersion: cluster.x-k8s.io/v1beta2',
    'kind: Cluster',
    `metadata: { name: ${name}, namespace: ${ns} }`,
    'spec:',
    '  infrastructureRef: { apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerCluster, name: ' + name + ' }',
    '---',
    'apiVersion: infrastructure.cluster.x-k8s.io/v1beta2',
    'kind: DockerCluster',
    `metadata: { name: ${name}, namespace: ${ns} }`,
    '---',
    'apiVersion: v1',
    'kind: Secret',
    `metadata: { name: ${name}-kubeconfig, namespace: ${ns} }`,
    '---',
    'apiVersion: v1',
    'kind: ConfigMap',
    `metadata: { name: unrelated, namespace: ${ns} }`,
    '',
  ].join('\n');
}

function crds(): string {
  const crd = (group: string, kind: string, scope = 'Namespaced'): string =>
    [
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      `metadata: { name: ${kind.toLowerCase()}s.${group}, labels: { clusterctl.cluster.x-k8s.io: "" } }`,
      'spec:',
      `  group: ${group}`,
      `  names: { kind: ${kind}, plural: ${kind.toLowerCase()}s }`,
      `  scope: ${scope}`,
      '  versions: [{ name: v1beta2, served: true, storage: true }]',
    ].join('\n');
  return [crd('cluster.x-k8s.io', 'Cluster'), crd('infrastructure.cluster.x-k8s.io', 'DockerCluster')].join('\n---\n') + '\n';
}

describe('capiform plan move', () => {
  it('reads providers/ and clusters/ of the rendered tree by default and prints the move groups', async () => {
    const base = tempDir();
    writeFile(join(base, 'providers', 'cluster-api', 'components.yaml'), crds());
    writeFile(join(base, 'clusters', 'team-a', 'c1', 'cluster.yaml'), clusterManifests('team-a', 'c1'));
    const r = await runCli(['plan', 'move'], { cwd: base });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'Move plan for all namespaces: 3 objects in 2 groups (clusterctl move order)',
        '',
        'Group 1:',
        '  Cluster team-a/c1',
        '',
        'Group 2:',
        '  DockerCluster team-a/c1',
        '  Secret team-a/c1-kubeconfig',
        '',
        'Not moved (clusterctl skips these silently):',
        '  ConfigMap team-a/unrelated: not owned (directly, or softly by name or reference) by a Cluster, ClusterClass, ClusterResourceSet or move-hierarchy object, and not labelled clusterctl.cluster.x-k8s.io/move',
        '',
      ].join('\n'),
    );
  });

  it('moves the embedded example whole: its shared ClusterClass (clusterclasses/) and every cluster object', async () => {
    const root = join(import.meta.dirname, '..');
    const r = await runCli(['plan', 'move', '--json'], { cwd: root });
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { groups: { kind: string; namespace: string; name: string }[][]; skipped: { kind: string; namespace: string; name: string }[] };
    const moved = doc.groups.flat().map((o) => `${o.kind} ${o.namespace}/${o.name}`);
    expect(moved).toContain('ClusterClass team-a/quick-start');
    expect(moved).toContain('DockerClusterTemplate team-a/quick-start-cluster');
    expect(moved).toContain('DockerMachineTemplate team-b/prod-1-control-plane');
    expect(doc.skipped.filter((o) => o.namespace.startsWith('team-')).map((o) => `${o.kind} ${o.namespace}/${o.name}`)).toEqual([]);
  });

  it('limits the plan to one namespace and emits JSON', async () => {
    const base = tempDir();
    writeFile(join(base, 'crds.yaml'), crds());
    writeFile(join(base, 'a.yaml'), clusterManifests('team-a', 'c1'));
    writeFile(join(base, 'b.yaml'), clusterManifests('team-b', 'c2'));
    const r = await runCli(['plan', 'move', 'crds.yaml', 'a.yaml', 'b.yaml', '--namespace', 'team-b', '--json'], { cwd: base });
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { namespace: string; groups: { kind: string; namespace: string; name: string }[][]; skipped: { reason: string; namespace: string }[] };
    expect(doc.namespace).toBe('team-b');
    expect(doc.groups.map((g) => g.map((o) => `${o.kind} ${o.namespace}/${o.name}`))).toEqual([
      ['Cluster team-b/c2'],
      ['DockerCluster team-b/c2', 'Secret team-b/c2-kubeconfig'],
    ]);
    expect(doc.skipped.filter((s) => s.reason === 'outside-namespace').map((s) => s.namespace)).toEqual([
      'team-a',
      'team-a',
      'team-a',
      'team-a',
    ]);
  });

  it('fails with exit 2 for conflicting namespace flags, a missing path, no tree, or broken YAML', async () => {
    const base = tempDir();
    const both = await runCli(['plan', 'move', '-n', 'x', '--all-namespaces'], { cwd: base });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Error: --namespace and --all-namespaces cannot be used together');

    const missing = await runCli(['plan', 'move', 'nope'], { cwd: base });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Error: no such file or directory: ${join(base, 'nope')}`);

    const empty = await runCli(['plan', 'move'], { cwd: base });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`Error: nothing to plan: no providers/, clusterclasses/ or clusters/ directory in ${base}`);

    writeFile(join(base, 'bad.yaml'), 'kind: [unclosed\n');
    const bad = await runCli(['plan', 'move', 'bad.yaml'], { cwd: base });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: failed to unmarshal the 1st yaml document: "kind: \[unclosed\\n": error converting YAML to JSON: yaml: line \d+: /);
    expect(bad.stderr).toMatch(/at: bad.yaml:\d+/);
  });

  it.skipIf(!corpus.present)(`corpus: a CAPD ClusterClass cluster rendered from the templates moves in clusterctl order${corpus.skipped}`, async () => {
    const base = tempDir();
    const vars: Record<string, string> = {
      CLUSTER_NAME: 'dev1',
      NAMESPACE: 'dev',
      KUBERNETES_VERSION: 'v1.34.0',
      CONTROL_PLANE_MACHINE_COUNT: '1',
      WORKER_MACHINE_COUNT: '2',
    };
    const render = (file: string): string =>
      readFileSync(join(corpusRepo, 'infrastructure-docker', 'v1.13.5', file), 'utf8').replace(
        /\$\{([A-Za-z0-9_]+)(?::=([^}]*))?\}/g,
        (_, name: string, def?: string) => vars[name] ?? def ?? '',
      );
    // The ClusterClass goes to the cluster's namespace, as `clusterctl generate cluster` would put it.
    const clusterClass = render('clusterclass-quick-start.yaml').replace(/^metadata:\n/gm, 'metadata:\n  namespace: dev\n');
    writeFile(join(base, 'clusters', 'dev', 'dev1.yaml'), `${render('cluster-template-development.yaml')}\n---\n${clusterClass}`);
    const providers = [
      'cluster-api/v1.13.5/core-components.yaml',
      'bootstrap-kubeadm/v1.13.5/bootstrap-components.yaml',
      'control-plane-kubeadm/v1.13.5/control-plane-components.yaml',
      'infrastructure-docker/v1.13.5/infrastructure-components-development.yaml',
    ];
    for (const p of providers) {
      // What the rendered tree holds: provider objects carry clusterctl's labels (added at render time). Only the
      // CRDs and the Deployments matter here.
      const text = readFileSync(join(corpusRepo, p), 'utf8').replace(/\$\{([A-Za-z0-9_]+)(?::=([^}]*))?\}/g, (_, _n: string, def?: string) => def ?? 'x');
      const docs = parseManifests(text).filter((d) => d.kind === 'CustomResourceDefinition' || d.kind === 'Deployment');
      for (const d of docs) {
        const m = (d.metadata ??= {}) as { labels?: Record<string, string> };
        m.labels = { ...m.labels, 'clusterctl.cluster.x-k8s.io': '' };
      }
      writeFile(join(base, 'providers', p.split('/')[0] as string, 'components.yaml'), emitManifests(docs));
    }
    const r = await runCli(['plan', 'move', '--json'], { cwd: base });
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as {
      groups: { kind: string; name: string; inferredOwners: { owner: string }[] }[][];
      skipped: { kind: string; reason: string }[];
      problems: unknown[];
    };
    const groups = doc.groups.map((g) => g.map((o) => `${o.kind}/${o.name}`));
    // ClusterClass first; then the Cluster using it and the templates the ClusterClass controller owns.
    expect(groups[0]).toEqual(['ClusterClass/quick-start']);
    expect(groups[1]).toContain('Cluster/dev1');
    expect(groups[1]).toContain('DockerClusterTemplate/quick-start-cluster');
    expect(groups[1]).toContain('KubeadmControlPlaneTemplate/quick-start-control-plane');
    expect(groups).toHaveLength(2);
    expect(doc.problems).toEqual([]);
    const cct = doc.groups[1]?.find((o) => o.kind === 'DockerClusterTemplate');
    expect(cct?.inferredOwners).toEqual([
      { owner: 'ClusterClass dev/quick-start', because: 'the ClusterClass controller owns the templates it references' },
    ]);
    // Provider Deployments are not of a type clusterctl move discovers.
    expect(doc.skipped.find((s) => s.kind === 'Deployment')?.reason).toBe('not-discovery-type');

  });
});
