/**
 * `capiform validate`'s checks: objects against the CRDs they are applied with (structural schema, unknown fields,
 * CEL rules) and built-in kinds against Kubernetes' OpenAPI documents, with the API server's messages.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { substitute } from '../src/envsubst/index.js';
import { formatFinding, readManifest, validateManifests, type SourceObject } from '../src/validate/index.js';
import { sharedDir } from './helpers/shared.js';

const corpus = sharedDir('corpus');
const release = (provider: string, version: string, file: string): string =>
  readFileSync(join(corpus.path, 'repository', provider, version, file), 'utf8');
const objectsOf = (text: string, file = 'input.yaml'): SourceObject[] => readManifest(text, file).objects;

/** A small CRD whose schema shows each kind of check. */
const widgetCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: { type: string }
          kind: { type: string }
          metadata: { type: object }
          spec:
            type: object
            required: [size]
            x-kubernetes-validations:
            - rule: '!has(self.extraArgs) || self.extraArgs.all(a, self.extraArgs.exists_one(b, b.name == a.name))'
              message: extraArgs names must be unique
            - rule: self.size == oldSelf.size
              message: size is immutable
            properties:
              size: { type: integer, minimum: 1 }
              mode: { type: string, enum: [fast, slow] }
              extraArgs:
                type: array
                items:
                  type: object
                  properties:
                    name: { type: string }
                    value: { type: string }
`;

const widget = (spec: string): string => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  namespace: team-a
spec:
${spec}`;

function check(objects: string, extra: { schemas?: string } = {}): string[] {
  const report = validateManifests({
    objects: objectsOf(objects, 'widgets.yaml'),
    schemaObjects: objectsOf(extra.schemas ?? widgetCrd, 'crds.yaml'),
  });
  return report.findings.map(formatFinding);
}

