/**
 * The config shapes the Renovate preset must read, with what it must extract from each: the files `capiform init`
 * writes (clusterctl's catalog, a local repository, entries with variables and feature gates), the examples of
 * docs/renovate.md and docs/fleets.md, and the embedded example. test/renovate-preset.test.ts checks them against an
 * emulation of Renovate's regex manager, test/renovate-extract.test.ts against Renovate itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSource, type Scaffold, type ScaffoldProvider } from '../../src/config/index.js';

export const repoRoot = join(import.meta.dirname, '../..');

/** depName, packageName (GitHub repository), currentValue, depType. */
export type ExpectedDep = [string, string, string, string];

export interface Shape {
  /** Where the file goes in the test repository (Renovate reads every matching path). */
  path: string;
  content: string;
  deps: ExpectedDep[];
}

const CAPI = 'kubernetes-sigs/cluster-api';
const CM = 'cert-manager/cert-manager';

/** The `n`-th fenced block of `lang` in docs/`page`. */
export function docBlock(page: string, lang: string, n: number): string {
  const text = readFileSync(join(repoRoot, 'docs', page), 'utf8');
  const blocks = [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((m) => m[1]!);
  if (blocks[n] === undefined) throw new Error(`no ${lang} block #${n} in docs/${page}`);
  return blocks[n];
}

function initConfig(url: (label: string) => string | undefined, certManagerUrl: string | undefined): string {
  const p = (kind: ScaffoldProvider['kind'], name: string, newest: string, label: string, extra: Partial<ScaffoldProvider> = {}): ScaffoldProvider => ({
    kind,
    name,
    newest,
    url: url(label),
    requiredVariables: [],
    ...extra,
  });
  const scaffold: Scaffold = {
    providers: [
      p('core', 'cluster-api', 'v1.13.5', 'cluster-api'),
      p('bootstrap', 'kubeadm', 'v1.13.5', 'bootstrap-kubeadm'),
      p('controlPlane', 'kubeadm', 'v1.13.5', 'control-plane-kubeadm'),
      p('infrastructure', 'aws', 'v2.10.0', 'infrastructure-aws', { requiredVariables: ['AWS_B64ENCODED_CREDENTIALS', 'AWS_REGION'] }),
      p('infrastructure', 'docker', 'v1.13.5', 'infrastructure-docker', { featureGates: { ClusterTopology: true, MachinePool: true } }),
    ],
    certManager: { newest: 'v1.19.1', url: certManagerUrl },
    clusters: [
      { name: 'aws', namespace: 'default', infrastructure: 'aws', flavor: undefined, kubernetesVersion: 'v1.33.1', source: 'infrastructure-aws v2.10.0 cluster-template.yaml', requiredVariables: ['AWS_REGION'] },
      { name: 'docker', namespace: 'default', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1', source: 'infrastructure-docker v1.13.5 cluster-template-development.yaml', requiredVariables: [] },
    ],
    argocdRepoURL: 'https://github.com/example/fleet.git',
    variables: [{ name: 'CLUSTER_TOPOLOGY', value: 'true', comment: 'docker-example needs ClusterTopology' }],
  };
  return configSource(scaffold);
}

const all = (deps: ExpectedDep[], depType: string): ExpectedDep[] => deps.map(([a, b, c]) => [a, b, c, depType]);

const initDeps: ExpectedDep[] = [
  ['cluster-api', CAPI, '~1.13.5', 'shared'],
  ['kubeadm', CAPI, '~1.13.5', 'shared'],
  ['kubeadm', CAPI, '~1.13.5', 'shared'],
  ['aws', 'kubernetes-sigs/cluster-api-provider-aws', '~2.10.0', 'shared'],
  ['docker', CAPI, '~1.13.5', 'shared'],
  ['cert-manager', CM, '~1.19.1', 'shared'],
];

export function shapes(): Shape[] {
  return [
    { path: 'init-catalog/capi.config.ts', content: initConfig(() => undefined, undefined), deps: initDeps },
    {
      path: 'init-local/capi.config.ts',
      content: initConfig((label) => `./repository/${label}/latest/components.yaml`, './repository/cert-manager/latest/cert-manager.yaml'),
      deps: all(initDeps, 'local-folder'),
    },
    {
      path: 'docs-ts/capi.config.ts',
      content: docBlock('renovate.md', 'ts', 0),
      deps: [
        ['cluster-api', CAPI, '~1.13.5', 'shared'],
        ['aws', 'kubernetes-sigs/cluster-api-provider-aws', '~2.10.0', 'shared'],
        ['vsphere', 'kubernetes-sigs/cluster-api-provider-vsphere', 'v1.12.0', 'local-folder'],
        ['cert-manager', CM, 'v1.19.1', 'shared'],
      ],
    },
    {
      path: 'docs-json/capi.config.json',
      content: docBlock('renovate.md', 'json', 1),
      deps: [
        ['cluster-api', CAPI, '~1.13.0', 'shared'],
        ['gcp', 'kubernetes-sigs/cluster-api-provider-gcp', '^1.9.0', 'shared'],
        ['cert-manager', CM, 'v1.19.1', 'shared'],
      ],
    },
    {
      path: 'docs-yaml/capi.config.yaml',
      content: docBlock('renovate.md', 'yaml', 0),
      deps: [
        ['cluster-api', CAPI, '~1.13.0', 'shared'],
        ['aws', 'kubernetes-sigs/cluster-api-provider-aws', 'v2.10.0', 'shared'],
        ['gcp', 'kubernetes-sigs/cluster-api-provider-gcp', 'v1.9.0', 'shared'],
        ['cert-manager', CM, 'v1.19.1', 'shared'],
      ],
    },
    {
      path: 'docs-fleet/capi.config.ts',
      content: docBlock('renovate.md', 'ts', 1),
      deps: [
        ['cluster-api', CAPI, '~1.12.0', 'shared'],
        ['docker', CAPI, '~1.12.0', 'shared'],
        ['cert-manager', CM, 'v1.18.2', 'shared'],
        ['docker', CAPI, '~1.13.0', 'target-us-east'],
        ['cert-manager', CM, 'v1.19.1', 'target-us-east'],
      ],
    },
    {
      path: 'docs-fleet-yaml/capi.config.yaml',
      content: docBlock('renovate.md', 'yaml', 1),
      deps: [
        ['cluster-api', CAPI, '~1.12.0', 'shared'],
        ['docker', CAPI, '~1.12.0', 'shared'],
        ['cert-manager', CM, 'v1.18.2', 'shared'],
        ['docker', CAPI, '~1.13.0', 'target-us-east'],
        ['cert-manager', CM, 'v1.19.1', 'target-us-east'],
      ],
    },
    {
      // The fleet example's providers are served from ./examples/repository (`url: repo`); us-east's docker entry
      // inherits its url, which the preset cannot see (docs/renovate.md says to repeat it).
      path: 'fleets-example/capi.config.ts',
      content: docBlock('fleets.md', 'ts', 0),
      deps: [
        ['cluster-api', CAPI, '~1.12.0', 'local-folder'],
        ['kubeadm', CAPI, '~1.12.0', 'local-folder'],
        ['kubeadm', CAPI, '~1.12.0', 'local-folder'],
        ['docker', CAPI, '~1.12.0', 'local-folder'],
        ['cert-manager', CM, 'v1.18.2', 'local-folder'],
        ['docker', CAPI, '~1.13.0', 'target-us-east'],
        ['cert-manager', CM, 'v1.19.1', 'local-folder'],
      ],
    },
    {
      path: 'capi.config.ts',
      content: readFileSync(join(repoRoot, 'capi.config.ts'), 'utf8'),
      deps: [
        ['cluster-api', CAPI, '~1.12.0', 'local-folder'],
        ['kubeadm', CAPI, '~1.12.0', 'local-folder'],
        ['kubeadm', CAPI, '~1.12.0', 'local-folder'],
        ['docker', CAPI, '~1.12.0', 'local-folder'],
        ['cert-manager', CM, 'v1.18.2', 'local-folder'],
      ],
    },
  ];
}
