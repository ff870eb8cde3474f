/**
 * CAPD's, CAPM3's and CAPV's webhooks against the providers' own flavors in the corpus: every template and
 * ClusterClass a release ships, its variables set as a user would, is admitted; the same object mutated the way the
 * webhook forbids is refused with upstream's message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEntries } from '../src/yaml/index.js';
import { admit } from '../src/validate/index.js';
import { sharedDir } from './helpers/shared.js';

type Obj = Record<string, unknown>;

const corpus = sharedDir('corpus');
const providers = ['infrastructure-docker', 'infrastructure-metal3', 'infrastructure-vsphere'];

/** Values a user sets for the variables these flavors need (anything else: `x1`). */
const values: Record<string, string> = {
  CLUSTER_APIENDPOINT_HOST: '10.0.0.1',
  CLUSTER_APIENDPOINT_PORT: '6443',
  IMAGE_URL: 'http://images.example/ubuntu.qcow2',
  IMAGE_CHECKSUM: 'http://images.example/ubuntu.qcow2.sha256sum',
  IMAGE_CHECKSUM_TYPE: 'sha256',
  IMAGE_FORMAT: 'qcow2',
  CONTROL_PLANE_MACHINE_COUNT: '1',
  WORKER_MACHINE_COUNT: '1',
  KUBERNETES_VERSION: 'v1.33.1',
  NAMESPACE: 'default',
  CTLPLANE_KUBEADM_EXTRA_CONFIG: '',
  WORKERS_KUBEADM_EXTRA_CONFIG: '',
};

function substitute(text: string): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?::?[=-]([^}]*))?\}/g, (_, name: string, def?: string) => values[name] ?? def ?? 'x1');
}

function flavors(): { file: string; objects: Obj[] }[] {
  const out: { file: string; objects: Obj[] }[] = [];
  for (const p of providers) {
    const dir = join(corpus.path, 'repository', p);
    for (const version of readdirSync(dir)) {
      for (const f of readdirSync(join(dir, version))) {
        if (!/^(cluster-template|clusterclass).*\.yaml$/.test(f)) continue;
        const text = substitute(readFileSync(join(dir, version, f), 'utf8'));
        out.push({ file: `${p}/${version}/${f}`, objects: parseEntries(text).map((e) => e.value) });
      }
    }
  }
  return out;
}

const mine = /^(Docker|Metal3|VSphere)/;

describe.skipIf(!corpus.present)(`provider webhooks on the corpus flavors${corpus.skipped}`, () => {
  it('every CAPD, CAPM3 and CAPV object of every flavor is admitted on create', () => {
    const refused = flavors().flatMap(({ file, objects }) =>
      objects.filter((o) => mine.test(String(o.kind))).flatMap((o) => admit(o).map((e) => `${file} ${String(o.kind)}: ${e.error.message}`)),
    );
    expect(refused).toEqual([]);
  });

  it("a corpus Metal3MachineTemplate without its image URL, and CAPM3's Metal3Cluster without its endpoint host, are refused", () => {
    const all = flavors().find((f) => f.file === 'infrastructure-metal3/v1.13.2/cluster-template.yaml');
    expect(all).toBeDefined();
    const m3mt = structuredClone(all!.objects.find((o) => o.kind === 'Metal3MachineTemplate')!) as { spec: { template: { spec: { image: Obj } } } };
    m3mt.spec.template.spec.image.url = '';
    expect(admit(m3mt as unknown as Obj).map((e) => e.error.message)).toEqual(['Spec.Template.Spec.Image.URL: Required value: cannot be empty']);
    const m3c = structuredClone(all!.objects.find((o) => o.kind === 'Metal3Cluster')!) as { spec: { controlPlaneEndpoint: Obj } };
    delete m3c.spec.controlPlaneEndpoint.host;
    expect(admit(m3c as unknown as Obj).map((e) => e.error.message)).toEqual(['spec.controlPlaneEndpoint: Invalid value: "": is required']);
  });

  it("a corpus DockerMachineTemplate with an invalid label in its template metadata is refused", () => {
    const cc = flavors().find((f) => f.file === 'infrastructure-docker/v1.13.5/clusterclass-quick-start.yaml');
    const dmt = structuredClone(cc!.objects.find((o) => o.kind === 'DockerMachineTemplate')!) as { spec: { template: Obj } };
    dmt.spec.template.metadata = { labels: { '/bad': 'x' } };
    expect(admit(dmt as unknown as Obj).map((e) => e.error.message)).toEqual(['spec.template.metadata.labels: Invalid value: "/bad": prefix part must be non-empty']);
  });

  it("the VSphereMachines CAPI clones from a corpus VSphereMachineTemplate are admitted, and an in-place spec edit is refused", () => {
    const checked: string[] = [];
    for (const { file, objects } of flavors()) {
      if (!/^infrastructure-vsphere\/[^/]+\/cluster-template(-supervisor)?\.yaml$/.test(file)) continue;
      for (const t of objects.filter((o) => o.kind === 'VSphereMachineTemplate')) {
        // The MachineSet controller creates each VSphereMachine from spec.template of the template, same apiVersion.
        const template = (t.spec as { template: { spec: Obj } }).template.spec;
        const machine: Obj = { apiVersion: t.apiVersion, kind: 'VSphereMachine', metadata: { name: 'm-0', namespace: 'default' }, spec: structuredClone(template) };
        const supervisor = String(t.apiVersion).startsWith('vmware.');
        const adopted = { ...machine, spec: { ...template, providerID: 'vsphere://4230-aaaa' } };
        expect(admit(machine), file).toEqual([]);
        expect(admit(adopted, machine), file).toEqual([]);
        const edited = supervisor ? { ...machine, spec: { ...template, className: 'best-effort-large' } } : { ...machine, spec: { ...template, numCPUs: 16 } };
        expect(admit(edited, machine).map((e) => e.error.message), file).toEqual([supervisor ? 'spec.className: Forbidden: cannot be modified' : 'spec: Forbidden: cannot be modified']);
        checked.push(`${file} ${supervisor ? 'vmware' : 'govmomi'}`);
      }
    }
    expect(new Set(checked.map((c) => c.split(' ')[1]))).toEqual(new Set(['vmware', 'govmomi']));
  });
});
