/**
 * `bundle --operator`: the Cluster API Operator's provider objects carry the config's manager settings, deployment
 * overrides, images, variables (as a Secret reference, never values) and patches, so the operator installs what
 * `capiform render` writes to the tree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArchive } from '../src/bundle/archive.js';
import { bundleContents } from '../src/bundle/verify.js';
import { operatorProviderYaml, type OperatorSettings } from '../src/render/index.js';
import type { ResolvedProvider } from '../src/config/index.js';
import { runCli } from './helpers/cli.js';
import { bundleProject } from './helpers/bundle-project.js';

const config = `export default {
  providers: {
    core: {
      name: 'cluster-api',
      version: '~1.12.0',
      url: './repository',
      manager: { verbosity: 4, featureGates: { MachinePool: false, ClusterTopology: true }, metricsBindAddress: ':8443', additionalArgs: { '--leader-elect': 'true' } },
      deployment: {
        replicas: 2,
        nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
        tolerations: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
        containers: [{ name: 'manager', args: { '--sync-period': '5m' }, env: [{ name: 'HTTPS_PROXY', value: 'http://proxy:3128' }], resources: { limits: { memory: '512Mi' } } }],
      },
      variables: { GITHUB_TOKEN: 'ghp_do-not-write-me' },
      patches: [{ target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'capi-controller-manager' }, patch: [{ op: 'add', path: '/metadata/labels/team', value: 'platform' }] }],
    },
    infrastructure: [{ name: 'docker', version: '~1.12.0', url: './repository' }],
  },
  certManager: { version: 'v1.18.2', url: './repository' },
  variables: { CLUSTER_TOPOLOGY: 'true', AWS_SECRET_ACCESS_KEY: 'aws-secret-do-not-write' },
  images: { 'infrastructure-docker': { repository: 'registry.internal/mirror' } },
};
`;

async function operatorForm(): Promise<{ text: (path: string) => string; all: string }> {
  const dir = bundleProject({ 'capi.config.ts': config });
  const r = await runCli(['bundle', '--out', 'dist/b.tar.gz', '--operator'], { cwd: dir });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const { files } = bundleContents(readArchive(readFileSync(join(dir, 'dist', 'b.tar.gz'))).entries);
  const text = (p: string): string => Buffer.from(files.get(p)!).toString('utf8');
  const all = [...files.keys()].filter((p) => p.startsWith('operator/')).map(text).join('');
  return { text, all };
}

/** The provider object: the last document of `operator/<label>.yaml`, after the Namespace and the ConfigMap. */
function providerObject(file: string): string {
  return file.slice(file.lastIndexOf('---\n') + 4);
}

describe('bundle --operator carries the config', () => {
  it('puts manager, deployment, variables and patches into the core provider object', async () => {
    const { text } = await operatorForm();
    expect(providerObject(text('operator/cluster-api.yaml'))).toBe(
      [
        '# spec.configSecret: create Secret capi-system/cluster-api-variables out of band (external-secrets, SOPS);',
        '# capiform writes no variable values. Keys (from capi.config): AWS_SECRET_ACCESS_KEY, CLUSTER_TOPOLOGY, GITHUB_TOKEN',
        'apiVersion: operator.cluster.x-k8s.io/v1alpha2',
        'kind: CoreProvider',
        'metadata:',
        '  name: cluster-api',
        '  namespace: capi-system',
        'spec:',
        '  version: v1.12.4',
        '  manager:',
        '    metrics:',
        "      bindAddress: ':8443'",
        '    verbosity: 4',
        '    featureGates:',
        '      ClusterTopology: true',
        '      MachinePool: false',
        '    additionalArgs:',
        "      '--leader-elect': \"true\"",
        '  deployment:',
        '    replicas: 2',
        '    nodeSelector:',
        "      node-role.kubernetes.io/control-plane: \"\"",
        '    tolerations:',
        '    - key: node-role.kubernetes.io/control-plane',
        '      effect: NoSchedule',
        '    containers:',
        '    - name: manager',
        '      args:',
        "        '--sync-period': 5m",
        '      env:',
        '      - name: HTTPS_PROXY',
        '        value: http://proxy:3128',
        '      resources:',
        '        limits:',
        '          memory: 512Mi',
        '  configSecret:',
        '    name: cluster-api-variables',
        '    namespace: capi-system',
        '  fetchConfig:',
        '    selector:',
        '      matchLabels:',
        '        provider.cluster.x-k8s.io/name: cluster-api',
        '        provider.cluster.x-k8s.io/type: core',
        '  patches:',
        '  - target:',
        '      group: apps',
        '      version: v1',
        '      kind: Deployment',
        '      name: capi-controller-manager',
        "    patch: '[{\"op\":\"add\",\"path\":\"/metadata/labels/team\",\"value\":\"platform\"}]'",
        '',
      ].join('\n'),
    );
  });

  it('relocates the images of the manager Deployment as the render does, with imageUrl', async () => {
    const { text } = await operatorForm();
    const docker = providerObject(text('operator/infrastructure-docker.yaml'));
    expect(docker).toContain('kind: InfrastructureProvider\n');
    expect(docker).toContain('  deployment:\n    containers:\n    - name: manager\n      imageUrl: registry.internal/mirror/capd-manager:v1.12.4\n');
    // The ConfigMap keeps the upstream release: the operator applies the settings itself.
    expect(text('operator/infrastructure-docker.yaml')).toContain('image: gcr.io/k8s-staging-cluster-api/capd-manager:v1.12.4');
  });

  it('never writes a variable value, credential or not', async () => {
    const { all } = await operatorForm();
    expect(all).not.toContain('ghp_do-not-write-me');
    expect(all).not.toContain('aws-secret-do-not-write');
    expect(all).not.toMatch(/^kind: Secret$/m);
  });
});

