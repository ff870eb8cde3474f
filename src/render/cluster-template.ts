/**
 * Cluster templates, as clusterctl builds them for `generate cluster` and `generate yaml` (spec §3):
 * the common variables and their validation (`templateOptionsToVariables`), `NewTemplate`, automatic ClusterClass
 * inclusion (`addClusterClassIfMissing` + `MergeTemplates`) and the `--list-variables` outputs.
 * Pure and synchronous: strings and lookups in, objects and strings out.
 */
import { CapiformError, InputError, ResolutionError, UsageError, wrapError } from '../errors.js';
import { isKubernetesSemanticVersion } from '../capi/index.js';
import { asObject as record, compareGoStrings, goQuote, type TabwriterOptions, tabwriteRows } from '../go/index.js';

export { goQuote };
import { isDNS1123Label, isDNS1123Subdomain } from '../resolve/index.js';
import { listVariables, mergeTemplates as mergeTemplateData, process } from '../envsubst/index.js';
import { clusterClassFileName, templateFileName } from './template-names.js';
import { parseEntries, type KubeObject, type ManifestEntry } from '../yaml/index.js';
import { fixTargetNamespace, manifestYaml, type OutputStyle } from './components/index.js';

export type VariableLookup = (name: string) => string | undefined;

/** One parsed template (clusterctl's `repository.Template`). */
export interface Template {
  objects: KubeObject[];
  /** The same objects with the source documents they came from (for text-preserving output). */
  entries: ManifestEntry[];
  /** Sorted variable names (Go `sort.Strings`), without duplicates. */
  variables: string[];
  /** name → default string, `null` when required. */
  variableMap: Record<string, string | null>;
  targetNamespace: string;
  /**
   * YAML of the objects without a final newline (clusterctl's `Yaml()`), `""` for no objects. `capiform` style keeps
   * the source text of untouched content; `clusterctl` style re-emits like go-yaml v2.
   */
  yaml(style?: OutputStyle): string;
}

// ---------------------------------------------------------------------------------------------------------------
// Validation (k8s.io/apimachinery/pkg/util/validation v0.36.3, k8s.io/apimachinery/pkg/util/version)
// ---------------------------------------------------------------------------------------------------------------

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Go `strconv.ParseInt(s, 10, 64)`; `null` when it fails. */
export function parseGoInt64(s: string): bigint | null {
  if (!/^[+-]?[0-9]+$/.test(s)) return null;
  const n = BigInt(s);
  return n < int64Min || n > int64Max ? null : n;
}

// ---------------------------------------------------------------------------------------------------------------
// templateOptionsToVariables (client/config.go)
// ---------------------------------------------------------------------------------------------------------------

export interface TemplateOptions {
  clusterName: string;
  targetNamespace: string;
  /** Only set when the user passed `--kubernetes-version`; `""` counts as not given. */
  kubernetesVersion?: string;
  /** Only set when the flag was passed explicitly. */
  controlPlaneMachineCount?: number | string;
  workerMachineCount?: number | string;
}

function machineCount(
  name: 'CONTROL_PLANE_MACHINE_COUNT' | 'WORKER_MACHINE_COUNT',
  option: number | string | undefined,
  lookup: VariableLookup,
  fallback: bigint,
): bigint {
  if (option !== undefined) {
    const n = typeof option === 'number' ? (Number.isInteger(option) ? BigInt(option) : null) : parseGoInt64(option);
    if (n === null) throw new UsageError(`invalid value for ${name} set`);
    return n;
  }
  const v = lookup(name);
  if (v === undefined) return fallback;
  const n = parseGoInt64(v);
  if (n === null) throw new UsageError(`invalid value for ${name} set`, { where: name });
  return n;
}

