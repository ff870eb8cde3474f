/**
 * Argo CD glue for the tree: one Application per provider, ClusterClass directory and cluster (an "app of apps"
 * under `argocd/apps/`), or one ApplicationSet generating the same Applications; plus `argocd/root.yaml`, the one
 * Application applied by hand that syncs `argocd/apps/`. Pure: data in, files out.
 */
import { posix } from 'node:path';
import { compareGoStrings } from '../../go/index.js';
import { InputError } from '../../errors.js';
import { emitYaml } from './emit.js';
import { kustomizationFor, syncWaveAnnotation } from './kustomization.js';
import { argoAppName } from './names.js';

export type ArgoCdMode = 'applications' | 'applicationset';
export type ArgoCdGenerator = 'list' | 'git';
export type ArgoCdDestination = { server: string } | { name: string };

export interface ArgoCdProvider {
  /** Manifest label: `cluster-api`, `bootstrap-kubeadm`, …; `cert-manager` for the cert-manager directory. */
  label: string;
  /** Directory relative to the tree root, e.g. `providers/cluster-api`. */
  dir: string;
  wave: number;
}

export interface ArgoCdNamespaced {
  namespace: string;
  name: string;
  /** Directory relative to the tree root, e.g. `clusters/team-a/prod-1`. */
  dir: string;
  wave: number;
}

/** The settings every piece of capiform's Argo CD glue shares. */
export type ArgoCdSettings = Pick<ArgoCdInput, 'repoURL' | 'targetRevision' | 'project' | 'argocdNamespace' | 'namePrefix' | 'automated' | 'header'>;

export interface ArgoCdInput {
  /** Git repository Argo CD reads the tree from. */
  repoURL: string;
  targetRevision: string;
  /** Path of the tree root inside the repository (`''` when the config file sits at the repository root). */
  pathPrefix?: string;
  providers: readonly ArgoCdProvider[];
  /** Directories holding ClusterClasses on their own, when the tree shares one ClusterClass between clusters. */
  clusterClasses?: readonly ArgoCdNamespaced[];
  clusters: readonly ArgoCdNamespaced[];
  /** Folders declaring the workload clusters' Namespaces (`clusters/<namespace>`), synced before ClusterClasses and clusters. */
  namespaces?: readonly { namespace: string; dir: string; wave: number }[];
  mode: ArgoCdMode;
  /** ApplicationSet only: a list generator (default) or git directory generators over the same directories. */
  generator?: ArgoCdGenerator;
  /** Argo CD project (default `default`). */
  project?: string;
  /** Where the manifests go (default the cluster Argo CD runs in: `https://kubernetes.default.svc`). */
  destination?: ArgoCdDestination;
  /** Namespace the Application objects live in (default `argocd`). */
  argocdNamespace?: string;
  /** Prefix of every generated Application name (default `capi-`). */
  namePrefix?: string;
  /**
   * Automated sync for the generated Applications (default `{ prune: false, selfHeal: true }`; `false` = manual).
   * Prune is off by default: pruning a provider CRD deletes every object of that kind, and pruning a Cluster deletes
   * its machines; turn it on once you trust the pipeline.
   */
  automated?: false | { prune: boolean; selfHeal: boolean };
  /** Directory of the glue inside the tree (default `argocd`). */
  outDir?: string;
  /** A one-line comment written first in every file, without the leading `# `. */
  header?: string;
}

export interface TreeFile {
  /** Path relative to the tree root, `/`-separated. */
  path: string;
  content: string;
}

type Component = 'cert-manager' | 'provider' | 'namespace' | 'clusterclass' | 'cluster';

interface AppModel {
  name: string;
  component: Component;
  /** Path inside the git repository. */
  path: string;
  wave: number;
  namespace?: string;
  /** Who asked for it, for error messages. */
  what: string;
}

export const managedBy = { 'app.kubernetes.io/managed-by': 'capiform' } as const;
const componentLabel = 'capiform.io/component';
const waveLabel = 'capiform.io/sync-wave';

