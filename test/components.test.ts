/**
 * clusterctl's components pipeline (spec §2): what `capiform generate provider` does to a release file after
 * variable substitution, and the guarantee behind the fast path: splicing edits into the source text gives the
 * same objects as transforming a full parse.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import {
  fixTargetNamespace,
  processCertManagerManifest,
  renderComponents,
  type RenderComponentsInput,
} from '../src/render/components/index.js';
import { listVariables, process as processTemplate } from '../src/envsubst/index.js';
import { parseManifests } from '../src/yaml/index.js';
import { thrown } from './helpers/thrown.js';
import { sharedDir } from './helpers/shared.js';

const corpus = sharedDir('corpus');

const base: Omit<RenderComponentsInput, 'text'> = {
  providerName: 'aws',
  providerType: 'InfrastructureProvider',
  manifestLabel: 'infrastructure-aws',
  version: 'v2.11.1',
};

const components = `# provider components
apiVersion: v1
kind: Namespace
metadata:
  name: capa-system
---
apiVersion: cert-manager.io/v1
kind: Issuer
metadata:
  name: capa-selfsigned-issuer
  namespace: capa-system
spec:
  selfSigned: {}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: capa-serving-cert
  namespace: capa-system
spec:
  dnsNames:
  - capa-webhook-service.capa-system.svc
  - capa-webhook-service.capa-system.svc.cluster.local
  issuerRef:
    kind: Issuer
    name: capa-selfsigned-issuer
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: capa-manager-rolebinding
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: capa-manager-role
subjects:
- kind: ServiceAccount
  name: capa-controller-manager
  namespace: capa-system
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: capa-controller-manager
  namespace: capa-system
spec:
  selector:
    matchLabels:
      control-plane: capa-controller-manager
  template:
    spec:
      containers:
      - name: manager
        image: registry.k8s.io/cluster-api-aws/cluster-api-aws-controller:v2.11.1
        args: []
`;

describe('renderComponents', () => {
  const c = renderComponents({ ...base, text: components, targetNamespace: 'infra' });

  it('moves everything to the target namespace: Namespace renamed, namespaced objects, RBAC subjects, dnsNames', () => {
    expect(c.targetNamespace).toBe('infra');
    const byKind = Object.fromEntries(c.objects.map((o) => [o.kind as string, o]));
    expect(byKind.Namespace?.metadata).toMatchObject({ name: 'infra' });
    expect(byKind.Deployment?.metadata).toMatchObject({ namespace: 'infra' });
    expect((byKind.ClusterRoleBinding?.metadata as Record<string, unknown>).namespace).toBeUndefined();
    expect(byKind.ClusterRoleBinding?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'capa-controller-manager', namespace: 'infra' },
    ]);
    expect((byKind.Certificate?.spec as Record<string, unknown>).dnsNames).toEqual([
      'capa-webhook-service.infra.svc',
      'capa-webhook-service.infra.svc.cluster.local',
    ]);
  });

  it('labels every object and orders Namespace, cert-manager objects reversed, then the rest', () => {
    for (const o of c.objects)
      expect((o.metadata as Record<string, unknown>).labels).toMatchObject({
        'clusterctl.cluster.x-k8s.io': '',
        'cluster.x-k8s.io/provider': 'infrastructure-aws',
      });
    expect(c.objects.map((o) => o.kind)).toEqual([
      'Namespace',
      'Certificate',
      'Issuer',
      'ClusterRoleBinding',
      'Deployment',
    ]);
  });

  it('applies the Deployment typed round-trip (status {}, strategy {}, resources {}, args [] dropped)', () => {
    const dep = c.objects.find((o) => o.kind === 'Deployment') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test navigation
    expect(dep.status).toEqual({});
    expect(dep.spec.strategy).toEqual({});
    expect(dep.spec.template.metadata).toEqual({});
    expect(dep.spec.template.spec.containers[0]).toEqual({
      name: 'manager',
      image: 'registry.k8s.io/cluster-api-aws/cluster-api-aws-controller:v2.11.1',
      resources: {},
    });
    expect(c.images).toEqual(['registry.k8s.io/cluster-api-aws/cluster-api-aws-controller:v2.11.1']);
  });

  it('keeps the source text: comments and untouched lines survive, changes are spliced', () => {
    const out = c.yaml();
    expect(out.startsWith('# provider components\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: infra\n')).toBe(true);
    expect(out).toContain('  selfSigned: {}\n');
    expect(parseManifests(out)).toEqual(c.objects);
  });

  it('prints clusterctl’s bytes with the clusterctl output style', () => {
    const out = c.yaml('clusterctl');
    expect(out.startsWith('apiVersion: v1\nkind: Namespace\nmetadata:\n  labels:\n')).toBe(true);
    expect(parseManifests(out)).toEqual(c.objects);
  });

  it('builds the inventory Provider object', () => {
    expect(c.inventoryObject()).toEqual({
      apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3',
      kind: 'Provider',
      metadata: {
        name: 'infrastructure-aws',
        namespace: 'infra',
        labels: {
          'clusterctl.cluster.x-k8s.io': '',
          'cluster.x-k8s.io/provider': 'infrastructure-aws',
          'clusterctl.cluster.x-k8s.io/core': 'inventory',
        },
      },
      providerName: 'aws',
      type: 'InfrastructureProvider',
      version: 'v2.11.1',
    });
  });

  it('defaults the target namespace from the Namespace object, and appends one when there is none', () => {
    expect(renderComponents({ ...base, text: components }).targetNamespace).toBe('capa-system');
    const noNs = renderComponents({ ...base, text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n', targetNamespace: 'x' });
    expect(noNs.objects.map((o) => o.kind)).toEqual(['Namespace', 'Service']);
  });

  it('fails when the target namespace cannot be defaulted (exit 2)', () => {
    const err = thrown(() => renderComponents({ ...base, text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n' }), InputError);
    expect(err.message).toBe("target namespace can't be defaulted. Please specify a target namespace");
    expect(err.exitCode).toBe(2);
  });

  it('rejects components with two Namespace objects (exit 2)', () => {
    const text = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: b\n';
    const err = thrown(() => renderComponents({ ...base, text }), InputError);
    expect(err.message).toBe(
      'failed to detect default target namespace: Invalid manifest. There should be no more than one resource with Kind Namespace in the provider components yaml',
    );
    expect(err.exitCode).toBe(2);
  });

  it('rejects an unqualified image, with clusterctl’s error chain (exit 2)', () => {
    const text = components.replace('registry.k8s.io/cluster-api-aws/cluster-api-aws-controller:v2.11.1', 'nginx:1.27');
    const err = thrown(() => renderComponents({ ...base, text, source: 'infrastructure-components.yaml' }), InputError);
    expect(err.where).toBe('infrastructure-components.yaml:41'); // the Deployment document starts there
    expect(err.message).toBe(
      "failed to apply image overrides: failed to fix containers in deployment capa-controller-manager: failed to fix containers: failed to fix image for container manager: couldn't parse image name: repository name must be canonical",
    );
    expect(err.exitCode).toBe(2);
    expect(err.hint).toContain('docker.io/library/nginx');
    const ds = text.replace('kind: Deployment', 'kind: DaemonSet');
    expect(thrown(() => renderComponents({ ...base, text: ds }), InputError).message).toContain('in deamonSet capa-controller-manager');
  });

  it('applies image overrides field by field (all < component < component/image)', () => {
    const out = renderComponents({
      ...base,
      text: components,
      images: {
        all: { repository: 'mirror.example.com/all' },
        'infrastructure-aws': { tag: 'v9' },
        'infrastructure-aws/cluster-api-aws-controller': { name: 'capa' },
      },
    });
    expect(out.images).toEqual(['mirror.example.com/all/capa:v9']);
  });
});

describe('fixTargetNamespace (also used for cluster templates)', () => {
  it('checks cert-manager.io/inject-ca-from and rewrites webhook service namespaces', () => {
    const hook = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'v', annotations: { 'cert-manager.io/inject-ca-from': 'old/cert' } },
      webhooks: [{ name: 'w', clientConfig: { service: { name: 's', namespace: 'old' } } }],
    };
    const [out] = fixTargetNamespace([hook], 'new');
    expect(out).toEqual({
      ...hook,
      metadata: { name: 'v', annotations: { 'cert-manager.io/inject-ca-from': 'new/cert' } },
      webhooks: [
        { name: 'w', clientConfig: { service: { name: 's', namespace: 'new' } }, sideEffects: null, admissionReviewVersions: null },
      ],
    });
    const bad = { ...hook, metadata: { name: 'v', annotations: { 'cert-manager.io/inject-ca-from': 'no-slash' } } };
    expect(thrown(() => fixTargetNamespace([bad], 'new'), InputError).message).toBe(
      'object ValidatingWebhookConfiguration v does not have a correct value for cert-manager.io/inject-ca-from',
    );
  });
});

describe('cert-manager manifest', () => {
  it('gets image overrides for component cert-manager, clusterctl labels and the version annotation, nothing else', () => {
    const text =
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: cert-manager\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n  namespace: cert-manager\n';
    const m = processCertManagerManifest({ text, version: 'v1.21.1' });
    expect(m.objects[1]).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: {
        name: 'sa',
        namespace: 'cert-manager',
        labels: { 'clusterctl.cluster.x-k8s.io': '', 'clusterctl.cluster.x-k8s.io/core': 'cert-manager' },
        annotations: { 'cert-manager.clusterctl.cluster.x-k8s.io/version': 'v1.21.1' },
      },
    });
  });
});

/** clusterctl's substitution with every required variable set to `x` and the others at their defaults. */
function substituteDefaults(text: string): string {
  const required = new Set(listVariables(text).filter((v) => v.default === null).map((v) => v.name));
  return processTemplate(text, (name) => (required.has(name) ? 'x' : undefined));
}

