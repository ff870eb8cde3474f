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
  const name = renderNamingTemplate(template, namingData(input.object, input.clusterName, input.random, input.topologyName));
  return name.length > maxNameLength ? name.slice(0, maxGeneratedNameLength) + input.overflowRandom : name;
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

/** The objects CAPI names with the simple generator, and their prefixes. */
const simpleGenerated: Record<string, (cluster: string, topologyName: string) => string> = {
  ControlPlaneInfrastructureMachineTemplate: (c) => namePrefixes.controlPlaneInfrastructureMachineTemplate(c),
  MachineDeploymentBootstrapTemplate: (c, t) => namePrefixes.machineDeploymentTemplate(c, t),
  MachineDeploymentInfrastructureMachineTemplate: (c, t) => namePrefixes.machineDeploymentTemplate(c, t),
  MachinePoolBootstrapConfig: (c, t) => namePrefixes.machinePoolObject(c, t),
  MachinePoolInfrastructureMachinePool: (c, t) => namePrefixes.machinePoolObject(c, t),
};

const templateGenerated: Record<string, NamedObject> = {
  InfrastructureCluster: 'infrastructureCluster',
  ControlPlane: 'controlPlane',
  MachineDeployment: 'machineDeployment',
  MachinePool: 'machinePool',
};

export interface ObjectNameInput {
  /** `InfrastructureCluster`, `ControlPlane`, `MachineDeployment`, `MachinePool`, `ControlPlaneInfrastructureMachineTemplate`, … */
  object: string;
  clusterName: string;
  clusterNamespace?: string;
  topologyName?: string;
  /** The class's naming template (template-generated objects only). */
  template?: string;
  /** The name the Cluster's objects already use: always kept. */
  currentName?: string;
}

/** The name the engine gives a topology object (`desired_state.go`: existing name, else its generator). */
export function topologyObjectName(input: ObjectNameInput): string {
  if (input.currentName) return input.currentName;
  const ns = input.clusterNamespace ?? 'default';
  const topologyName = input.topologyName ?? '';
  const role = topologyName ? `${input.object}/${topologyName}` : input.object;
  const prefix = simpleGenerated[input.object];
  if (prefix) return simpleName(prefix(input.clusterName, topologyName), stableRandom(ns, input.clusterName, role));
  const named = templateGenerated[input.object];
  if (!named) throw new Error(`no naming rule for ${input.object}`);
  return generateName({
    template: input.template,
    object: named,
    clusterName: input.clusterName,
    topologyName,
    random: stableRandom(ns, input.clusterName, role),
    overflowRandom: stableRandom(ns, input.clusterName, role, 'overflow'),
  });
}
