/**
 * The provider-contract lint (spec/provider-contract.md): a provider release checked against what clusterctl and
 * CAPI's InfraCluster/InfraMachine contracts expect, on the raw release files. Each finding names the rule's id;
 * MUST rules are errors, SHOULD rules warnings.
 */
import { componentsFileName, manifestLabel, providerTypes, type ProviderType } from '../capi/index.js';
import { listVariables, substitute } from '../envsubst/index.js';
import { parseTolerant } from '../go/index.js';
import { builtinProviders, parseMetadata } from '../resolve/index.js';
import { parseDocuments } from '../yaml/index.js';
import { findingAt, isRecord, type Finding, type Severity, type SourceObject } from './findings.js';

export interface ProviderRelease {
  /** The provider's manifest label: `infrastructure-docker`, `cluster-api`. */
  label: string;
  /** The release's version folder name: `v1.12.11`. */
  version: string;
  /** Every file of the release folder, by name. */
  files: ReadonlyArray<{ name: string; text: string }>;
  /**
   * Only some of the release's files (those a lock pins): a file missing from `files` may still be in the release,
   * so rules about a file's absence (`template.topology-class`) do not run.
   */
  partial?: boolean;
}

/** The rules, by id, with their strength: MUST rules are errors, SHOULD rules warnings. */
export const contractRules = {
  'repo.metadata': 'error',
  'repo.components-name': 'warning',
  'repo.template-name': 'error',
  'components.namespace-count': 'warning',
  'components.namespaced': 'error',
  'components.manager-container': 'error',
  'components.provider-label': 'warning',
  'components.variables-prefixed': 'warning',
  'crd.contract-label': 'error',
  'crd.name': 'error',
  'crd.namespaced': 'error',
  'crd.template-pair': 'warning',
  'crd.spec-status': 'error',
  'crd.rbac-aggregation': 'error',
  'template.single-namespace': 'error',
  'template.topology-class': 'error',
} as const satisfies Record<string, Severity>;
export type ContractRule = keyof typeof contractRules;

/** Kinds the API server stores without a namespace (besides the release's own cluster-scoped CRDs). */
const clusterScopedKinds = new Set([
  'Namespace',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'APIService',
  'PriorityClass',
  'StorageClass',
  'PersistentVolume',
  'CSIDriver',
  'IngressClass',
  'RuntimeClass',
  'ClusterIssuer',
]);

/** Variables clusterctl itself defines or that every provider shares by convention. */
const wellKnownVariables = new Set(['NAMESPACE', 'CLUSTER_NAME', 'KUBERNETES_VERSION', 'CONTROL_PLANE_MACHINE_COUNT', 'WORKER_MACHINE_COUNT', 'CLUSTER_TOPOLOGY']);
const wellKnownPrefixes = ['EXP_', 'CAPI_'];

interface Ctx {
  release: ProviderRelease;
  findings: Finding[];
}

/** Every contract rule over one release. */
export function lintProviderRelease(release: ProviderRelease): Finding[] {
  const c: Ctx = { release, findings: [] };
  const type = typeOfLabel(release.label);
  const contract = checkMetadata(c);
  const componentsName = componentsFileOf(c, type);
  const components = componentsName === undefined ? [] : objectsOfFile(c, componentsName);
  if (componentsName !== undefined) {
    const text = release.files.find((f) => f.name === componentsName)!.text;
    checkComponents(c, components, text, componentsName);
    checkCrds(c, components, type, contract, componentsName);
  }
  checkTemplates(c, componentsName);
  return c.findings;
}

function report(c: Ctx, rule: ContractRule, at: SourceObject | string, field: string, message: string, value?: unknown): void {
  const src: SourceObject = typeof at === 'string' ? { object: {}, file: at, line: 1 } : at;
  const file = `${c.release.label}/${c.release.version}/${src.file}`;
  c.findings.push(findingAt({ ...src, file }, { severity: contractRules[rule], field, message, rule, ...(value !== undefined ? { value } : {}) }));
}

function typeOfLabel(label: string): ProviderType | undefined {
  if (label === 'cluster-api') return 'CoreProvider';
  // The longest prefix first: `runtime-extension-` before any shorter one.
  const typed = providerTypes
    .filter((t) => t !== 'CoreProvider')
    .map((t) => ({ t, prefix: manifestLabel('', t) }))
    .sort((a, b) => b.prefix.length - a.prefix.length)
    .find((x) => label.startsWith(x.prefix));
  return typed?.t;
}

