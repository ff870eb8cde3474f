/**
 * Names of the objects the topology controller creates (CAPI `internal/topology/names`, spec/capi-plan.md §3.2).
 *
 * CAPI fills `.random` from a process-wide random source, so every reconcile of a new Cluster would name its objects
 * differently. A review tool needs byte-stable output, so here the five characters are derived from stable inputs
 * (the Cluster's namespace/name and the object's role, plus — for simple-generated template names — the template's
 * spec), drawn from the same alphabet as k8s `util/rand`. A template spec change thus yields a new template name,
 * which is CAPI's template rotation made visible; object names stay put.
 */
import { sha256Hex } from '../../cache/index.js';
import { renderNamingTemplate } from './template.js';

export { NamingTemplateError } from './errors.js';

/** k8s.io/apimachinery/pkg/util/rand's alphabet (no vowels, no confusable digits). */
export const randomAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const maxNameLength = 63;
const randomLength = 5;
const maxGeneratedNameLength = maxNameLength - randomLength;

/** Five characters of {@link randomAlphabet}, a pure function of `parts`. */
export function stableRandom(...parts: string[]): string {
  const digest = sha256Hex(parts.join('\u0000'));
  let out = '';
  for (let i = 0; out.length < randomLength; i += 2) {
    const byte = Number.parseInt(digest.slice(i, i + 2), 16);
    out += randomAlphabet[byte % randomAlphabet.length];
  }
  return out;
}

/** `names.SimpleNameGenerator`: the prefix cut to 58 characters, then the random suffix. */
export function simpleName(prefix: string, random: string): string {
  return (prefix.length > maxGeneratedNameLength ? prefix.slice(0, maxGeneratedNameLength) : prefix) + random;
}

/** The default naming templates of `desired_state.go`. */
export const defaultNamingTemplates = {
  infrastructureCluster: '{{ .cluster.name }}-{{ .random }}',
  controlPlane: '{{ .cluster.name }}-{{ .random }}',
  machineDeployment: '{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}',
  machinePool: '{{ .cluster.name }}-{{ .machinePool.topologyName }}-{{ .random }}',
} as const;

export type NamedObject = keyof typeof defaultNamingTemplates;

/** Simple-generator prefixes (`names.go` `*NamePrefix`). */
export const namePrefixes = {
  controlPlaneInfrastructureMachineTemplate: (cluster: string): string => `${cluster}-`,
  machineDeploymentTemplate: (cluster: string, topologyName: string): string => `${cluster}-${topologyName}-`,
  machinePoolObject: (cluster: string, topologyName: string): string => `${cluster}-${topologyName}-`,
};


export interface NameInput {
  /** The class's naming template, or empty for the default. */
  template?: string;
  object: NamedObject;
  clusterName: string;
  /** `.machineDeployment.topologyName` / `.machinePool.topologyName`. */
  topologyName?: string;
  /** The `.random` value. */
  random: string;
  /** The suffix appended when the rendered name is longer than 63 characters. */
  overflowRandom: string;
}

/** The data a naming template sees (`newTemplateGenerator`). */
export function namingData(object: NamedObject, clusterName: string, random: string, topologyName = ''): Record<string, unknown> {
  const data: Record<string, unknown> = { cluster: { name: clusterName }, random };
  if (object === 'machineDeployment') data.machineDeployment = { topologyName };
  if (object === 'machinePool') data.machinePool = { topologyName };
  return data;
}

/** `templateGenerator.GenerateName`: render, and cut an over-long result to 58 characters plus a random suffix. */
export function generateName(input: NameInput): string {
  const template = input.template || defaultNamingTemplates[input.object];
  return generateNameFromData(template, namingData(input.object, input.clusterName, input.random, input.topologyName), input.overflowRandom);
}

/**
 * `templateGenerator.GenerateName` over any data: CAPI's generators hand the template more than the topology's keys
 * (`.kubeadmControlPlane.name` for KCP Machines, `.machineSet.name` for MachineSet Machines, a unit test's own keys).
 */
export function generateNameFromData(template: string, data: Record<string, unknown>, overflowRandom: string): string {
  const name = renderNamingTemplate(template, data);
  // Go measures and cuts the name in bytes.
  const bytes = new TextEncoder().encode(name);
  return bytes.length > maxNameLength ? new TextDecoder().decode(bytes.subarray(0, maxGeneratedNameLength)) + overflowRandom : name;
}

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `validation.IsDNS1123Subdomain`: the messages the API server prints. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!dns1123Subdomain.test(value)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errs;
}

const webhookLabel: Record<NamedObject, string> = {
  infrastructureCluster: 'InfraCluster',
  controlPlane: 'ControlPlane',
  machineDeployment: 'MachineDeployment',
  machinePool: 'MachinePool',
};

/**
 * The ClusterClass webhook's check of a naming template (`validateNamingStrategies`): it must render with cluster
 * name `cluster` (and topology names `mdtopology` / `mptopology`) to a DNS-1123 subdomain. Returns the messages.
 */
export function namingTemplateErrors(object: NamedObject, template: string): string[] {
  const topologyName = object === 'machineDeployment' ? 'mdtopology' : object === 'machinePool' ? 'mptopology' : '';
  let name: string;
  try {
    name = generateName({ template, object, clusterName: 'cluster', topologyName, random: 'bcdfg', overflowRandom: 'bcdfg' });
  } catch (err) {
    return [`invalid ${webhookLabel[object]} name template: ${(err as Error).message}`];
  }
  return dns1123SubdomainErrors(name);
}

