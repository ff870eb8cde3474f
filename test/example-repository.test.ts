/**
 * The embedded example repository (examples/repository, clusterctl's local-repository layout) is ours and small;
 * these checks keep it realistic: the shapes real providers ship, so rendering, diffs and upgrades on it show what
 * they would show on a real stack.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

type Obj = Record<string, unknown>;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../examples/repository');

/** label → [components file, versions] */
const providers: Record<string, { components: string; versions: string[]; templates?: string[] }> = {
  'cluster-api': { components: 'core-components.yaml', versions: ['v1.12.4', 'v1.13.1'] },
  'bootstrap-kubeadm': { components: 'bootstrap-components.yaml', versions: ['v1.12.4', 'v1.13.1'] },
  'control-plane-kubeadm': { components: 'control-plane-components.yaml', versions: ['v1.12.4', 'v1.13.1'] },
  'infrastructure-docker': {
    components: 'infrastructure-components.yaml',
    versions: ['v1.12.4', 'v1.13.1'],
    templates: ['cluster-template-development.yaml', 'cluster-template.yaml', 'clusterclass-quick-start.yaml'],
  },
};
const certManagerVersions = ['v1.18.2', 'v1.19.1'];

function read(...parts: string[]): string {
  return readFileSync(join(root, ...parts), 'utf8');
}