describe('custom resources against their CRD', () => {
  it('a valid object has no findings but the note on transition rules', () => {
    expect(check(widget('  size: 3\n  mode: fast\n'))).toEqual([
      'widgets.yaml:1: note: Widget team-a/w: 1 transition rule (oldSelf) of widgets.example.com not checked: they compare an update with the stored object',
    ]);
  });

  it('reports a schema type error with the API server message', () => {
    const got = validateManifests({ objects: objectsOf(widget('  size: three\n'), 'w.yaml'), schemaObjects: objectsOf(widgetCrd) });
    const error = got.findings.find((f) => f.severity === 'error');
    expect(error).toMatchObject({
      file: 'w.yaml',
      line: 1,
      kind: 'Widget',
      namespace: 'team-a',
      name: 'w',
      field: 'spec.size',
      message: 'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    });
    expect(got.errors).toBe(2); // the type error, and the CEL rules left unchecked because of it
  });

  it('reports enum and minimum violations', () => {
    expect(check(widget('  size: 0\n  mode: medium\n')).filter((l) => l.includes('error'))).toEqual([
      'widgets.yaml:1: error: Widget team-a/w: spec.mode: Unsupported value: "medium": supported values: "fast", "slow"',
      'widgets.yaml:1: error: Widget team-a/w: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
      'widgets.yaml:1: error: Widget team-a/w: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });

  it('reports an unknown field, as strict field validation does', () => {
    expect(check(widget('  size: 1\n  colour: red\n')).filter((l) => l.includes('error'))).toEqual([
      'widgets.yaml:1: error: Widget team-a/w: unknown field "spec.colour"',
    ]);
  });

  it('reports a CEL rule violation', () => {
    const spec = '  size: 1\n  extraArgs:\n  - name: v\n    value: "1"\n  - name: v\n    value: "2"\n';
    expect(check(widget(spec)).filter((l) => l.includes('error'))).toEqual([
      'widgets.yaml:1: error: Widget team-a/w: spec: Invalid value: extraArgs names must be unique',
    ]);
  });

  it('reports a missing required field and a missing name', () => {
    const text = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  namespace: a\nspec:\n  mode: fast\n';
    expect(check(text).filter((l) => l.includes('error'))).toEqual([
      'widgets.yaml:1: error: Widget a/: metadata.name: Required value: name or generateName is required',
      'widgets.yaml:1: error: Widget a/: spec.size: Required value',
      'widgets.yaml:1: error: Widget a/: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });

  it('locates each object by its document line', () => {
    const text = `${widget('  size: 1\n')}---\n${widget('  size: -1\n')}`;
    expect(check(text).filter((l) => l.includes('error'))).toEqual([
      'widgets.yaml:9: error: Widget team-a/w: spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 1',
    ]);
  });

  it('warns about a kind no CRD declares, and an unserved version is an error', () => {
    const unserved = widgetCrd.replace('served: true', 'served: false');
    expect(check(widget('  size: 1\n'), { schemas: unserved }).filter((l) => !l.includes('note'))).toEqual([
      'widgets.yaml:1: error: Widget team-a/w: example.com/v1 Widget is not served by widgets.example.com',
    ]);
    expect(check('apiVersion: example.com/v2\nkind: Gadget\nmetadata:\n  name: g\n')).toEqual([
      'widgets.yaml:1: warning: Gadget g: no matches for kind "Gadget" in version "example.com/v2"\n    hint: pass the CRD that declares it (or its provider components) with --schemas',
    ]);
  });
});

/** An excerpt of Kubernetes' OpenAPI v3 document for `api/v1`, as `kubectl get --raw /openapi/v3/api/v1` prints it. */
const coreOpenApi = JSON.stringify({
  openapi: '3.0.0',
  components: {
    schemas: {
      'io.k8s.api.core.v1.ConfigMap': {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {} },
          data: { type: 'object', additionalProperties: { type: 'string', default: '' } },
          immutable: { type: 'boolean' },
        },
        'x-kubernetes-group-version-kind': [{ group: '', kind: 'ConfigMap', version: 'v1' }],
      },
      'io.k8s.api.core.v1.ServicePort': {
        type: 'object',
        required: ['port'],
        properties: {
          port: { type: 'integer', format: 'int32', default: 0 },
          targetPort: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' }] },
        },
      },
      'io.k8s.api.core.v1.Service': {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] },
          spec: {
            type: 'object',
            properties: { ports: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.ServicePort' }] } } },
          },
        },
        'x-kubernetes-group-version-kind': [{ group: '', kind: 'Service', version: 'v1' }],
      },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
        type: 'object',
        properties: {
          name: { type: 'string' },
          namespace: { type: 'string' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          creationTimestamp: { type: 'string', format: 'date-time' },
        },
      },
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
    },
  },
});

describe('built-in kinds against an OpenAPI document', () => {
  const run = (text: string): string[] => {
    const docs = readManifest(coreOpenApi, 'api__v1_openapi.json').openApiDocuments;
    const report = validateManifests({ objects: objectsOf(text, 'core.yaml'), openApiDocuments: docs });
    return report.findings.map(formatFinding);
  };

  it('accepts a valid ConfigMap and Service, with int-or-string ports and null timestamps', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata: { name: c, namespace: a, creationTimestamp: null }
data: { a: b }
---
apiVersion: v1
kind: Service
metadata: { name: s, namespace: a }
spec:
  ports:
  - port: 443
    targetPort: webhook
  - port: 80
    targetPort: 8080
`;
    expect(run(text)).toEqual([]);
  });

  it('reports a core-kind type error and an unknown field', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata: { name: c, namespace: a }
data: { replicas: 3 }
immutible: true
`;
    expect(run(text)).toEqual([
      'core.yaml:1: error: ConfigMap a/c: unknown field "immutible"',
      'core.yaml:1: error: ConfigMap a/c: data.replicas: Invalid value: "integer": data.replicas in body must be of type string: "integer"',
    ]);
  });

  it('leaves built-in kinds unchecked without a document', () => {
    const report = validateManifests({ objects: objectsOf('apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\n') });
    expect(report.findings).toEqual([]);
    expect(report.unchecked).toEqual(['v1 ConfigMap']);
  });
});

describe.skipIf(!corpus.present)(`a CAPD cluster against the CRDs of its release${corpus.skipped}`, () => {
  const crds = [
    ...objectsOf(release('cluster-api', 'v1.12.11', 'core-components.yaml'), 'core-components.yaml'),
    ...objectsOf(release('bootstrap-kubeadm', 'v1.12.11', 'bootstrap-components.yaml'), 'bootstrap-components.yaml'),
    ...objectsOf(release('control-plane-kubeadm', 'v1.12.11', 'control-plane-components.yaml'), 'control-plane-components.yaml'),
    ...objectsOf(release('infrastructure-docker', 'v1.12.11', 'infrastructure-components-development.yaml'), 'infrastructure-components.yaml'),
  ];
  const vars = { CLUSTER_NAME: 'dev', NAMESPACE: 'team-a', KUBERNETES_VERSION: 'v1.34.0', CONTROL_PLANE_MACHINE_COUNT: '1', WORKER_MACHINE_COUNT: '2' };

  it('the development flavor and the quick-start ClusterClass are valid', () => {
    const text = [
      substitute(release('infrastructure-docker', 'v1.12.11', 'cluster-template-development.yaml'), vars),
      substitute(release('infrastructure-docker', 'v1.12.11', 'clusterclass-quick-start.yaml'), vars),
    ].join('---\n');
    const report = validateManifests({ objects: objectsOf(text, 'cluster.yaml'), schemaObjects: crds });
    expect(report.findings.filter((f) => f.severity !== 'note').map(formatFinding)).toEqual([]);
    expect(report.checked).toBe(report.objects);
  });

  it('a wrong type in the Cluster is reported at its field', () => {
    const text = substitute(release('infrastructure-docker', 'v1.12.11', 'cluster-template-development.yaml'), vars).replace(
      'serviceDomain: "cluster.local"',
      'serviceDomain: 42',
    );
    const report = validateManifests({ objects: objectsOf(text, 'cluster.yaml'), schemaObjects: crds });
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => f.message)[0]).toBe(
      'spec.clusterNetwork.serviceDomain: Invalid value: "integer": spec.clusterNetwork.serviceDomain in body must be of type string: "integer"',
    );
  });
});

describe('Cluster API lints', () => {
  const clusterCrd = (kind: string, plural: string, versions: string[]): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.cluster.x-k8s.io
spec:
  group: cluster.x-k8s.io
  names: { kind: ${kind}, plural: ${plural} }
  scope: Namespaced
  versions:
${versions.map((v) => `  - name: ${v}\n    served: true\n    storage: ${v === 'v1beta2'}\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n`).join('')}`;
  const crds = objectsOf(
    [clusterCrd('Cluster', 'clusters', ['v1beta1', 'v1beta2']), clusterCrd('ClusterClass', 'clusterclasses', ['v1beta2']), clusterCrd('MachineDeployment', 'machinedeployments', ['v1beta1', 'v1beta2'])].join('---\n'),
    'crds.yaml',
  );
  const lints = (text: string): string[] =>
    validateManifests({ objects: objectsOf(text, 'cluster.yaml'), schemaObjects: crds })
      // The capi.* lints only: the webhooks' own rules (webhook/*) have their tests in admission*.test.ts.
      .findings.filter((f) => f.rule?.startsWith('capi.'))
      .map((f) => `${f.severity} ${f.rule} ${f.field}: ${f.message} (hint: ${f.hint})`);

  const quickStart = `apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: { name: quick-start, namespace: team-a }
spec:
  kubernetesVersions: [v1.33.0, v1.34.0]
`;
  const topologyCluster = (topology: string): string => `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: { name: dev, namespace: team-a }
spec:
  topology:
${topology}`;

  it('a topology Cluster with its class and a supported version has no lint findings', () => {
    expect(lints(`${quickStart}---\n${topologyCluster('    classRef: { name: quick-start }\n    version: v1.34.0\n')}`)).toEqual([]);
  });

  it('an autoscaler-managed MachineDeployment must not pin replicas, standalone or in a topology', () => {
    const md = `apiVersion: cluster.x-k8s.io/v1beta2
kind: MachineDeployment
metadata:
  name: md-0
  namespace: team-a
  annotations:
    cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size: "1"
    cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size: "5"
spec:
  replicas: 3
`;
    const topology = `    classRef: { name: quick-start }
    version: v1.34.0
    workers:
      machineDeployments:
      - class: default-worker
        name: md-0
        metadata:
          annotations:
            cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size: "5"
        replicas: 2
`;
    expect(lints(`${md}---\n${quickStart}---\n${topologyCluster(topology)}`)).toEqual([
      'error capi.autoscaler-replicas spec.replicas: spec.replicas: the cluster autoscaler manages the replicas (cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size, cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size); a pinned value resets its choice on every sync (hint: remove replicas and let the autoscaler size the group between its min and max)',
      'error capi.autoscaler-replicas spec.topology.workers.machineDeployments[0].replicas: spec.topology.workers.machineDeployments[0].replicas: the cluster autoscaler manages the replicas (cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size); a pinned value resets its choice on every sync (hint: remove replicas and let the autoscaler size the group between its min and max)',
    ]);
    expect(lints(md.replace('  replicas: 3\n', '  clusterName: dev\n'))).toEqual([]);
  });

  it('flags v1beta1 objects on a v1beta2 contract with the conversion hint', () => {
    const old = 'apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata: { name: dev, namespace: team-a }\nspec: {}\n';
    expect(lints(old)).toEqual([
      "warning capi.v1beta1-on-v1beta2 apiVersion: Cluster is written as cluster.x-k8s.io/v1beta1 on a v1beta2 contract: the API server converts it, but v1beta1 is deprecated and its fields differ (hint: convert it to cluster.x-k8s.io/v1beta2 (CAPI's v1beta1 → v1beta2 conversion: e.g. topology.class → topology.classRef.name, infrastructureRef/bootstrap.configRef keep only apiGroup, kind and name))",
    ]);
  });

  it('a topology Cluster whose class or version is not available is an error', () => {
    expect(lints(topologyCluster('    classRef: { name: missing }\n    version: v1.34.0\n'))).toEqual([
      'error capi.topology-class spec.topology.classRef.name: spec.topology.classRef.name: ClusterClass team-a/missing is not available: no such ClusterClass among the validated objects (hint: render or pass the ClusterClass with the Cluster (clusterclasses/), or fix the class name and namespace)',
    ]);
    expect(lints(`${quickStart}---\n${topologyCluster('    classRef: { name: quick-start }\n    version: v1.35.0\n')}`)).toEqual([
      "error capi.topology-version spec.topology.version: spec.topology.version: version v1.35.0 is not one of the versions ClusterClass team-a/quick-start supports (v1.33.0, v1.34.0) (hint: pick a version from the ClusterClass's spec.kubernetesVersions)",
    ]);
  });
});