/**
 * The variables `generate cluster` sets itself (they beat the environment and the config file), validated with
 * clusterctl's messages: NAMESPACE (RFC 1123 label), CLUSTER_NAME (RFC 1123 subdomain), KUBERNETES_VERSION (only when
 * given; semantic version), CONTROL_PLANE_MACHINE_COUNT (flag > variable > 1, ≥ 1), WORKER_MACHINE_COUNT (flag >
 * variable > 0, ≥ 0). `lookup` reads the variables known before the call (environment and config file).
 */
export function templateOptionsToVariables(opts: TemplateOptions, lookup: VariableLookup): Record<string, string> {
  const vars: Record<string, string> = {};
  const nsErrs = isDNS1123Label(opts.targetNamespace);
  if (nsErrs.length > 0) {
    throw new UsageError(`invalid target-namespace: ${nsErrs.join('; ')}`, {
      hint: 'use lower-case letters, digits and "-" (at most 63 characters), starting and ending with a letter or digit',
    });
  }
  vars.NAMESPACE = opts.targetNamespace;
  const nameErrs = isDNS1123Subdomain(opts.clusterName);
  if (nameErrs.length > 0) {
    throw new UsageError(`invalid cluster name: ${nameErrs.join('; ')}`, {
      hint: 'use lower-case letters, digits, "-" and "." (at most 253 characters), starting and ending with a letter or digit',
    });
  }
  vars.CLUSTER_NAME = opts.clusterName;
  if (opts.kubernetesVersion !== undefined && opts.kubernetesVersion !== '') {
    if (!isKubernetesSemanticVersion(opts.kubernetesVersion)) {
      throw new UsageError('invalid KubernetesVersion. Please use a semantic version number', {
        hint: 'pass a version such as v1.33.1',
      });
    }
    vars.KUBERNETES_VERSION = opts.kubernetesVersion;
  }
  const cp = machineCount('CONTROL_PLANE_MACHINE_COUNT', opts.controlPlaneMachineCount, lookup, 1n);
  if (cp < 1n) throw new UsageError('invalid ControlPlaneMachineCount. Please use a number greater than or equal to 1');
  vars.CONTROL_PLANE_MACHINE_COUNT = cp.toString();
  const workers = machineCount('WORKER_MACHINE_COUNT', opts.workerMachineCount, lookup, 0n);
  if (workers < 0n) throw new UsageError('invalid WorkerMachineCount. Please use a number greater than or equal to 0');
  vars.WORKER_MACHINE_COUNT = workers.toString();
  return vars;
}

/** A lookup where `overrides` (clusterctl's `viper.Set`) beat `base`. */
export function withOverrides(overrides: Record<string, string>, base: VariableLookup): VariableLookup {
  return (name) => (Object.hasOwn(overrides, name) ? overrides[name] : base(name));
}

// ---------------------------------------------------------------------------------------------------------------
// NewTemplate and MergeTemplates (client/repository/template.go)
// ---------------------------------------------------------------------------------------------------------------

export interface NewTemplateInput {
  raw: string;
  source?: string;
  /** `""` means no namespace enforcement (`generate yaml`). */
  targetNamespace: string;
  variables: VariableLookup;
  /** `--list-variables`: list variables only; no objects, no substitution. */
  skipTemplateProcess?: boolean;
}

function templateOf(
  entries: ManifestEntry[],
  variableMap: Record<string, string | null>,
  targetNamespace: string,
): Template {
  return {
    objects: entries.map((e) => e.value),
    entries,
    variables: Object.keys(variableMap).sort(compareGoStrings),
    variableMap,
    targetNamespace,
    yaml: (style: OutputStyle = 'capiform') =>
      entries.length === 0 ? '' : manifestYaml(entries, style).replace(/\n+$/, ''),
  };
}