/**
 * Sync options per kind of directory.
 * - `CreateNamespace=false`: every namespace comes from the tree (components carry their Namespace), never from Argo CD.
 * - `ServerSideApply=true` for provider directories: client-side apply stores the whole object in the
 *   `kubectl.kubernetes.io/last-applied-configuration` annotation, and annotations are limited to 256 KiB in total;
 *   CAPI's KubeadmControlPlane CRD is 266 KB as compact JSON in v1.12 and several others are near 200 KB, so the sync
 *   fails (or will, after the next CRD growth) with "metadata.annotations: Too long". Server-side apply keeps no
 *   such annotation.
 * - `SkipDryRunOnMissingResource=true` where objects arrive in the same sync as the CRDs that define them (clusters
 *   and ClusterClasses on a fresh management cluster; providers' Issuer/Certificate before cert-manager's CRDs):
 *   otherwise Argo CD's dry run fails with "the server could not find the requested resource" before anything is
 *   applied, and the waves never get a chance to run.
 */
const syncOptionsFor: Record<Component, readonly string[]> = {
  'cert-manager': ['CreateNamespace=false', 'ServerSideApply=true'],
  provider: ['CreateNamespace=false', 'ServerSideApply=true', 'SkipDryRunOnMissingResource=true'],
  namespace: ['CreateNamespace=false'],
  clusterclass: ['CreateNamespace=false', 'SkipDryRunOnMissingResource=true'],
  cluster: ['CreateNamespace=false', 'SkipDryRunOnMissingResource=true'],
};

/**
 * Fields other controllers own, which would otherwise keep provider Applications OutOfSync forever:
 * - cert-manager's cainjector writes the CA bundle into CRD conversion webhooks and webhook configurations
 *   (`cert-manager.io/inject-ca-from` / `inject-ca-from-secret`); the tree never has it.
 * - kube-controller-manager fills the `rules` of aggregated ClusterRoles (those with an `aggregationRule`) from the
 *   ClusterRoles they select; the tree has none or different ones. Plain ClusterRoles are still compared.
 */
const providerIgnoreDifferences: readonly Record<string, unknown>[] = [
  {
    group: 'apiextensions.k8s.io',
    kind: 'CustomResourceDefinition',
    jsonPointers: ['/spec/conversion/webhook/clientConfig/caBundle'],
  },
  {
    group: 'admissionregistration.k8s.io',
    kind: 'MutatingWebhookConfiguration',
    jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'],
  },
  {
    group: 'admissionregistration.k8s.io',
    kind: 'ValidatingWebhookConfiguration',
    jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'],
  },
  {
    group: 'rbac.authorization.k8s.io',
    kind: 'ClusterRole',
    jqPathExpressions: ['select(.aggregationRule != null) | .rules'],
  },
];

const ignoreDifferencesFor: Record<Component, readonly Record<string, unknown>[]> = {
  'cert-manager': providerIgnoreDifferences,
  provider: providerIgnoreDifferences,
  namespace: [],
  clusterclass: [],
  cluster: [],
};

/**
 * Sync retries: a provider's webhook Service answers only after its Deployment is ready, so the first attempt to
 * apply a ClusterClass or Cluster right after the providers can be refused ("failed calling webhook"); retrying
 * with backoff lets the stack converge from an empty management cluster without manual syncs.
 */
const retry = { limit: 10, backoff: { duration: '15s', factor: 2, maxDuration: '5m' } } as const;