/** Parse as Kubernetes does (YAML 1.1); a syntax error fails the test with the file name. */
function parse(text: string, source: string): Obj[] {
  return parseAllDocuments(text, { version: '1.1' }).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0]?.message}`);
    return doc.toJS() as Obj;
  });
}

function allFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? allFiles(path) : [path];
    });
}

const meta = (o: Obj) => o.metadata as Obj;
const ofKind = (objs: Obj[], kind: string) => objs.filter((o) => o.kind === kind);
const one = (objs: Obj[], kind: string): Obj => {
  const found = ofKind(objs, kind);
  expect(found.map((o) => meta(o).name), `exactly one ${kind}`).toHaveLength(1);
  return found[0] as Obj;
};

function containers(objs: Obj[]): { deployment: string; name: string; image: string; args: string[] }[] {
  return ofKind(objs, 'Deployment').flatMap((d) => {
    const pod = ((d.spec as Obj).template as Obj).spec as Obj;
    return (pod.containers as Obj[]).map((c) => ({
      deployment: meta(d).name as string,
      name: c.name as string,
      image: c.image as string,
      args: (c.args as string[] | undefined) ?? [],
    }));
  });
}

/** `${NAME}` (required) and `${NAME:=default}` references, by name. */
function variables(text: string): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const m of text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[=-])?/g)) {
    const name = m[1] as string;
    found.set(name, (found.get(name) ?? false) || m[2] === undefined);
  }
  return found;
}

describe('examples/repository', () => {
  it('has exactly the clusterctl local-repository layout we document, and stays small', () => {
    const expected = [
      ...Object.entries(providers).flatMap(([label, p]) =>
        p.versions.flatMap((v) => [p.components, 'metadata.yaml', ...(p.templates ?? [])].map((f) => `${label}/${v}/${f}`)),
      ),
      ...certManagerVersions.map((v) => `cert-manager/${v}/cert-manager.yaml`),
    ].sort();
    const files = allFiles(root);
    expect(files.map((f) => f.slice(root.length + 1)).sort()).toEqual(expected);
    const total = files.reduce((sum, f) => sum + statSync(f).size, 0);
    expect(total).toBeLessThan(300_000);
  });

  it('every file parses as YAML 1.1, with a kind on every document', () => {
    for (const path of allFiles(root)) {
      for (const obj of parse(readFileSync(path, 'utf8'), path)) expect(obj.kind, path).toBeTypeOf('string');
    }
  });

  for (const [label, p] of Object.entries(providers)) {
    for (const version of p.versions) {
      describe(`${label} ${version}`, () => {
        const source = `${label}/${version}/${p.components}`;
        const text = read(label, version, p.components);
        // Parsed inside each test, so a broken file fails its tests instead of the whole file's collection.
        let parsed: Obj[] | undefined;
        const load = (): Obj[] => (parsed ??= parse(text, source));

        it('has one Namespace, and every namespaced object in it', () => {
          const objs = load();
          const ns = meta(one(objs, 'Namespace')).name;
          expect(meta(one(objs, 'Namespace')).labels).toMatchObject({ 'cluster.x-k8s.io/provider': label });
          for (const o of objs) {
            if (['Namespace', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding'].includes(o.kind as string)) continue;
            if ((o.kind as string).endsWith('WebhookConfiguration')) continue;
            expect(meta(o).namespace, `${o.kind as string} ${meta(o).name as string}`).toBe(ns);
          }
          for (const b of [...ofKind(objs, 'RoleBinding'), ...ofKind(objs, 'ClusterRoleBinding')]) {
            for (const s of b.subjects as Obj[]) expect(s.namespace).toBe(ns);
          }
        });

        it('has one self-signed Issuer and one Certificate for the webhook Service, and every CA injection points at it', () => {
          const objs = load();
          const ns = meta(one(objs, 'Namespace')).name as string;
          const issuer = one(objs, 'Issuer');
          const cert = one(objs, 'Certificate');
          const service = one(objs, 'Service');
          expect(issuer.spec).toEqual({ selfSigned: {} });
          const certSpec = cert.spec as Obj;
          expect(certSpec.issuerRef).toEqual({ kind: 'Issuer', name: meta(issuer).name });
          expect(certSpec.dnsNames).toContain(`${meta(service).name as string}.${ns}.svc`);
          const injectFrom = `${ns}/${meta(cert).name as string}`;
          const crds = ofKind(objs, 'CustomResourceDefinition');
          expect(crds.length).toBeGreaterThanOrEqual(2);
          for (const crd of crds) {
            expect(meta(crd).annotations).toMatchObject({ 'cert-manager.io/inject-ca-from': injectFrom });
            const webhook = ((crd.spec as Obj).conversion as Obj).webhook as Obj;
            expect(((webhook.clientConfig as Obj).service as Obj).name).toBe(meta(service).name);
            const versions = (crd.spec as Obj).versions as Obj[];
            expect(versions.filter((v) => v.storage === true).map((v) => v.name)).toEqual(['v1beta2']);
            for (const v of versions) expect(((v.schema as Obj).openAPIV3Schema as Obj).type).toBe('object');
          }
          for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
            const config = one(objs, kind);
            expect(meta(config).annotations).toEqual({ 'cert-manager.io/inject-ca-from': injectFrom });
            for (const w of config.webhooks as Obj[]) {
              expect(((w.clientConfig as Obj).service as Obj).name).toBe(meta(service).name);
            }
          }
        });

        it('runs a `manager` container with the canonical image of this version and feature gates from variables', () => {
          const objs = load();
          const manager = containers(objs).filter((c) => c.name === 'manager');
          expect(manager).toHaveLength(1);
          const { image, args } = manager[0] as { image: string; args: string[] };
          expect(image).toMatch(/^(registry\.k8s\.io\/cluster-api|gcr\.io\/k8s-staging-cluster-api)\/[a-z-]+:v\d+\.\d+\.\d+$/);
          expect(image.endsWith(`:${version}`)).toBe(true);
          expect(args.find((a) => a.startsWith('--feature-gates='))).toMatch(/MachinePool=\$\{EXP_MACHINE_POOL:=true\}|ClusterTopology=\$\{CLUSTER_TOPOLOGY:=false\}/);
        });

        it('needs no variable without a default, so the example renders with an empty environment', () => {
          const required = [...variables(text)].filter(([, isRequired]) => isRequired).map(([name]) => name);
          expect(required).toEqual([]);
          expect(variables(text).size).toBeGreaterThan(0);
        });

        it('metadata.yaml maps its own release series to a contract', () => {
          const [m] = parse(read(label, version, 'metadata.yaml'), `${label}/${version}/metadata.yaml`);
          expect(m?.apiVersion).toBe('clusterctl.cluster.x-k8s.io/v1alpha3');
          expect(m?.kind).toBe('Metadata');
          const series = m?.releaseSeries as { major: number; minor: number; contract: string }[];
          expect(series.length).toBeGreaterThanOrEqual(3);
          const [major, minor] = version.slice(1).split('.').map(Number);
          expect(series.find((s) => s.major === major && s.minor === minor)?.contract).toBe('v1beta2');
          expect(series.find((s) => s.major === 1 && s.minor === 10)?.contract).toBe('v1beta1');
        });
      });
    }

    it(`${label}: the upgrade from ${p.versions[0]} to ${p.versions[1]} changes images, arguments and CRDs`, () => {
      const [from, to] = p.versions.map((v) => parse(read(label, v, p.components), `${label}/${v}`));
      expect(containers(from as Obj[])[0]?.image).not.toBe(containers(to as Obj[])[0]?.image);
      expect(containers(from as Obj[])[0]?.args).not.toEqual(containers(to as Obj[])[0]?.args);
      const crds = (objs: Obj[]) => JSON.stringify(ofKind(objs, 'CustomResourceDefinition'));
      expect(crds(from as Obj[])).not.toBe(crds(to as Obj[]));
    });
  }

  it('infrastructure-docker: a plain flavor and a ClusterClass flavor whose class ships next to it', () => {
    for (const version of providers['infrastructure-docker']?.versions ?? []) {
      const plain = parse(read('infrastructure-docker', version, 'cluster-template.yaml'), 'cluster-template.yaml');
      expect(plain.map((o) => o.kind)).toEqual([
        'Cluster',
        'DockerCluster',
        'DockerMachineTemplate',
        'KubeadmControlPlane',
        'DockerMachineTemplate',
        'KubeadmConfigTemplate',
        'MachineDeployment',
      ]);
      const [topology] = parse(read('infrastructure-docker', version, 'cluster-template-development.yaml'), 'development');
      const classRef = ((topology?.spec as Obj).topology as Obj).classRef as Obj;
      expect(classRef).toEqual({ name: 'quick-start' });
      const classFile = parse(read('infrastructure-docker', version, `clusterclass-${classRef.name as string}.yaml`), 'clusterclass');
      expect(meta(one(classFile, 'ClusterClass')).name).toBe('quick-start');
      // A ClusterClass file carries no namespace: clusterctl puts it in the cluster's namespace.
      for (const o of classFile) expect(meta(o).namespace).toBeUndefined();
    }
  });

  it('cluster templates ask for exactly the variables a cluster entry provides', () => {
    const required = (file: string) =>
      [...variables(read('infrastructure-docker', 'v1.13.1', file))].filter(([, r]) => r).map(([n]) => n).sort();
    const clusterVars = ['CLUSTER_NAME', 'CONTROL_PLANE_MACHINE_COUNT', 'KUBERNETES_VERSION', 'NAMESPACE', 'WORKER_MACHINE_COUNT'];
    expect(required('cluster-template.yaml')).toEqual(clusterVars);
    expect(required('cluster-template-development.yaml')).toEqual(clusterVars);
    expect(required('clusterclass-quick-start.yaml')).toEqual([]);
  });

  for (const version of certManagerVersions) {
    it(`cert-manager ${version}: namespace, leader election in kube-system, CRDs, three Deployments, webhooks, no variables`, () => {
      const text = read('cert-manager', version, 'cert-manager.yaml');
      const objs = parse(text, `cert-manager/${version}`);
      expect(meta(one(objs, 'Namespace')).name).toBe('cert-manager');
      expect(ofKind(objs, 'Role').map((r) => `${meta(r).namespace as string}/${meta(r).name as string}`)).toEqual(
        expect.arrayContaining(['kube-system/cert-manager:leaderelection', 'kube-system/cert-manager-cainjector:leaderelection']),
      );
      expect(ofKind(objs, 'CustomResourceDefinition').map((c) => meta(c).name)).toEqual(
        expect.arrayContaining(['certificates.cert-manager.io', 'issuers.cert-manager.io', 'clusterissuers.cert-manager.io']),
      );
      expect(containers(objs).map((c) => c.image)).toEqual([
        `quay.io/jetstack/cert-manager-cainjector:${version}`,
        `quay.io/jetstack/cert-manager-controller:${version}`,
        `quay.io/jetstack/cert-manager-webhook:${version}`,
      ]);
      for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
        expect(meta(one(objs, kind)).annotations).toEqual({
          'cert-manager.io/inject-ca-from-secret': 'cert-manager/cert-manager-webhook-ca',
        });
      }
      // `$(POD_NAMESPACE)` is Kubernetes' own expansion, not an envsubst variable.
      expect(variables(text).size).toBe(0);
      expect(text).toContain('$(POD_NAMESPACE)');
    });
  }
});
