/**
 * A fleet's ApplicationSets (`argocd: { mode: 'applicationset', generator: 'clusters' }`), one per management cluster,
 * in one file: a cluster generator picks the management cluster registered in Argo CD with the
 * `capiform.io/management-cluster` label naming it, crossed (matrix generator) with git generators over its
 * `targets/<name>/` folders, so each object stamps one management cluster's providers, namespaces, ClusterClasses and
 * clusters. One object per management cluster because RollingSync's steps are global to an ApplicationSet: in a
 * single one, a management cluster whose wave is not Healthy would hold the later waves of every other
 * (docs/argocd-rollout.md). Nothing depends on which workload clusters exist.
 */
import { compareGoStrings } from '../../go/index.js';
import { emitYaml } from './emit.js';
import { kustomizationFor } from './kustomization.js';
import { argoAppName, maxAppNameLength } from './names.js';
import { applicationSetObject, checkDir, headerOpt, joinPath, rootApplication, type ArgoCdSettings, type TreeFile } from './applications.js';
import { syncWaves } from './waves.js';

/** The label on an Argo CD cluster Secret naming the management cluster (`targets/<name>/`) it is. */
export const managementClusterLabel = 'capiform.io/management-cluster';

export interface FleetArgoCdInput extends ArgoCdSettings {
  /** Path of the config directory inside the repository (`''` at the repository root); trees are under `targets/`. */
  pathPrefix?: string;
  /** Directory of the glue inside the tree (default `argocd`). */
  outDir?: string;
  /** The management clusters (`managementClusters` names, `targets/<name>/`): one ApplicationSet each. */
  targets: readonly string[];
}

/** The Go-template expression of the management cluster's name: its Argo CD cluster's label. */
const targetExpr = `index .metadata.labels "${managementClusterLabel}"`;

/** One kind of directory of every management cluster's tree, and what its Applications are. */
interface DirectoryKind {
  /** Below `targets/<name>/`: `*` matches one path segment. */
  pattern: string;
  /** Also below `targets/<name>/`: directories the pattern matches that are someone else's. */
  exclude?: string[];
  /** A git files generator on this file name inside each directory, instead of a directories generator. */
  file?: string;
  component: 'cert-manager' | 'provider' | 'namespace' | 'clusterclass' | 'cluster';
  wave: number;
  /** The word after `<namePrefix><target>-` in the Application name (as the per-target Applications have it). */
  word: string;
}

/**
 * Every directory the per-target Applications point at, by kind. Namespace folders are found by their
 * `namespace.yaml`: `clusters/<namespace>/` also exists for namespaces the tree does not declare (`default`, or a
 * provider's), and those must not become Applications.
 */
const kinds: readonly DirectoryKind[] = [
  { pattern: 'providers/cert-manager', component: 'cert-manager', wave: syncWaves.certManager, word: '' },
  { pattern: 'providers/cluster-api', component: 'provider', wave: syncWaves.core, word: '' },
  { pattern: 'providers/*', exclude: ['providers/cert-manager', 'providers/cluster-api'], component: 'provider', wave: syncWaves.providers, word: '' },
  { pattern: 'clusters/*', file: 'namespace.yaml', component: 'namespace', wave: syncWaves.namespaces, word: 'namespace' },
  { pattern: 'clusterclasses/*/*', component: 'clusterclass', wave: syncWaves.clusterClasses, word: 'clusterclass' },
  { pattern: 'clusters/*/*', component: 'cluster', wave: syncWaves.clusters, word: 'cluster' },
];

/** `argocd/root.yaml`, `argocd/apps/applicationset.yaml` and its kustomization, sorted by path. */
export function fleetArgocdManifests(input: FleetArgoCdInput): TreeFile[] {
  const outDir = checkDir(input.outDir ?? 'argocd', 'outDir');
  const prefix = input.pathPrefix === undefined || input.pathPrefix === '.' ? '' : checkDir(input.pathPrefix, 'pathPrefix');
  const appsDir = `${outDir}/apps`;
  const files: TreeFile[] = [
    { path: `${appsDir}/applicationset.yaml`, content: emitYaml([...input.targets].sort(compareGoStrings).map((t) => fleetApplicationSet(input, prefix, t)), input.header) },
    { path: `${appsDir}/kustomization.yaml`, content: kustomizationFor(['applicationset.yaml'], headerOpt(input)) },
    { path: `${outDir}/root.yaml`, content: emitYaml([rootApplication(input, joinPath(prefix, appsDir))], input.header) },
  ];
  return files.sort((a, b) => compareGoStrings(a.path, b.path));
}

function fleetApplicationSet(input: FleetArgoCdInput, prefix: string, target: string): Record<string, unknown> {
  const namePrefix = input.namePrefix ?? 'capi-';
  // `.path.segments` of a directory: the prefix's segments, `targets`, the name, the kind's folder, then its own.
  const first = (prefix === '' ? 0 : prefix.split('/').length) + 3;
  const targetsDir = joinPath(prefix, `targets/{{ ${targetExpr} }}`);
  const generators = kinds.map((k) => ({
    matrix: {
      generators: [
        { clusters: { selector: { matchExpressions: [{ key: managementClusterLabel, operator: 'In', values: [target] }] } } },
        { git: gitGenerator(input, targetsDir, k) },
      ],
    },
  }));
  return applicationSetObject(input, {
    name: argoAppName([`${namePrefix}fleet`, target]),
    generators,
    fields: {
      name: appNameTemplate(namePrefix, first),
      path: '.path.path',
      component: '.values.component',
      wave: '.values.wave',
      namespace: `index .path.segments ${first}`,
    },
    waves: kinds.map((k) => k.wave),
    labels: { [managementClusterLabel]: `{{ ${targetExpr} }}` },
    // The management cluster the generator found: Argo CD deploys there, wherever Argo CD itself runs.
    destination: { server: '{{ .server }}' },
  });
}

function gitGenerator(input: FleetArgoCdInput, targetsDir: string, k: DirectoryKind): Record<string, unknown> {
  const values = { component: k.component, wave: String(k.wave), word: k.word };
  const base = { repoURL: input.repoURL, revision: input.targetRevision };
  if (k.file !== undefined) return { ...base, files: [{ path: `${targetsDir}/${k.pattern}/${k.file}` }], values };
  const directories = [{ path: `${targetsDir}/${k.pattern}` }, ...(k.exclude ?? []).map((e) => ({ path: `${targetsDir}/${e}`, exclude: true }))];
  return { ...base, directories, values };
}

/**
 * The Application name as the per-target Applications have it (./names.ts `argoAppName`), in Go's text/template with
 * sprig: `<namePrefix><target>-<word>-<segments after the kind's folder>`, made a DNS label, and past 63 characters
 * cut to 54 plus `-` and 8 hex digits of the SHA-256 of the joined name.
 */
function appNameTemplate(namePrefix: string, first: number): string {
  const cut = maxAppNameLength - 9;
  return [
    `{{- $joined := printf "%s%s-%s" ${JSON.stringify(namePrefix)} (${targetExpr}) (join "-" (compact (concat (list .values.word) (slice .path.segments ${first})))) -}}`,
    `{{- $name := regexReplaceAll "^-+|-+$" (regexReplaceAll "-{2,}" (regexReplaceAll "[^a-z0-9-]+" (lower $joined) "-") "-") "" -}}`,
    `{{- if le (len $name) ${maxAppNameLength} }}{{ $name }}{{ else }}{{ regexReplaceAll "-+$" (trunc ${cut} $name) "" }}-{{ trunc 8 (sha256sum $joined) }}{{ end -}}`,
  ].join('');
}