/** Every file of the Argo CD glue, sorted by path. */
export function argocdManifests(input: ArgoCdInput): TreeFile[] {
  const outDir = checkDir(input.outDir ?? 'argocd', 'outDir');
  const prefix = input.pathPrefix === undefined || input.pathPrefix === '.' ? '' : checkDir(input.pathPrefix, 'pathPrefix');
  const apps = appModels(input, prefix);
  const appsDir = `${outDir}/apps`;
  const files: TreeFile[] = [];
  if (input.mode === 'applications') {
    const names: string[] = [];
    for (const app of apps) {
      names.push(`${app.name}.yaml`);
      files.push({ path: `${appsDir}/${app.name}.yaml`, content: emitYaml([application(input, app)], input.header) });
    }
    files.push({ path: `${appsDir}/kustomization.yaml`, content: kustomizationFor(names, headerOpt(input)) });
  } else if (input.mode === 'applicationset') {
    files.push({ path: `${appsDir}/applicationset.yaml`, content: emitYaml([applicationSet(input, apps)], input.header) });
    files.push({ path: `${appsDir}/kustomization.yaml`, content: kustomizationFor(['applicationset.yaml'], headerOpt(input)) });
  } else {
    throw new Error(`argocdManifests: unknown mode ${String(input.mode)}`);
  }
  files.push({ path: `${outDir}/root.yaml`, content: emitYaml([rootApplication(input, joinPath(prefix, appsDir))], input.header) });
  return files.sort((a, b) => compareGoStrings(a.path, b.path));
}

export function headerOpt(input: ArgoCdSettings): { header?: string } {
  return input.header === undefined ? {} : { header: input.header };
}

function appModels(input: ArgoCdInput, prefix: string): AppModel[] {
  const namePrefix = input.namePrefix ?? 'capi-';
  const apps: AppModel[] = [];
  for (const p of input.providers) {
    const component: Component = p.label === 'cert-manager' ? 'cert-manager' : 'provider';
    apps.push(model(namePrefix, [p.label], component, p.dir, p.wave, prefix, `provider ${p.label}`));
  }
  for (const n of input.namespaces ?? []) {
    apps.push(model(namePrefix, ['namespace', n.namespace], 'namespace', n.dir, n.wave, prefix, `namespace ${n.namespace}`));
  }
  for (const c of input.clusterClasses ?? []) {
    apps.push({
      ...model(namePrefix, ['clusterclass', c.namespace, c.name], 'clusterclass', c.dir, c.wave, prefix, `ClusterClass ${c.namespace}/${c.name}`),
      namespace: c.namespace,
    });
  }
  for (const c of input.clusters) {
    apps.push({
      ...model(namePrefix, ['cluster', c.namespace, c.name], 'cluster', c.dir, c.wave, prefix, `cluster ${c.namespace}/${c.name}`),
      namespace: c.namespace,
    });
  }
  const byName = new Map<string, AppModel>();
  for (const app of apps) {
    const other = byName.get(app.name);
    if (other !== undefined) {
      throw new InputError(`Argo CD Application name "${app.name}" is used by both ${other.what} and ${app.what}`, {
        hint: 'rename one of them, or set argocd.namePrefix so the generated names differ',
      });
    }
    byName.set(app.name, app);
  }
  // Waves first, then names: the order Argo CD syncs them in, and a stable order for lists.
  return apps.sort((a, b) => a.wave - b.wave || compareGoStrings(a.name, b.name));
}

function model(namePrefix: string, parts: string[], component: Component, dir: string, wave: number, prefix: string, what: string): AppModel {
  if (!Number.isInteger(wave)) throw new Error(`argocdManifests: the sync wave of ${what} must be an integer, got ${wave}`);
  const name = argoAppName([namePrefix + parts[0], ...parts.slice(1)]);
  return { name, component, path: joinPath(prefix, checkDir(dir, `dir of ${what}`)), wave, what };
}

function metadata(name: string, namespace: string, labels: Record<string, string>, annotations?: Record<string, string>) {
  return annotations === undefined ? { name, namespace, labels } : { name, namespace, labels, annotations };
}

function destinationOf(input: ArgoCdInput, namespace?: string): Record<string, string> {
  const dest: Record<string, string> = { ...(input.destination ?? { server: 'https://kubernetes.default.svc' }) };
  if (namespace !== undefined) dest.namespace = namespace;
  return dest;
}

