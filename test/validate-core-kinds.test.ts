/**
 * Built-in kinds (Deployment, ConfigMap, Service, RBAC, webhooks, CRDs…) checked without `--schemas`, against
 * Kubernetes' definitions as the `kubernetes-models` package ships them, with the same engine and messages as a
 * Kubernetes OpenAPI document passed on the command line.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInSchemas } from '../src/pipeline/validate/index.js';
import { formatFinding, readManifest, validateManifests, type ValidateInput } from '../src/validate/index.js';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { testdir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');

function check(text: string, extra: Partial<ValidateInput> = {}): { findings: string[]; checked: number; unchecked: string[] } {
  const report = validateManifests({ objects: readManifest(text, 'core.yaml').objects, builtIn: builtInSchemas(), ...extra });
  return { findings: report.findings.map(formatFinding), checked: report.checked, unchecked: report.unchecked };
}

const namespace = 'apiVersion: v1\nkind: Namespace\nmetadata: { name: team-a }\n';

const deployment = (replicas: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: team-a
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 8080
          name: http
        resources:
          limits: { cpu: 500m, memory: 128Mi }
          requests: { cpu: 0.1, memory: 64Mi }
`;

describe('built-in kinds without --schemas', () => {
  it('the package is installed and names itself', () => {
    expect(builtInSchemas()?.origin).toMatch(/^kubernetes-models@\d+\.\d+\.\d+$/);
  });

  it('a valid Deployment, Service, Secret, ServiceAccount and RBAC objects have no findings', () => {
    const text = `${deployment('2')}---
apiVersion: v1
kind: Service
metadata: { name: web, namespace: team-a, creationTimestamp: null }
spec:
  selector: { app: web }
  ports:
  - port: 443
    targetPort: http
  - port: 80
    targetPort: 8080
---
apiVersion: v1
kind: Secret
metadata: { name: creds, namespace: team-a }
type: Opaque
stringData: { token: abc }
data: { ca.crt: aGVsbG8= }
---
apiVersion: v1
kind: ServiceAccount
metadata: { name: web, namespace: team-a }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: web }
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: { cluster.x-k8s.io/aggregate-to-manager: "true" }
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list]
`;
    expect(check(text)).toEqual({ findings: [], checked: 5, unchecked: [] });
  });

  it('reports a Deployment whose replicas is a string, at the field, with the API server message', () => {
    expect(check(`${namespace}---\n${deployment('"two"')}`).findings).toEqual([
      'core.yaml:5: error: Deployment team-a/web: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
  });

  it('reports an unknown top-level field of a ConfigMap as a warning (it may be newer than the definitions) and a value of the wrong type as an error', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata: { name: settings, namespace: team-a }
data: { replicas: 3 }
colour: blue
`;
    expect(check(text).findings).toEqual([
      'core.yaml:1: warning: ConfigMap team-a/settings: unknown field "colour" in kubernetes-models@4.3.1\'s definitions\n' +
        "    hint: it may be newer than that Kubernetes release: pass your cluster's OpenAPI v3 documents with --schemas to check it",
      'core.yaml:1: error: ConfigMap team-a/settings: data.replicas: Invalid value: "integer": data.replicas in body must be of type string: "integer"',
    ]);
  });

  it("reports a Service port's protocol outside Kubernetes' enum and a port that is not an integer", () => {
    const text = `apiVersion: v1
kind: Service
metadata: { name: web, namespace: team-a }
spec:
  ports:
  - port: https
    protocol: TCPX
`;
    expect(check(text).findings).toEqual([
      'core.yaml:1: error: Service team-a/web: spec.ports[0].port: Invalid value: "string": spec.ports[0].port in body must be of type integer: "string"',
      'core.yaml:1: error: Service team-a/web: spec.ports[0].protocol: Unsupported value: "TCPX": supported values: "SCTP", "TCP", "UDP"',
    ]);
  });

  it('checks a CRD itself, where fields named description and x-kubernetes-… are allowed', () => {
    const text = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - { name: Size, type: integer, jsonPath: .spec.size, description: how big }
    schema:
      openAPIV3Schema:
        description: A widget.
        type: object
        x-kubernetes-preserve-unknown-fields: true
        x-kubernetes-validations: [{ rule: 'true' }]
  colour: red
`;
    expect(check(text).findings).toEqual([
      'core.yaml:1: warning: CustomResourceDefinition widgets.example.com: unknown field "spec.colour" in kubernetes-models@4.3.1\'s definitions\n' +
        "    hint: it may be newer than that Kubernetes release: pass your cluster's OpenAPI v3 documents with --schemas to check it",
    ]);
  });

  it("a field newer than the package's Kubernetes release (a sidecar's restartPolicy) warns and does not fail", () => {
    const text = deployment('1').replace('      containers:\n', '      initContainers:\n      - name: proxy\n        image: envoy:1.31\n        restartPolicy: Always\n      containers:\n');
    const report = validateManifests({ objects: readManifest(text, 'core.yaml').objects, builtIn: builtInSchemas() });
    expect(report.findings.map((f) => [f.severity, f.field])).toEqual([['warning', 'spec.template.spec.initContainers[0].restartPolicy']]);
  });

  it('a Kubernetes OpenAPI document passed with --schemas takes precedence over the built-in definitions', () => {
    const doc = {
      openapi: '3.0.0',
      components: {
        schemas: {
          'io.k8s.api.core.v1.ConfigMap': {
            type: 'object',
            properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, data: { type: 'object' }, colour: { type: 'string' } },
            'x-kubernetes-group-version-kind': [{ group: '', kind: 'ConfigMap', version: 'v1' }],
          },
        },
      },
    };
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c, namespace: a }\ncolour: blue\n';
    expect(check(text, { openApiDocuments: [{ doc, file: 'api__v1_openapi.json' }] }).findings).toEqual([]);
  });

  it('a kind the package does not know is listed as not checked, and one that is no built-in kind is not looked up', () => {
    const text = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: { name: p }
---
apiVersion: v1
kind: ../../package
metadata: { name: q }
`;
    expect(check(text)).toEqual({ findings: [], checked: 0, unchecked: ['admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy', 'v1 ../../package'] });
  });
});

describe.skipIf(!corpus.present)(`real provider components${corpus.skipped}`, () => {
  it("every release's Deployments, Services, RBAC, webhooks and CRDs pass, but the Secrets whose data is left to variables", () => {
    const repo = join(corpus.path, 'repository');
    const objects = readdirSync(repo)
      .sort()
      .flatMap((provider) =>
        readdirSync(join(repo, provider))
          .sort()
          .flatMap((version) =>
            readdirSync(join(repo, provider, version))
              .filter((f) => /components.*\.yaml$|^cert-manager\.yaml$/.test(f))
              .flatMap((f) => readManifest(readFileSync(join(repo, provider, version, f), 'utf8'), `${provider}/${version}/${f}`).objects),
          ),
      );
    const report = validateManifests({ objects, builtIn: builtInSchemas() });
    expect(report.unchecked).toEqual([]);
    const errors = report.findings.filter((f) => f.severity === 'error');
    // A raw release's base64 Secret data is a `${VARIABLE}` until clusterctl substitutes it.
    expect(errors.map((f) => `${f.kind} ${f.field}`).sort()).toEqual(errors.map((f) => `Secret ${f.field}`).sort());
    expect(errors.every((f) => /in body must be of type byte: "\$\{/.test(f.message))).toBe(true);
  });
});

describe('capiform validate', () => {
  it('reports a core-kind error with its file and line without --schemas, and exits 1', async () => {
    const dir = testdir({ 'apps/web.yaml': `${namespace}---\n${deployment('"two"')}` });
    const res = await runCli(['validate', 'apps'], { cwd: dir });
    expect(res.stdout).toBe(
      'apps/web.yaml:5: error: Deployment team-a/web: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"\n',
    );
    expect(res.stderr).toBe('1 error, 0 warnings in 2 objects (2 checked against a schema)\n');
    expect(res.code).toBe(1);
  });
});