/** `repo.metadata`: the version folder is a semantic version and metadata.yaml maps its series to a contract. */
function checkMetadata(c: Ctx): string | undefined {
  const { release } = c;
  const v = parseTolerant(release.version);
  if (!v) report(c, 'repo.metadata', '.', '', `version folder "${release.version}" is not a valid semantic version`, release.version);
  const file = release.files.find((f) => f.name === 'metadata.yaml');
  if (!file) {
    report(c, 'repo.metadata', 'metadata.yaml', '', 'the release has no metadata.yaml');
    return undefined;
  }
  let series: Array<{ major: number; minor: number; contract: string }>;
  try {
    series = parseMetadata(file.text, release.label, 'metadata.yaml').releaseSeries;
  } catch (err) {
    report(c, 'repo.metadata', 'metadata.yaml', '', (err as Error).message);
    return undefined;
  }
  if (!v) return undefined;
  const match = series.find((s) => BigInt(s.major) === v.major && BigInt(s.minor) === v.minor);
  if (!match) {
    report(c, 'repo.metadata', 'metadata.yaml', 'releaseSeries', `releaseSeries has no entry for ${v.major}.${v.minor}, the series of ${release.version}`);
    return undefined;
  }
  return match.contract;
}

/**
 * `repo.components-name`: the components file is `<type>-components.yaml`, or the file clusterctl's provider catalog
 * names for this provider (CAPD's `infrastructure-components-development.yaml`): that is the one clusterctl fetches.
 */
function componentsFileOf(c: Ctx, type: ProviderType | undefined): string | undefined {
  const expected = type ? componentsFileName(type) : undefined;
  if (expected && c.release.files.some((f) => f.name === expected)) return expected;
  const catalogFile = builtinProviders.find((p) => p.type === type && manifestLabel(p.name, p.type) === c.release.label)?.url.split('/').pop();
  if (catalogFile && c.release.files.some((f) => f.name === catalogFile)) return catalogFile;
  const any = c.release.files.map((f) => f.name).filter((n) => n.endsWith('-components.yaml') || /components.*\.yaml$/.test(n)).sort();
  const found = any[0];
  if (found !== undefined || expected) {
    report(c, 'repo.components-name', found ?? '.', '', `the components file is ${found ? `"${found}"` : 'missing'}; clusterctl looks for "${expected ?? '<type>-components.yaml'}"`);
  }
  return found;
}

function objectsOfFile(c: Ctx, name: string): SourceObject[] {
  const file = c.release.files.find((f) => f.name === name);
  if (!file) return [];
  // Rules read the release after variable substitution: every variable takes its default, or a placeholder.
  const values = new Map(listVariables(file.text).map((v) => [v.name, v.default ?? placeholder(v.name)]));
  let substituted: string | undefined;
  try {
    substituted = substitute(file.text, values);
  } catch {
    substituted = undefined;
  }
  const out: SourceObject[] = [];
  let docs;
  try {
    docs = parseDocuments(substituted ?? file.text, { source: name, duplicateKeys: 'last-wins' });
  } catch (err) {
    // Some releases only parse with a variable set (CAPA's IAM role annotation): the raw text still shows the objects.
    try {
      docs = parseDocuments(file.text, { source: name, duplicateKeys: 'last-wins' });
    } catch {
      c.findings.push(findingAt({ object: {}, file: `${c.release.label}/${c.release.version}/${name}`, line: 1 }, { severity: 'error', field: '', message: (err as Error).message }));
      return [];
    }
  }
  for (const d of docs) {
    if (isRecord(d.value) && Object.keys(d.value).length > 0) out.push({ object: d.value, file: name, line: d.line });
  }
  return out;
}