/** clusterctl's `NewTemplate`: list variables, then substitute, parse and (when a namespace is given) fix it. */
export function newTemplate(input: NewTemplateInput): Template {
  // Parse errors here are returned unwrapped, as clusterctl does.
  const variableMap: Record<string, string | null> = {};
  let text: string;
  try {
    for (const v of listVariables(input.raw)) variableMap[v.name] = v.default;
    if (input.skipTemplateProcess) return templateOf([], variableMap, input.targetNamespace);
    text = process(input.raw, input.variables);
  } catch (err) {
    if (err instanceof CapiformError && input.source !== undefined && err.where === undefined) {
      Object.assign(err, { where: input.source });
    }
    throw err;
  }
  let entries: ManifestEntry[];
  try {
    entries = parseEntries(text, { source: input.source });
  } catch (err) {
    throw wrapAny(err, 'failed to parse yaml', input.source);
  }
  if (input.targetNamespace !== '') {
    try {
      const fixed = fixTargetNamespace(
        entries.map((e) => e.value),
        input.targetNamespace,
      );
      entries = entries.map((e, i) => ({ ...e, value: fixed[i] ?? e.value }));
    } catch (err) {
      throw wrapAny(err, 'failed to set the TargetNamespace in the template', input.source);
    }
  }
  return templateOf(entries, variableMap, input.targetNamespace);
}

function wrapAny(err: unknown, prefix: string, where?: string): CapiformError {
  if (err instanceof CapiformError) return wrapError(err, prefix);
  return new InputError(`${prefix}: ${err instanceof Error ? err.message : String(err)}`, { where, cause: err });
}

/**
 * `MergeTemplates`: objects concatenated in order; variables = sorted union; a variable's default comes from the first
 * template with a non-null one; targetNamespace = the first template's, or `""` when they differ.
 */
export function mergeTemplates(...templates: Template[]): Template | null {
  if (templates.length === 0) return null;
  const merged = mergeTemplateData(templates.map((t) => ({ ...t, objects: t.entries })));
  return templateOf(merged.objects, merged.variableMap, merged.targetNamespace);
}

// ---------------------------------------------------------------------------------------------------------------
// ClusterClass auto-inclusion (client/clusterclass.go)
// ---------------------------------------------------------------------------------------------------------------

export interface ClusterClassReference {
  name: string;
  namespace: string;
}