function syncPolicy(input: ArgoCdSettings, component: Component | undefined): Record<string, unknown> {
  const policy: Record<string, unknown> = {};
  const automated = input.automated ?? { prune: false, selfHeal: true };
  if (automated !== false) policy.automated = { prune: automated.prune, selfHeal: automated.selfHeal };
  if (component !== undefined) policy.syncOptions = [...syncOptionsFor[component]];
  policy.retry = retry;
  return policy;
}

function application(input: ArgoCdInput, app: AppModel): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    project: input.project ?? 'default',
    source: { repoURL: input.repoURL, targetRevision: input.targetRevision, path: app.path },
    destination: destinationOf(input, app.namespace),
    syncPolicy: syncPolicy(input, app.component),
  };
  const ignore = ignoreDifferencesFor[app.component];
  if (ignore.length > 0) spec.ignoreDifferences = ignore;
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: metadata(
      app.name,
      input.argocdNamespace ?? 'argocd',
      { ...managedBy, [componentLabel]: app.component, [waveLabel]: String(app.wave) },
      { [syncWaveAnnotation]: String(app.wave) },
    ),
    spec,
  };
}

export function rootApplication(input: ArgoCdSettings, appsPath: string): Record<string, unknown> {
  const namespace = input.argocdNamespace ?? 'argocd';
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: metadata(argoAppName([`${input.namePrefix ?? 'capi-'}root`]), namespace, { ...managedBy }),
    spec: {
      project: input.project ?? 'default',
      source: { repoURL: input.repoURL, targetRevision: input.targetRevision, path: appsPath },
      // The Applications live next to Argo CD, whatever cluster they deploy to.
      destination: { server: 'https://kubernetes.default.svc', namespace },
      // Pruning here removes an Application object, never what it deployed: generated Applications carry no
      // resources-finalizer, so a provider or cluster removed from the config is left running until removed by hand.
      syncPolicy: { automated: { prune: true, selfHeal: true } },
    },
  };
}

/** Go-template expressions for the ApplicationSet template, per generator. */
export interface TemplateFields {
  /** The whole template text of the Application name (it may need more than one expression). */
  name: string;
  path: string;
  component: string;
  wave: string;
  namespace: string;
}

function applicationSet(input: ArgoCdInput, apps: AppModel[]): Record<string, unknown> {
  const generator = input.generator ?? 'list';
  const fields: TemplateFields =
    generator === 'list'
      ? { name: '{{ .name }}', path: '.path', component: '.component', wave: '.wave', namespace: '.namespace' }
      : { name: '{{ .values.name }}', path: '.path.path', component: '.values.component', wave: '.values.wave', namespace: '.values.namespace' };
  const generators = generator === 'list' ? [listGenerator(apps)] : gitGenerators(input, apps);
  const waves = [...new Set(apps.map((a) => a.wave))];
  return applicationSetObject(input, { name: argoAppName([`${input.namePrefix ?? 'capi-'}stack`]), generators, fields, waves, labels: {}, destination: destinationOf(input) });
}

/** What differs between capiform's ApplicationSets: the generators and how the template reads their parameters. */
export interface ApplicationSetShape {
  name: string;
  generators: Record<string, unknown>[];
  fields: TemplateFields;
  /** The sync waves the generated Applications have (one RollingSync step each, in order). */
  waves: readonly number[];
  /** Labels of every generated Application besides capiform's own (template text allowed). */
  labels: Record<string, string>;
  destination: Record<string, string>;
}

