/**
 * What CAPI's ClusterClass webhook refuses about a class by itself (its naming templates, variable definitions and
 * patches) comes out of `expandTopology` as one problem per class, in the webhook's words, and reaches the
 * warnings of `plan topology`.
 */
import { describe, expect, it } from 'vitest';
import { expandTopology, parseManifests, planTopology } from '../src/index.js';

const templates = `
apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: DockerClusterTemplate
metadata: {name: quick-start, namespace: default}
spec: {template: {spec: {}}}
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata: {name: quick-start, namespace: default}
spec: {template: {spec: {kubeadmConfigSpec: {}}}}
`;

/** A small class; `extra` is appended to its spec (YAML at spec indentation). */
function classWith(extra: string): string {
  return `apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: quick-start, namespace: default}
spec:
  infrastructure:
    templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerClusterTemplate, name: quick-start}
  controlPlane:
    templateRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: quick-start}
${extra}
---
${templates}`;
}

const problemsOf = (yaml: string): string[] => expandTopology(parseManifests(yaml)).problems.map((p) => `${p.code} ${p.message}`);
const prefix = 'E_TOPOLOGY_CLASS_INVALID ClusterClass default/quick-start: ClusterClass.cluster.x-k8s.io "quick-start" is invalid: ';

describe('ClusterClass webhook checks of the class itself', () => {
  it('finds nothing in a valid class', () => {
    expect(problemsOf(classWith('  variables:\n  - {name: cpu, required: true, schema: {openAPIV3Schema: {type: integer}}}'))).toEqual([]);
  });

  it('refuses a variable defined twice', () => {
    const yaml = classWith(`  variables:
  - {name: cpu, required: true, schema: {openAPIV3Schema: {type: integer}}}
  - {name: cpu, required: false, schema: {openAPIV3Schema: {type: string}}}`);
    expect(problemsOf(yaml)).toEqual([
      `${prefix}spec.variables[cpu].name: Invalid value: "cpu": variable name must be unique. Variable with name "cpu" is defined more than once`,
    ]);
  });

  it('renders naming templates for cluster "cluster" and refuses names that are not DNS-1123 subdomains', () => {
    const yaml = classWith(`  workers:
    machineDeployments:
    - class: default-worker
      naming: {template: "{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-Workers"}
      bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: w}}
      infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerMachineTemplate, name: w}}`).replace(
      'kind: KubeadmControlPlaneTemplate, name: quick-start}',
      'kind: KubeadmControlPlaneTemplate, name: quick-start}\n    naming: {template: "{{ .cluster.name "}',
    );
    const [problem] = problemsOf(yaml);
    expect(problem).toContain(`${prefix}[spec.controlPlane.naming.template: Invalid value: "{{ .cluster.name ": invalid ControlPlane name template: `);
    expect(problem).toContain(
      `spec.workers.machineDeployments[default-worker].naming.template: Invalid value: "{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-Workers": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters`,
    );
  });

  it('refuses patches the webhook refuses: duplicate names, unknown variables, external patches without an extension', () => {
    const yaml = classWith(`  patches:
  - name: setCpu
    definitions:
    - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
      jsonPatches:
      - {op: add, path: /spec/template/spec/cpu, valueFrom: {variable: memory}}
  - name: setCpu
    external: {}`);
    expect(problemsOf(yaml)).toEqual([
      `${prefix}[spec.patches[0].definitions[0].jsonPatches[0].valueFrom.variable: Invalid value: "memory": variable with name memory cannot be found, ` +
        `spec.patches[1].name: Invalid value: "setCpu": patch names must be unique. Patch with name "setCpu" is defined more than once, ` +
        `spec.patches[1].external: Invalid value: "{}": one of validateTopologyExtension and generatePatchesExtension must be defined]`,
    ]);
  });

  it('reports an invalid class among the warnings of plan topology', () => {
    const yaml = classWith(`  variables:
  - {name: builtin, required: true, schema: {openAPIV3Schema: {type: string}}}`);
    const plan = planTopology(parseManifests(yaml));
    expect(plan.warnings.some((w) => w.startsWith('ClusterClass default/quick-start: ClusterClass.cluster.x-k8s.io "quick-start" is invalid: spec.variables[builtin].name'))).toBe(true);
  });

  it('judges a class again when it changes: the verdict is remembered by the class text, not by its name', () => {
    const twice = classWith(`  variables:
  - {name: cpu, required: true, schema: {openAPIV3Schema: {type: integer}}}
  - {name: cpu, required: false, schema: {openAPIV3Schema: {type: string}}}`);
    const once = classWith('  variables:\n  - {name: cpu, required: true, schema: {openAPIV3Schema: {type: integer}}}');
    const refused = `${prefix}spec.variables[cpu].name: Invalid value: "cpu": variable name must be unique. Variable with name "cpu" is defined more than once`;
    expect(problemsOf(twice)).toEqual([refused]);
    expect(problemsOf(once)).toEqual([]);
    expect(problemsOf(twice)).toEqual([refused]);
    // The same text under another namespace is reported under that name.
    expect(problemsOf(twice.replace(/namespace: default/g, 'namespace: team-a'))).toEqual([refused.replace('default/quick-start', 'team-a/quick-start')]);
  });
});