/** The roles of issue 13's topology objects, as `ExpandedCluster.objects[].role` spells them. */
export const topologyRoles = {
  cluster: 'cluster',
  infrastructureCluster: 'infrastructureCluster',
  controlPlane: 'controlPlane',
  controlPlaneInfrastructureMachineTemplate: 'controlPlaneInfrastructureMachineTemplate',
  controlPlaneMachineHealthCheck: 'controlPlaneMachineHealthCheck',
  machineDeployment: (n: string): string => `machineDeployment/${n}`,
  machineDeploymentBootstrapTemplate: (n: string): string => `machineDeploymentBootstrapTemplate/${n}`,
  machineDeploymentInfrastructureTemplate: (n: string): string => `machineDeploymentInfrastructureTemplate/${n}`,
  machineDeploymentMachineHealthCheck: (n: string): string => `machineDeploymentMachineHealthCheck/${n}`,
  machinePool: (n: string): string => `machinePool/${n}`,
  machinePoolBootstrapConfig: (n: string): string => `machinePoolBootstrapConfig/${n}`,
  machinePoolInfrastructureMachinePool: (n: string): string => `machinePoolInfrastructureMachinePool/${n}`,
} as const;

/** The `.random` of an object (and of the suffix of an over-long name): the Cluster's namespace/name and the role. */
export function objectRandom(namespace: string, cluster: string, role: string): { random: string; overflow: string } {
  return { random: stableRandom(namespace, cluster, role), overflow: stableRandom(namespace, cluster, role, 'overflow') };
}

/**
 * The random part of a simple-generated template name: it also covers the template's spec, so a spec change gives a
 * new name (CAPI's template rotation) and a metadata-only change keeps it.
 */
export function templateNameRandom(namespace: string, cluster: string, role: string, spec: unknown): string {
  return stableRandom(namespace, cluster, role, JSON.stringify(spec ?? null));
}

type Rule =
  | { kind: 'template'; object: NamedObject; role: (t: string) => string }
  | { kind: 'simple'; prefix: (cluster: string, t: string) => string; role: (t: string) => string; hashesSpec: boolean };

const r = topologyRoles;
/** Each object the engine names, by kind: its generator and role. */
const rules: Record<string, Rule> = {
  InfrastructureCluster: { kind: 'template', object: 'infrastructureCluster', role: () => r.infrastructureCluster },
  ControlPlane: { kind: 'template', object: 'controlPlane', role: () => r.controlPlane },
  MachineDeployment: { kind: 'template', object: 'machineDeployment', role: r.machineDeployment },
  MachinePool: { kind: 'template', object: 'machinePool', role: r.machinePool },
  ControlPlaneInfrastructureMachineTemplate: {
    kind: 'simple',
    prefix: (c) => namePrefixes.controlPlaneInfrastructureMachineTemplate(c),
    role: () => r.controlPlaneInfrastructureMachineTemplate,
    hashesSpec: true,
  },
  MachineDeploymentBootstrapTemplate: { kind: 'simple', prefix: namePrefixes.machineDeploymentTemplate, role: r.machineDeploymentBootstrapTemplate, hashesSpec: true },
  MachineDeploymentInfrastructureMachineTemplate: {
    kind: 'simple',
    prefix: namePrefixes.machineDeploymentTemplate,
    role: r.machineDeploymentInfrastructureTemplate,
    hashesSpec: true,
  },
  MachinePoolBootstrapConfig: { kind: 'simple', prefix: namePrefixes.machinePoolObject, role: r.machinePoolBootstrapConfig, hashesSpec: false },
  MachinePoolInfrastructureMachinePool: { kind: 'simple', prefix: namePrefixes.machinePoolObject, role: r.machinePoolInfrastructureMachinePool, hashesSpec: false },
};

export interface ObjectNameInput {
  /** `InfrastructureCluster`, `ControlPlane`, `MachineDeployment`, `MachinePool`, `ControlPlaneInfrastructureMachineTemplate`, … */
  object: string;
  clusterName: string;
  clusterNamespace?: string;
  topologyName?: string;
  /** The class's naming template (template-generated objects only). */
  template?: string;
  /** The template's (patched) spec, for simple-generated template names. */
  spec?: unknown;
  /** The name the Cluster's objects already use: always kept. */
  currentName?: string;
}

/** The name `expandTopology` gives a topology object (`desired_state.go`: existing name, else its generator). */
export function topologyObjectName(input: ObjectNameInput): string {
  if (input.currentName) return input.currentName;
  const rule = rules[input.object];
  if (!rule) throw new Error(`no naming rule for ${input.object} (known: ${Object.keys(rules).join(', ')})`);
  const ns = input.clusterNamespace ?? 'default';
  const topologyName = input.topologyName ?? '';
  const role = rule.role(topologyName);
  if (rule.kind === 'simple') {
    const random = rule.hashesSpec ? templateNameRandom(ns, input.clusterName, role, input.spec) : objectRandom(ns, input.clusterName, role).random;
    return simpleName(rule.prefix(input.clusterName, topologyName), random);
  }
  const random = objectRandom(ns, input.clusterName, role);
  return generateName({
    template: input.template,
    object: rule.object,
    clusterName: input.clusterName,
    topologyName,
    random: random.random,
    overflowRandom: random.overflow,
  });
}