/** Go's "is the zero value" after a typed conversion, approximated on JSON: null, "", 0, false, all-zero objects. */
function isZero(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return true;
  const r = record(v);
  return r !== undefined && Object.values(r).every(isZero);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * `clusterClassNamesFromTemplate`: for every `cluster.x-k8s.io` Cluster with a topology, the class it uses.
 * v1beta2: `spec.topology.classRef.{name,namespace}`; v1beta1: `spec.topology.{class,classNamespace}`; the namespace
 * defaults to the Cluster's. No de-duplication; other versions are ignored.
 */
export function clusterClassReferences(objects: KubeObject[]): ClusterClassReference[] {
  const refs: ClusterClassReference[] = [];
  for (const obj of objects) {
    if (obj.kind !== 'Cluster' || typeof obj.apiVersion !== 'string') continue;
    const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/', 2) : ['', obj.apiVersion];
    if (group !== 'cluster.x-k8s.io') continue;
    const ns = str(record(obj.metadata)?.namespace);
    const topology = record(record(obj.spec)?.topology);
    if (version === 'v1beta1') {
      if (record(obj.spec)?.topology === undefined || record(obj.spec)?.topology === null) continue;
      refs.push({ name: str(topology?.class), namespace: str(topology?.classNamespace) || ns });
    } else if (version === 'v1beta2') {
      if (isZero(record(obj.spec)?.topology)) continue;
      const classRef = record(topology?.classRef);
      refs.push({ name: str(classRef?.name), namespace: str(classRef?.namespace) || ns });
    }
  }
  return refs;
}

/** Reads and renders `clusterclass-<name>.yaml` into `namespace`; throws clusterctl's read errors. */
export type ClusterClassFetcher = (className: string, classNamespace: string) => Template;

/**
 * What a reachable management cluster with Cluster API installed knows (only library users and test fixtures have
 * one; capiform itself never reads a cluster).
 */
export interface ExistingObjects {
  clusterClassExists(name: string, namespace: string): boolean;
  objectExists(obj: KubeObject): boolean;
}

/** `clusterClassExists`: a ClusterClass with this name and namespace is among `existing`. */
export function clusterClassExists(existing: { name: string; namespace: string }[], name: string, namespace: string): boolean {
  return existing.some((c) => c.name === name && c.namespace === namespace);
}

function gvkString(obj: KubeObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  return `${group}/${version}, Kind=${String(obj.kind ?? '')}`;
}

/**
 * `addClusterClassIfMissing`: every referenced class is fetched (no de-duplication) and merged in front of the
 * template. With `existing` (an initialized management cluster) classes that exist are skipped and a class template
 * whose objects already exist is an error. `--list-variables` templates have no objects, so no class is ever added.
 */
export function addClusterClassIfMissing(
  template: Template,
  fetch: ClusterClassFetcher,
  existing?: ExistingObjects,
): Template {
  const refs = clusterClassReferences(template.objects);
  if (refs.length === 0) return template;
  const classes: Template[] = [];
  // capiform deviation (documented): a class the template itself defines counts as existing. clusterctl would fail
  // to fetch clusterclass-<name>.yaml for such templates (e.g. CAPA's *-clusterclass flavors) without a cluster.
  const own = new Set(
    template.objects
      .filter((o) => o.kind === 'ClusterClass')
      .map((o) => `${str(record(o.metadata)?.namespace)}/${str(record(o.metadata)?.name)}`),
  );
  for (const ref of refs) {
    if (own.has(`${ref.namespace}/${ref.name}`)) continue;
    if (existing?.clusterClassExists(ref.name, ref.namespace)) continue;
    let t: Template;
    try {
      t = fetch(ref.name, ref.namespace);
    } catch (err) {
      throw wrapAny(err, `failed to get the cluster class template for "${ref.namespace}/${ref.name}"`);
    }
    if (existing) {
      for (const obj of t.objects) {
        if (existing.objectExists(obj)) {
          const m = record(obj.metadata);
          const ns = str(m?.namespace);
          const key = ns ? `${ns}/${str(m?.name)}` : str(m?.name);
          throw new InputError(`${key}(${gvkString(obj)}) already exists in the cluster`);
        }
      }
    }
    classes.push(t);
  }
  const merged = mergeTemplates(...classes);
  return merged ? (mergeTemplates(merged, template) ?? template) : template;
}

/** Name of a ClusterClass template file (`GetClusterClassTemplateName`). */
export function clusterClassTemplateName(name: string): string {
  return clusterClassFileName(name);
}

/** Name of a cluster template file (`GetTemplateName`); the version is ignored. */
export function clusterTemplateName(flavor?: string): string {
  return templateFileName(flavor);
}

// ---------------------------------------------------------------------------------------------------------------
// renderClusterTemplate: the Render API used by the pipeline
// ---------------------------------------------------------------------------------------------------------------

export interface RenderClusterTemplateInput {
  raw: string;
  source?: string;
  targetNamespace: string;
  variables: VariableLookup;
  /** Returns `clusterclass-<name>.yaml` of the same provider and version, or `null` when it does not exist. */
  clusterClass?: (className: string, classNamespace: string) => { raw: string; source: string } | null;
  listVariablesOnly?: boolean;
}

export interface RenderedClusterTemplate {
  objects: KubeObject[];
  entries: ManifestEntry[];
  yaml(style?: OutputStyle): string;
  variables: string[];
  variableMap: Record<string, string | null>;
  targetNamespace: string;
}

/** A template from a provider repository: NewTemplate, then ClusterClass auto-inclusion (spec §3.1, §3.5). */
export function renderClusterTemplate(input: RenderClusterTemplateInput): RenderedClusterTemplate {
  const template = newTemplate({
    raw: input.raw,
    source: input.source,
    targetNamespace: input.targetNamespace,
    variables: input.variables,
    skipTemplateProcess: input.listVariablesOnly,
  });
  const reader = input.clusterClass;
  if (!reader) return template;
  return addClusterClassIfMissing(template, (name, namespace) => {
    const file = clusterClassTemplateName(name);
    const found = reader(name, namespace);
    if (found === null) throw new ResolutionError(`failed to read "${file}" from the provider's repository`);
    return newTemplate({ raw: found.raw, source: found.source, targetNamespace: namespace, variables: input.variables });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// --list-variables outputs (cmd/clusterctl/cmd/util.go printVariablesOutput, generate_yaml.go)
// ---------------------------------------------------------------------------------------------------------------

/** clusterctl's `--list-variables` table: `tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.FilterHTML)`. */
const variablesTable: TabwriterOptions = { minwidth: 0, tabwidth: 4, padding: 2, padchar: ' ', filterHtml: true };

/**
 * The `--list-variables` table of `text`, whose lines each hold one tab at most: a line's first tab ends its only
 * column cell, anything after it is the line's last cell.
 */
export function variablesTableText(text: string): string {
  const lines = text.split('\n').map((l) => {
    const t = l.indexOf('\t');
    return t < 0 ? [l] : [l.slice(0, t), l.slice(t + 1)];
  });
  return tabwriteRows(lines, variablesTable).slice(0, -1);
}

export interface ListVariablesOptions {
  clusterName: string;
  targetNamespace?: string;
  kubernetesVersion?: string;
  controlPlaneMachineCount?: number | string;
  workerMachineCount?: number | string;
  /** The OS environment only (`os.LookupEnv`): clusterctl does not consult the config file here. */
  env: Record<string, string | undefined>;
}

/** `generate cluster --list-variables` output (spec §3.4), ending with the blank line clusterctl prints. */
export function formatClusterVariables(variableMap: Record<string, string | null>, opts: ListVariablesOptions): string {
  const required: string[] = [];
  const optional: [string, string][] = [];
  const envHas = (k: string): boolean => Object.hasOwn(opts.env, k) && opts.env[k] !== undefined;
  for (const [name, def] of Object.entries(variableMap)) {
    let value: string | null = def;
    if (value !== null && value.length > 0 && !value.startsWith('"')) value = goQuote(value);
    switch (name) {
      case 'CLUSTER_NAME':
        value = opts.clusterName;
        break;
      case 'NAMESPACE':
        value = opts.targetNamespace ? opts.targetNamespace : 'current Namespace in the KubeConfig file';
        break;
      case 'CONTROL_PLANE_MACHINE_COUNT':
        value =
          opts.controlPlaneMachineCount !== undefined
            ? String(opts.controlPlaneMachineCount)
            : envHas(name)
              ? (opts.env[name] as string)
              : '1';
        break;
      case 'WORKER_MACHINE_COUNT':
        value =
          opts.workerMachineCount !== undefined
            ? String(opts.workerMachineCount)
            : envHas(name)
              ? (opts.env[name] as string)
              : '0';
        break;
      case 'KUBERNETES_VERSION':
        if (opts.kubernetesVersion) value = opts.kubernetesVersion;
        else if (envHas(name)) value = opts.env[name] as string;
        break;
    }
    if (value !== null) optional.push([name, value]);
    else required.push(name);
  }
  required.sort(compareGoStrings);
  optional.sort(([a], [b]) => compareGoStrings(a, b));
  let out = '';
  if (required.length > 0) {
    out += 'Required Variables:\n';
    for (const v of required) out += `  - ${v}\n`;
  }
  if (optional.length > 0) {
    out += '\nOptional Variables:\n';
    out += variablesTableText(optional.map(([n, v]) => `  - ${n}\t(defaults to ${v})\n`).join(''));
  }
  return `${out}\n`;
}

/** `generate yaml --list-variables` output: `Variables:` and one `  - NAME` per line, or a single empty line. */
export function formatYamlVariables(variables: string[]): string {
  if (variables.length === 0) return '\n';
  return `Variables:\n${variables.map((v) => `  - ${v}\n`).join('')}`;
}