/** A value for a variable without a default: clusterctl would ask for it; the rules only need the YAML to parse. */
function placeholder(name: string): string {
  if (name === 'NAMESPACE') return 'default';
  if (name === 'CLUSTER_NAME') return 'cluster';
  return /COUNT|REPLICAS|PORT/.test(name) ? '1' : '';
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const meta = (o: Record<string, unknown>): Record<string, unknown> => (isRecord(o.metadata) ? o.metadata : {});
const labelsOf = (o: Record<string, unknown>): Record<string, unknown> => (isRecord(meta(o).labels) ? (meta(o).labels as Record<string, unknown>) : {});

function checkComponents(c: Ctx, objects: SourceObject[], text: string, file: string): void {
  const namespaces = objects.filter((s) => s.object.kind === 'Namespace');
  if (namespaces.length !== 1) {
    report(c, 'components.namespace-count', namespaces[0] ?? file, '', `the components hold ${namespaces.length} Namespace objects; clusterctl expects exactly one (the target namespace)`);
  }
  const target = namespaces.length === 1 ? str(meta(namespaces[0]!.object).name) : undefined;
  const clusterScopedCrds = new Set(
    objects
      .filter((s) => s.object.kind === 'CustomResourceDefinition' && isRecord(s.object.spec) && s.object.spec.scope === 'Cluster')
      .map((s) => str(isRecord((s.object.spec as Record<string, unknown>).names) ? ((s.object.spec as Record<string, Record<string, unknown>>).names!.kind) : undefined))
      .filter((k): k is string => k !== undefined),
  );
  for (const s of objects) {
    const kind = str(s.object.kind) ?? '';
    const ns = str(meta(s.object).namespace);
    if (target !== undefined && ns !== undefined && ns !== target && !clusterScopedKinds.has(kind) && !clusterScopedCrds.has(kind)) {
      report(c, 'components.namespaced', s, 'metadata.namespace', `${kind} is in namespace "${ns}", not the provider's target namespace "${target}"`, ns);
    }
    if (kind === 'Deployment') {
      const spec = isRecord(s.object.spec) && isRecord(s.object.spec.template) && isRecord(s.object.spec.template.spec) ? s.object.spec.template.spec : {};
      const containers = Array.isArray(spec.containers) ? spec.containers : [];
      if (!containers.some((x) => isRecord(x) && x.name === 'manager')) {
        report(c, 'components.manager-container', s, 'spec.template.spec.containers', 'the Deployment has no container named "manager" (clusterctl sets image overrides and flags on it)');
      }
    }
    const label = labelsOf(s.object)['cluster.x-k8s.io/provider'];
    if (label !== c.release.label) {
      report(
        c,
        'components.provider-label',
        s,
        'metadata.labels[cluster.x-k8s.io/provider]',
        label === undefined ? `missing label cluster.x-k8s.io/provider: ${c.release.label}` : `label cluster.x-k8s.io/provider is "${String(label)}", not "${c.release.label}"`,
        label,
      );
    }
  }
  const name = c.release.label.replace(/^(bootstrap|control-plane|infrastructure|ipam|runtime-extension|addon)-/, '').toUpperCase().replace(/-/g, '_');
  // `ipam-metal3` may prefix with IPAM_ or METAL3_.
  const prefixes = [name, ...c.release.label.toUpperCase().split('-')].map((p) => `${p}_`);
  for (const v of listVariables(text)) {
    if (wellKnownVariables.has(v.name) || wellKnownPrefixes.some((p) => v.name.startsWith(p))) continue;
    if (prefixes.some((p) => v.name.startsWith(p)) || /^CAP[A-Z0-9]{1,4}_/.test(v.name)) continue;
    report(c, 'components.variables-prefixed', file, '', `variable ${v.name} is not prefixed with the provider's name (${name}_…)`, v.name);
  }
}

interface Crd {
  src: SourceObject;
  name: string;
  group: string;
  kind: string;
  plural: string;
  listKind: string;
  scope: string;
  versions: Array<{ name: string; served: boolean; schema: Record<string, unknown> | undefined }>;
}

function crdsOf(objects: SourceObject[]): Crd[] {
  const out: Crd[] = [];
  for (const s of objects) {
    if (s.object.kind !== 'CustomResourceDefinition' || !isRecord(s.object.spec)) continue;
    const spec = s.object.spec;
    const names = isRecord(spec.names) ? spec.names : {};
    out.push({
      src: s,
      name: str(meta(s.object).name) ?? '',
      group: str(spec.group) ?? '',
      kind: str(names.kind) ?? '',
      plural: str(names.plural) ?? '',
      listKind: str(names.listKind) ?? '',
      scope: str(spec.scope) ?? '',
      versions: (Array.isArray(spec.versions) ? spec.versions : []).filter(isRecord).map((v) => ({
        name: str(v.name) ?? '',
        served: v.served !== false,
        schema: isRecord(v.schema) && isRecord(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : undefined,
      })),
    });
  }
  return out;
}

const capiGroup = (group: string): boolean => group === 'cluster.x-k8s.io' || group.endsWith('.cluster.x-k8s.io');

/** The kinds each provider type's contract makes CAPI read (InfraCluster, InfraMachine, bootstrap config, …). */
const contractKinds: Partial<Record<ProviderType, RegExp>> = {
  InfrastructureProvider: /(Cluster|Machine|MachinePool)(Template)?$/,
  BootstrapProvider: /Config(Template)?$/,
  ControlPlaneProvider: /ControlPlane(Template)?$/,
};

/**
 * Provider types whose CRDs the scope rule (about InfraCluster/InfraMachine, bootstrap and control plane types) does not
 * cover: an IPAM provider's pools may be cluster-scoped (the in-cluster provider's GlobalInClusterIPPool, which a
 * namespaced IPAddressClaim references without a namespace).
 */
const scopeFreeTypes = new Set<ProviderType | undefined>(['IPAMProvider', 'AddonProvider', 'RuntimeExtensionProvider']);

/** A CRD CAPI's core controllers read through the contract: it carries a contract label, or has a contract kind. */
function capiFacing(d: Crd, type: ProviderType | undefined): boolean {
  if (!capiGroup(d.group)) return false;
  if (Object.keys(labelsOf(d.src.object)).some((k) => contractLabel.test(k))) return true;
  const kinds = type ? contractKinds[type] : undefined;
  return kinds !== undefined && kinds.test(d.kind) && !/PoolMachine$/.test(d.kind);
}

const contractLabel = /^cluster\.x-k8s\.io\/v1(alpha|beta)?\d+$/;

function checkCrds(c: Ctx, objects: SourceObject[], type: ProviderType | undefined, contract: string | undefined, file: string): void {
  const crds = crdsOf(objects);
  // The core provider defines CAPI's own types, which the contract rules are about referencing, not being.
  const facing = type === 'CoreProvider' ? [] : crds.filter((d) => capiFacing(d, type));
  for (const d of facing) {
    const labels = labelsOf(d.src.object);
    const contractLabels = Object.keys(labels).filter((k) => contractLabel.test(k));
    if (contract && !contractLabels.includes(`cluster.x-k8s.io/${contract}`)) {
      report(c, 'crd.contract-label', d.src, `metadata.labels[cluster.x-k8s.io/${contract}]`, `CRD ${d.name} has no cluster.x-k8s.io/${contract} label for the release's contract`);
    }
    for (const k of contractLabels) {
      const served = new Set(d.versions.filter((v) => v.served).map((v) => v.name));
      for (const v of String(labels[k]).split('_')) {
        if (!served.has(v)) report(c, 'crd.contract-label', d.src, `metadata.labels[${k}]`, `label ${k} names version "${v}", which CRD ${d.name} does not serve`, labels[k]);
      }
    }
    const plural = pluralize(d.kind.toLowerCase());
    if (d.name !== `${d.plural}.${d.group}` || d.plural !== plural) {
      report(c, 'crd.name', d.src, 'metadata.name', `CRD name is "${d.name}"; CAPI expects "${plural}.${d.group}" for kind ${d.kind}`, d.name);
    }
    const kinds = type ? contractKinds[type] : undefined;
    if (d.scope !== 'Namespaced' && (kinds ? kinds.test(d.kind) : !scopeFreeTypes.has(type))) report(c, 'crd.namespaced', d.src, 'spec.scope', `CRD ${d.name} is ${d.scope || 'not'} scoped; CAPI-facing types must be Namespaced`, d.scope);
  }
  if (type === 'InfrastructureProvider') checkInfraKinds(c, facing);
  const foreign = type === 'CoreProvider' ? [] : [...new Set(crds.filter((d) => !capiGroup(d.group)).map((d) => d.group))].sort();
  if (foreign.length > 0) {
    const aggregated = objects.filter((s) => s.object.kind === 'ClusterRole' && String(labelsOf(s.object)['cluster.x-k8s.io/aggregate-to-manager']) === 'true');
    const covered = new Set<string>();
    for (const r of aggregated) {
      for (const rule of Array.isArray(r.object.rules) ? r.object.rules : []) {
        if (isRecord(rule) && Array.isArray(rule.apiGroups)) for (const g of rule.apiGroups) covered.add(String(g));
      }
    }
    for (const g of foreign) {
      if (!covered.has(g) && !covered.has('*')) {
        report(c, 'crd.rbac-aggregation', file, '', `no ClusterRole labelled cluster.x-k8s.io/aggregate-to-manager: "true" grants the core controllers access to API group ${g}`, g);
      }
    }
  }
}

function checkInfraKinds(c: Ctx, crds: Crd[]): void {
  const kinds = new Map(crds.map((d) => [d.kind, d]));
  for (const d of crds) {
    const role = d.kind.endsWith('Cluster') ? 'InfraCluster' : d.kind.endsWith('Machine') && !d.kind.endsWith('PoolMachine') ? 'InfraMachine' : undefined;
    if (!role) continue;
    const template = kinds.get(`${d.kind}Template`);
    if (!template) report(c, 'crd.template-pair', d.src, 'spec.names.kind', `${role} kind ${d.kind} has no ${d.kind}Template kind for ClusterClasses`, d.kind);
    else if (template.listKind !== `${d.kind}TemplateList`) {
      report(c, 'crd.template-pair', template.src, 'spec.names.listKind', `template kind ${template.kind} has no ${template.kind}List kind`, template.listKind);
    }
    // The contract's fields are required of the versions the contract label names (all served ones without it).
    const labelled = new Set(Object.entries(labelsOf(d.src.object)).filter(([k]) => contractLabel.test(k)).flatMap(([, v]) => String(v).split('_')));
    for (const v of d.versions.filter((x) => x.served && x.schema && (labelled.size === 0 || labelled.has(x.name)))) {
      const props = (s: unknown, ...path: string[]): boolean => {
        let cur: unknown = s;
        for (const p of path) {
          if (!isRecord(cur) || !isRecord(cur.properties) || !(p in cur.properties)) return false;
          cur = cur.properties[p];
        }
        return true;
      };
      const status = props(v.schema, 'status', 'ready') || props(v.schema, 'status', 'initialization');
      if (!status) report(c, 'crd.spec-status', d.src, `spec.versions[${v.name}]`, `${role} ${d.kind} ${v.name} has neither status.ready nor status.initialization`);
      if (role === 'InfraMachine' && !props(v.schema, 'spec', 'providerID')) {
        report(c, 'crd.spec-status', d.src, `spec.versions[${v.name}]`, `InfraMachine ${d.kind} ${v.name} has no spec.providerID`);
      }
      if (role === 'InfraCluster' && props(v.schema, 'spec', 'controlPlaneEndpoint') && !(props(v.schema, 'spec', 'controlPlaneEndpoint', 'host') && props(v.schema, 'spec', 'controlPlaneEndpoint', 'port'))) {
        report(c, 'crd.spec-status', d.src, `spec.versions[${v.name}]`, `InfraCluster ${d.kind} ${v.name} has spec.controlPlaneEndpoint without host and port`);
      }
    }
  }
}

/** The plural CAPI's CalculateCRDName computes (flect's rules for the endings kinds use). */
export function pluralize(word: string): string {
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

const templateName = /^cluster-template(-[^/]+)?\.yaml$/;
const classFileName = /^clusterclass-(.+)\.yaml$/;

function checkTemplates(c: Ctx, componentsName: string | undefined): void {
  const classNames = new Set(c.release.files.map((f) => classFileName.exec(f.name)?.[1]).filter((n): n is string => n !== undefined));
  for (const f of c.release.files) {
    if (f.name === componentsName || f.name === 'metadata.yaml' || !/\.ya?ml$/.test(f.name)) continue;
    const objects = objectsOfFile(c, f.name);
    const hasCluster = objects.some((s) => s.object.kind === 'Cluster');
    const hasClass = objects.some((s) => s.object.kind === 'ClusterClass');
    if ((hasCluster && !templateName.test(f.name)) || (hasClass && !classFileName.test(f.name))) {
      report(c, 'repo.template-name', f.name, '', `"${f.name}" holds a ${hasClass ? 'ClusterClass' : 'Cluster'} but is not named ${hasClass ? 'clusterclass-<name>.yaml' : 'cluster-template[-<flavor>].yaml'}`);
    }
    if (!templateName.test(f.name)) continue;
    const namespaces = [...new Set(objects.map((s) => str(meta(s.object).namespace)).filter((n): n is string => n !== undefined))];
    if (namespaces.length > 1) {
      report(c, 'template.single-namespace', f.name, 'metadata.namespace', `the template's objects are in ${namespaces.length} namespaces (${namespaces.join(', ')}); a template deploys into one`);
    }
    for (const s of objects) {
      if (s.object.kind !== 'Cluster' || !isRecord(s.object.spec) || !isRecord(s.object.spec.topology)) continue;
      const t = s.object.spec.topology;
      const cls = str(t.class) ?? (isRecord(t.classRef) ? str(t.classRef.name) : undefined);
      // A class named by a variable (`${CLUSTER_CLASS_NAME}`) is the user's to provide.
      if (cls !== undefined && cls !== '' && !classNames.has(cls) && !c.release.partial) {
        report(c, 'template.topology-class', s, 'spec.topology.class', `the Cluster uses class "${cls}", but the release has no clusterclass-${cls}.yaml`, cls);
      }
    }
  }
}