function componentFiles(): string[] {
  const repo = join(corpus.path, 'repository');
  const out: string[] = [];
  for (const label of readdirSync(repo).sort())
    for (const version of readdirSync(join(repo, label)).sort())
      for (const f of readdirSync(join(repo, label, version)).sort())
        if (/components.*\.yaml$|^cert-manager\.yaml$/.test(f)) out.push(join(repo, label, version, f));
  return out;
}

describe('corpus: the fast path and the full parse agree', () => {
  // One test per components file, so without the corpus there is nothing to list: one skipped entry says why.
  if (!corpus.present) it.skip(`every components file of the corpus${corpus.skipped}`, () => {});
  for (const file of corpus.present ? componentFiles() : []) {
    const name = file.slice(join(corpus.path, 'repository').length + 1);
    it(
      name,
      () => {
        const text = substituteDefaults(readFileSync(file, 'utf8'));
        const input = { ...base, text, targetNamespace: 'capi-corpus', source: name };
        const fast = renderComponents(input);
        const slow = renderComponents({ ...input, fast: false });
        const slowObjects = JSON.parse(JSON.stringify(slow.objects)) as unknown;
        // what we print, read back in full with the yaml package, is exactly what transforming a full parse gives
        expect(parseManifests(fast.yaml(), { fast: false })).toEqual(slowObjects);
        expect(parseManifests(fast.yaml('clusterctl'), { fast: false })).toEqual(slowObjects);
        expect(fast.images).toEqual(slow.images);
      },
      120_000,
    );
  }
});