describe('operatorProviderYaml', () => {
  const provider = (over: Partial<ResolvedProvider>): ResolvedProvider => ({
    kind: 'infrastructure',
    type: 'InfrastructureProvider',
    name: 'aws',
    label: 'infrastructure-aws',
    constraint: 'v2.10.0',
    url: undefined,
    repositoryType: undefined,
    targetNamespace: undefined,
    variables: {},
    images: undefined,
    manager: undefined,
    deployment: undefined,
    patches: [],
    configPath: 'providers.infrastructure[0]',
    ...over,
  });
  const input = { name: 'aws', type: 'InfrastructureProvider', label: 'infrastructure-aws', version: 'v2.10.0', namespace: 'capa-system' };

  it('is the bare provider object when the config sets nothing', () => {
    const settings: OperatorSettings = { providers: [provider({})], variables: {}, images: {} };
    expect(operatorProviderYaml(input, settings)).toBe(
      'apiVersion: operator.cluster.x-k8s.io/v1alpha2\nkind: InfrastructureProvider\nmetadata:\n  name: aws\n  namespace: capa-system\nspec:\n  version: v2.10.0\n',
    );
  });

  it('maps health, sync period, profiler and concurrency to ManagerSpec fields, a core-group patch target to its version', () => {
    const settings: OperatorSettings = {
      providers: [
        provider({
          manager: { healthAddr: ':9440', syncPeriod: '10m', profilerAddress: 'localhost:6060', maxConcurrentReconciles: 5 },
          patches: [{ target: { apiVersion: 'v1', kind: 'ConfigMap' }, patch: [{ op: 'remove', path: '/data/x' }] }],
        }),
      ],
      variables: {},
      images: {},
    };
    const yaml = operatorProviderYaml(input, settings)!;
    expect(yaml).toContain('  manager:\n    syncPeriod: 10m\n    health:\n      healthProbeBindAddress: \':9440\'\n    profilerAddress: localhost:6060\n    maxConcurrentReconciles: 5\n');
    expect(yaml).toContain('  patches:\n  - target:\n      version: v1\n      kind: ConfigMap\n');
  });

  it('takes a container image from the config as imageUrl, and skips types the operator does not manage', () => {
    const settings: OperatorSettings = { providers: [provider({ deployment: { containers: [{ name: 'manager', image: 'mirror/capa:v2.10.0' }] } })], variables: {}, images: {} };
    expect(operatorProviderYaml(input, settings)).toContain('    containers:\n    - name: manager\n      imageUrl: mirror/capa:v2.10.0\n');
    expect(operatorProviderYaml({ ...input, type: 'SomethingElse' }, settings)).toBeUndefined();
  });
});