/** An ApplicationSet stamping the Applications its generators describe, with capiform's sync settings. */
export function applicationSetObject(input: ArgoCdSettings, shape: ApplicationSetShape): Record<string, unknown> {
  const { fields } = shape;
  const waves = [...new Set(shape.waves)].sort((a, b) => a - b);
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: metadata(shape.name, input.argocdNamespace ?? 'argocd', { ...managedBy }),
    spec: {
      goTemplate: true,
      goTemplateOptions: ['missingkey=error'],
      generators: shape.generators,
      // Progressive sync: one step per wave, in order; a step starts when every Application of the earlier steps is
      // Healthy, across the whole ApplicationSet. Needs the ApplicationSet controller's progressive syncs enabled
      // (see docs/argocd-rollout.md).
      strategy: {
        type: 'RollingSync',
        rollingSync: {
          steps: waves.map((w) => ({ matchExpressions: [{ key: waveLabel, operator: 'In', values: [String(w)] }] })),
        },
      },
      // Deleting the ApplicationSet (or dropping an element) must never cascade into provider CRDs or clusters.
      syncPolicy: { preserveResourcesOnDeletion: true },
      template: {
        metadata: {
          name: fields.name,
          // The wave is a label here: RollingSync selects on labels; a sync-wave annotation would mean nothing, as
          // generated Applications are not part of a parent Application's sync.
          labels: { ...managedBy, [componentLabel]: `{{ ${fields.component} }}`, [waveLabel]: `{{ ${fields.wave} }}`, ...shape.labels },
        },
        spec: {
          project: input.project ?? 'default',
          source: { repoURL: input.repoURL, targetRevision: input.targetRevision, path: `{{ ${fields.path} }}` },
          destination: shape.destination,
          // With progressive syncs on, Argo CD turns `automated` off here (so selfHeal is lost) and syncs on each
          // step itself, reading `automated.prune` for those syncs; with them off, RollingSync is ignored and this
          // is what syncs. docs/argocd-rollout.md.
          syncPolicy: syncPolicy(input, undefined),
        },
      },
      templatePatch: templatePatch(fields),
    },
  };
}

function listGenerator(apps: AppModel[]): Record<string, unknown> {
  return {
    list: {
      elements: apps.map((a) => ({
        name: a.name,
        component: a.component,
        path: a.path,
        wave: String(a.wave),
        namespace: a.namespace ?? '',
      })),
    },
  };
}

/**
 * One git directory generator per Application, carrying its name, component, wave and namespace as `values`
 * (Argo CD ≥ 2.9), so names never depend on how deep the tree sits in the repository. The generator still checks
 * that each directory exists at `targetRevision`: an Application whose directory is gone is removed.
 */
function gitGenerators(input: ArgoCdInput, apps: AppModel[]): Record<string, unknown>[] {
  return apps.map((a) => ({
    git: {
      repoURL: input.repoURL,
      revision: input.targetRevision,
      directories: [{ path: a.path }],
      values: { name: a.name, component: a.component, wave: String(a.wave), namespace: a.namespace ?? '' },
    },
  }));
}

/** Per-component sync options, destination namespace and ignoreDifferences, as one Go-templated patch. */
function templatePatch(fields: TemplateFields): string {
  const components: Component[] = ['cert-manager', 'provider', 'namespace', 'clusterclass', 'cluster'];
  const lines: string[] = [];
  components.forEach((component, i) => {
    lines.push(`{{- ${i === 0 ? 'if' : 'else if'} eq ${fields.component} "${component}" }}`);
    const spec: Record<string, unknown> = {};
    if (component === 'cluster' || component === 'clusterclass') spec.destination = { namespace: `{{ ${fields.namespace} }}` };
    spec.syncPolicy = { syncOptions: [...syncOptionsFor[component]] };
    const ignore = ignoreDifferencesFor[component];
    if (ignore.length > 0) spec.ignoreDifferences = ignore;
    lines.push(emitYaml([{ spec }]).trimEnd());
  });
  lines.push('{{- end }}');
  return `${lines.join('\n')}\n`;
}

export function joinPath(prefix: string, dir: string): string {
  return prefix === '' ? dir : posix.join(prefix, dir);
}

export function checkDir(dir: string, what: string): string {
  const d = dir.replace(/^\.\//, '').replace(/\/+$/, '');
  if (d === '' || d.startsWith('/') || d.includes('\\') || d.split('/').some((s) => s === '..' || s === '' || s === '.')) {
    throw new Error(`argocdManifests: ${what} "${dir}" must be a relative path inside the repository`);
  }
  return d;
}

