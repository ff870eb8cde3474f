/**
 * A door of its own, so that commands which never validate do not load the schema and CEL checks. What
 * `capiform validate` reads: the manifests named on the command line (or the project's rendered tree), the
 * CRDs and OpenAPI documents of `--schemas`, and the project's rendered provider components; then the pure checks of
 * src/validate.
 */
import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { manifestLabel } from '../../capi/index.js';
import { InputError } from '../../errors.js';
import type { ResolvedConfig } from '../../config/index.js';
import { lockFileName, readLockedProviders } from '../../lock/index.js';
import { checkConfinedFile, fileKindOf, MAX_MANIFEST_SIZE, readTextFile, splitDocuments } from '../../yaml/index.js';
import { treeRoots } from '../../render/index.js';
import { featureGateFindings, featureGateFindingsByTree, formatFinding, isCrd, isRecord, managerGatesOf, type ProviderConfigPaths, type ProviderVariables, type SourceObject, lintProviderRelease, topologyExpandedObjects, readManifest, reportOf, schemaCatalogOf, sortFindings, validateManifests, webhookCreateFindings, type Finding, type ManifestFile, type ValidationReport } from '../../validate/index.js';
import { manifestFiles } from '../plan-inputs/index.js';
import { builtInSchemas } from './kubernetes-models.js';

export { builtInSchemas };

export interface ValidateRequest {
  /** Where relative paths are read from and reported against. */
  cwd: string;
  /** Files or folders of manifests; empty: the project's rendered tree under `projectDir`. */
  paths: readonly string[];
  /** Files or folders of CRDs (provider components) and Kubernetes OpenAPI v3 documents. */
  schemas: readonly string[];
  /** The project's root (the config's folder): its rendered `providers/` declare the CRDs. */
  projectDir?: string;
  /** Each provider's config entry by label (`cluster-api` → `providers.core`), per tree (`''`, `targets/<name>/`): named in fixes. */
  providerConfigPaths?: Readonly<Record<string, ProviderConfigPaths>>;
  /** Each provider's variables by label, per tree: what an operator provider's config Secret holds. */
  providerVariables?: Readonly<Record<string, ProviderVariables>>;
}

/** `providerConfigPaths` of a loaded config: its own providers, or each management cluster's under `targets/<name>/`. */
export function providerConfigPathsOf(config: ResolvedConfig): Record<string, ProviderConfigPaths> {
  const of = (c: ResolvedConfig): ProviderConfigPaths => Object.fromEntries(c.providers.map((p) => [p.label, p.configPath]));
  if (!config.targets) return { '': of(config) };
  return Object.fromEntries(config.targets.map((t) => [`${t.tree!}/`, of(t)]));
}

/** Each provider's variables (the global ones under its own) by label, per tree, as `providerConfigPathsOf`. */
export function providerVariablesOf(config: ResolvedConfig): Record<string, ProviderVariables> {
  const of = (c: ResolvedConfig): ProviderVariables => Object.fromEntries(c.providers.map((p) => [p.label, { ...c.variables, ...p.variables }]));
  if (!config.targets) return { '': of(config) };
  return Object.fromEntries(config.targets.map((t) => [`${t.tree!}/`, of(t)]));
}

/** The rendered folders whose objects are applied to a management cluster (Argo CD's own glue is not). */
const appliedRoots = treeRoots.filter((r) => r !== 'argocd');
/** kustomize's own file: read by kustomize, never applied. */
const isKustomization = (file: string): boolean => /(^|[/\\])kustomization\.ya?ml$/.test(file);

/** Reads the inputs of a validation and checks them. */
export function validateProject(req: ValidateRequest): ValidationReport {
  const base = req.paths.length > 0 ? req.cwd : (req.projectDir ?? req.cwd);
  const inputPaths = req.paths.length > 0 ? req.paths.map((p) => resolve(req.cwd, p)) : appliedRoots.map((r) => join(base, r)).filter((p) => existsSync(p));
  const inputs = readAll(inputPaths, base, /\.(ya?ml|json)$/);
  const schemaFiles = readAll(req.schemas.map((p) => resolve(req.cwd, p)), req.cwd, /\.(ya?ml|json)$/);
  const providers = req.paths.length > 0 && req.projectDir ? join(req.projectDir, 'providers') : undefined;
  const projectCrds = providers && existsSync(providers) ? readAll([providers], req.cwd, /\.ya?ml$/) : emptyManifest();
  // Without paths, the objects the topology controller would create for the project's clusters are checked too.
  const expanded = req.paths.length === 0 ? topologyExpandedObjects(inputs.objects) : { objects: [], findings: [] };
  const report = validateManifests({
    objects: [...inputs.objects, ...expanded.objects],
    schemaObjects: [...schemaFiles.objects, ...projectCrds.objects],
    openApiDocuments: [...inputs.openApiDocuments, ...schemaFiles.openApiDocuments],
    builtIn: builtInSchemas(),
  });
  // The managers' feature gates decide what their webhooks accept: the tree's own provider Deployments, or the project's.
  const gates = featureGateFindingsByTree([...inputs.objects, ...expanded.objects], [...inputs.objects, ...projectCrds.objects], (tree) => req.providerConfigPaths?.[tree] ?? {}, (tree) => req.providerVariables?.[tree] ?? {});
  const more = [...expanded.findings, ...gates];
  return more.length === 0 ? report : reportOf([...report.findings, ...more], report.objects, report.checked, report.unchecked);
}

/** A file of the committed tree, which a pull request may have replaced by a link out of the project. */
function readTreeFile(dir: string, path: string, prefix: string): string {
  checkConfinedFile(join(dir, path), { root: dir, rootName: 'the project', what: `the tree file ${prefix + path}` });
  return readTextFile(join(dir, path), MAX_MANIFEST_SIZE, 'manifest', prefix + path);
}

function emptyManifest(): ManifestFile {
  return { objects: [], openApiDocuments: [] };
}

function readAll(paths: readonly string[], base: string, names: RegExp): ManifestFile {
  const out = emptyManifest();
  for (const path of paths) {
    for (const file of manifestFiles(path, names)) {
      const source = relative(base, file) || file;
      if (isKustomization(source)) continue;
      const m = readManifest(readTextFile(file, MAX_MANIFEST_SIZE, 'manifest', source), source);
      out.objects.push(...m.objects);
      out.openApiDocuments.push(...m.openApiDocuments);
    }
  }
  return out;
}


export interface ContractRequest {
  cwd: string;
  /** Release folders (`<label>/<version>/`), or folders above them (a clusterctl local repository). */
  paths: readonly string[];
  /** Without paths: the project whose locked providers (local repositories) are linted. */
  projectDir?: string;
}

export interface ContractReport extends ValidationReport {
  /** The releases linted, `infrastructure-docker/v1.12.4`. */
  releases: string[];
  /** Locked providers not linted: their releases are not in a local folder. */
  skipped: string[];
}

/** The provider-contract lint over release folders, or over the project's locked local providers. */
export function lintProviderContracts(req: ContractRequest): ContractReport {
  const folders: string[] = [];
  const skipped: string[] = [];
  if (req.paths.length > 0) {
    for (const p of req.paths) folders.push(...releaseFolders(resolve(req.cwd, p)));
  } else if (req.projectDir) {
    const lockPath = join(req.projectDir, lockFileName);
    if (!existsSync(lockPath)) throw new InputError(`no ${lockFileName} in ${req.projectDir}`, { hint: 'run `capiform lock` first, or pass release folders' });
    for (const p of readLockedProviders(lockPath)) {
      const label = p.label ?? manifestLabel(p.name, p.type);
      if (p.source.kind !== 'local') {
        skipped.push(`${label} ${p.version} (${p.source.kind})`);
        continue;
      }
      // A local source's URL names `<repository>/<label>/<version or latest>/<components file>`.
      folders.push(join(dirname(dirname(resolve(req.projectDir, p.source.url))), p.version));
    }
  }
  const findings: Finding[] = [];
  const releases: string[] = [];
  for (const dir of folders) {
    const files = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
      .map((e) => e.name)
      .sort()
      .map((name) => ({ name, text: readTextFile(join(dir, name), MAX_MANIFEST_SIZE, 'manifest', relative(req.cwd, join(dir, name))) }));
    const release = { label: basename(dirname(dir)), version: basename(dir), files };
    releases.push(`${release.label}/${release.version}`);
    findings.push(...lintProviderRelease(release));
  }
  return { ...reportOf(findings, 0, 0, []), releases, skipped };
}

/** A release folder's name: a version (`v1.12.4`) or clusterctl's `latest`. */
const versionFolder = /^(v?\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]*)?|latest)$/;
/** A provider folder's name in a local repository: a manifest label (`infrastructure-docker`, `cluster-api`) or cert-manager. */
const providerFolder = /^(cluster-api|cert-manager|(bootstrap|control-plane|infrastructure|ipam|runtime-extension|addon)-[a-z0-9]([-a-z0-9]*[a-z0-9])?)$/;

const isRelease = (entries: readonly Dirent[]): boolean =>
  entries.some((e) => e.isFile() && (e.name === 'metadata.yaml' || /components.*\.yaml$/.test(e.name)));

/**
 * The releases a `--contract` path names: a release folder (`<provider>/<version>/`, or a file in one), a provider
 * folder (its version folders) or a local repository (its provider folders' version folders). Anything else is
 * refused from its own listing, before a folder below it is read: `validate --contract /` must not walk the machine.
 */
function releaseFolders(dir: string): string[] {
  if (!existsSync(dir)) throw new InputError(`no such file or directory: ${dir}`, { hint: 'pass a release folder (<provider>/<version>/) or a local repository' });
  const st = statSync(dir);
  if (st.isFile()) return [dirname(dir)];
  if (!st.isDirectory()) {
    throw new InputError(`${dir} is ${fileKindOf(st)}, where a release folder or a local repository is expected`, {
      where: dir,
      hint: 'pass a release folder (<provider>/<version>/) or a local repository',
    });
  }
  const entries = readdirSync(dir, { withFileTypes: true });
  if (isRelease(entries)) return [dir];
  const named = (re: RegExp): string[] => entries.filter((e) => e.isDirectory() && re.test(e.name)).map((e) => e.name).sort();
  const versions = named(versionFolder);
  if (versions.length > 0) return versions.map((v) => join(dir, v)).filter((v) => isRelease(readdirSync(v, { withFileTypes: true })));
  const providers = named(providerFolder);
  if (providers.length > 0) {
    return providers.flatMap((p) => {
      const inner = readdirSync(join(dir, p), { withFileTypes: true });
      return inner
        .filter((e) => e.isDirectory() && versionFolder.test(e.name))
        .map((e) => e.name)
        .sort()
        .map((v) => join(dir, p, v))
        .filter((v) => isRelease(readdirSync(v, { withFileTypes: true })));
    });
  }
  throw new InputError(`${dir} is not a provider release folder, a provider folder or a local repository: nothing below it was read`, {
    where: dir,
    hint: 'pass a release folder (<provider>/<version>/ holding metadata.yaml or a components file), a provider folder (<provider>/ with version folders) or a local repository in clusterctl\'s layout (<provider>/<version>/)',
  });
}

/** Most findings listed in the error of a render that would write invalid objects. */
const maxListedFindings = 20;

/**
 * `render` checks what it is about to write: the ClusterClasses and clusters it rendered again, against the CRDs of
 * the tree's provider components (schema, unknown fields, CEL rules, the autoscaler lint and dangling references). `toCheck` are the
 * files that changed (see the render composition); what is already on disk was checked when it was written.
 * Invalid objects stop the render before anything is written (exit 2).
 */
export function validateRendered(
  dir: string,
  files: ReadonlyArray<{ path: string; content: string }>,
  toCheck: ReadonlyArray<{ path: string; content: string }> = files,
  providerConfigPaths: ProviderConfigPaths = {},
  providerVariables: ProviderVariables = {},
): void {
  throwIfInvalid(renderedErrors({ dir, files, toCheck, providerConfigPaths, providerVariables }));
}

/** One management cluster's rendered tree (a fleet's `targets/<name>/`, or the single form's project root). */
export interface RenderedTree {
  /** Where the tree is on disk: files the run did not render again (empty `content`) are read from here. */
  dir: string;
  /** Paths relative to `dir`. */
  files: ReadonlyArray<{ path: string; content: string }>;
  toCheck: ReadonlyArray<{ path: string; content: string }>;
  /** Put before each finding's path (`targets/us-east/`), so it names the file in the project. */
  prefix?: string;
  /** A fleet: the management cluster the tree belongs to. */
  target?: string;
  /** Each provider's config entry by label, named in the fix of a feature-gate finding. */
  providerConfigPaths?: ProviderConfigPaths;
  /** Each provider's variables by label: an operator provider's config Secret holds them (its gates' values). */
  providerVariables?: ProviderVariables;
}

/**
 * A fleet's `render`: every management cluster's rendered objects checked against its own providers' CRDs, as the
 * single form checks its tree; the errors of all of them in one failure, each finding under `targets/<name>/`.
 */
export function validateRenderedTrees(trees: readonly RenderedTree[]): void {
  const invalid = trees.map((t) => ({ target: t.target, errors: renderedErrors(t) })).filter((t) => t.errors.length > 0);
  const targets = invalid.map((t) => t.target).filter((t): t is string => t !== undefined);
  const of = targets.length === 0 ? '' : ` of management cluster${targets.length === 1 ? '' : 's'} ${targets.join(', ')}`;
  throwIfInvalid(invalid.flatMap((t) => t.errors), of);
}

/** Changed files validated together: a fleet's clusters are parsed, checked and dropped a batch at a time. */
const filesPerBatch = 256;

/** What the reference check needs of an object the batch does not hold: its kind, name and namespace. */
function identityOf(s: SourceObject): SourceObject {
  const m = isRecord(s.object.metadata) ? s.object.metadata : {};
  const metadata: Record<string, unknown> = {};
  if (m.name !== undefined) metadata.name = m.name;
  if (m.namespace !== undefined) metadata.namespace = m.namespace;
  return { ...s, object: { apiVersion: s.object.apiVersion, kind: s.object.kind, metadata } };
}

/**
 * The errors among the findings of one tree's changed cluster and ClusterClass files. The files are checked a batch
 * at a time, so memory stays flat however many clusters a fleet renders: what a check needs beyond the batch is kept
 * small (every object's identity for references, the ClusterClasses in full for topology, the CRDs of the groups
 * used), and the findings come out in the order one pass over all files gives.
 */
function renderedErrors(tree: RenderedTree): Finding[] {
  const { files, toCheck } = tree;
  const prefix = tree.prefix ?? '';
  const changed = toCheck.filter((f) => f.content !== '' && /^(clusters|clusterclasses)\//.test(f.path) && /\.ya?ml$/.test(f.path) && !isKustomization(f.path));
  if (changed.length === 0) return [];
  const parse = (batch: ReadonlyArray<{ path: string; content: string }>): SourceObject[] => batch.flatMap((f) => readManifest(f.content, prefix + f.path).objects);
  const batches: (typeof changed)[] = [];
  for (let i = 0; i < changed.length; i += filesPerBatch) batches.push(changed.slice(i, i + filesPerBatch));
  // A first pass keeps what every batch needs of the others; one batch is parsed once.
  const single = batches.length === 1 ? parse(changed) : undefined;
  const groups = new Set<string>();
  const identities: SourceObject[] = [];
  const changedCrds: SourceObject[] = [];
  const changedClasses: SourceObject[] = [];
  for (const f of changed) {
    for (const o of single ?? parse([f])) {
      groups.add(typeof o.object.apiVersion === 'string' ? o.object.apiVersion.replace(/\/?[^/]*$/, '') : '');
      identities.push(single ? o : identityOf(o));
      if (isCrd(o.object)) changedCrds.push(o);
      if (o.file.startsWith(`${prefix}clusterclasses/`)) changedClasses.push(o);
    }
  }
  // Only the CRDs of the groups the objects use, and only their documents are parsed (cert-manager's are not).
  const wanted = (doc: string): boolean => /^kind: CustomResourceDefinition\s*$/m.test(doc) && [...groups].some((g) => g !== '' && doc.includes(`group: ${g}\n`));
  const providerTexts = files
    .filter((f) => f.path.startsWith('providers/') && /\.ya?ml$/.test(f.path) && !isKustomization(f.path))
    .map((f) => ({ file: prefix + f.path, text: treeText(tree, f) }));
  const schemaObjects: SourceObject[] = [];
  const deployments: SourceObject[] = [];
  for (const f of providerTexts) {
    // output: 'operator': the provider object and the ConfigMap of its release give the manager's gates.
    if (f.file.endsWith('/operator.yaml')) {
      deployments.push(...readManifest(f.text, f.file).objects);
      continue;
    }
    const crds = f.text.includes('CustomResourceDefinition');
    const managers = f.text.includes('kind: Deployment');
    if (!crds && !managers) continue;
    for (const c of splitDocuments(f.text, f.file)) {
      const doc = f.text.slice(c.start, c.end);
      if (crds && wanted(doc)) schemaObjects.push(...readManifest(doc, f.file).objects.filter((o) => isCrd(o.object)));
      // The managers' Deployments, for their feature gates, located at their line in the file.
      else if (managers && /^kind: Deployment\s*$/m.test(doc)) {
        const before = lineOf(f.text, c.start) - 1;
        deployments.push(...readManifest(doc, f.file).objects.map((o) => ({ ...o, line: o.line + before })));
      }
    }
  }
  const managers = managerGatesOf(deployments, tree.providerVariables ?? {});
  // References may point into files this run did not change (a cluster's ClusterClass): those are targets only, and
  // only their identity counts, but for ClusterClasses, which topology expansion reads whole.
  const checked = new Set(changed.map((f) => f.path));
  const unchangedTargets: SourceObject[] = [];
  const unchangedClasses: SourceObject[] = [];
  for (const f of files) {
    if (checked.has(f.path) || !/^(clusters|clusterclasses)\//.test(f.path) || !/\.ya?ml$/.test(f.path) || isKustomization(f.path)) continue;
    for (const o of readManifest(treeText(tree, f), prefix + f.path).objects) {
      if (f.path.startsWith('clusterclasses/')) {
        unchangedTargets.push(o);
        unchangedClasses.push(o);
      } else unchangedTargets.push(identityOf(o));
    }
  }
  const schemas = [...schemaObjects, ...inventoryObjects(tree)];
  const builtIn = builtInSchemas();
  // CRDs among the changed objects declare schemas too, ahead of the providers' (as when they are validated at once).
  const catalog = schemaCatalogOf({ objects: changedCrds, schemaObjects: schemas, builtIn });
  const paths = tree.providerConfigPaths ?? {};
  // The managers' own findings (a gate that is not a boolean) do not depend on the objects: listed once.
  const managerFindings = featureGateFindings([], managers, paths);
  const reported: Finding[] = [];
  const gates: Finding[] = [...managerFindings];
  const topology: Finding[] = [];
  for (const batch of batches) {
    const objects = single ?? parse(batch);
    const inBatch = new Set(objects);
    const report = validateManifests({ objects, schemaObjects: schemas, builtIn, referenceTargets: [...identities, ...unchangedTargets] }, catalog, { lints: ['capi.autoscaler-replicas', 'ref/dangling'] });
    reported.push(...report.findings);
    gates.push(...featureGateFindings(objects, managers, paths).slice(managerFindings.length));
    topology.push(...topologyAdmission(objects, [...changedClasses.filter((o) => !inBatch.has(o) && !batch.some((f) => o.file === prefix + f.path)), ...unchangedClasses]));
  }
  return [...sortFindings(reported), ...gates, ...topology].filter((f) => f.severity === 'error');
}

/** A tree file's text: what this run rendered, else what the committed tree holds (read confined), else nothing. */
function treeText(tree: Pick<RenderedTree, 'dir' | 'prefix'>, f: { path: string; content: string }): string {
  if (f.content !== '') return f.content;
  return existsSync(join(tree.dir, f.path)) ? readTreeFile(tree.dir, f.path, tree.prefix ?? '') : '';
}

/** 1-based line of `offset` in `text`. */
function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The tree's clusterctl inventory (`providers/<label>/inventory.yaml`): the locked releases the admission checks read. */
function inventoryObjects(tree: RenderedTree): SourceObject[] {
  const prefix = tree.prefix ?? '';
  return tree.files
    .filter((f) => /^providers\/[^/]+\/inventory\.yaml$/.test(f.path))
    .flatMap((f) => readManifest(treeText(tree, f), prefix + f.path).objects);
}

/**
 * What CAPI's webhooks refuse among the objects the topology controller creates for the rendered topology Clusters
 * (a KubeadmControlPlane with even replicas from `controlPlaneMachineCount: 2`): the ClusterClasses of the tree are
 * read for it when the run did not render them again. Expansion problems themselves are `validate`'s to report.
 */
function topologyAdmission(objects: readonly SourceObject[], classes: readonly SourceObject[]): Finding[] {
  if (!objects.some((o) => o.object.kind === 'Cluster' && isRecord(o.object.spec) && isRecord(o.object.spec.topology))) return [];
  return webhookCreateFindings(topologyExpandedObjects([...objects, ...classes]).objects);
}

function throwIfInvalid(errors: readonly Finding[], of = ''): void {
  if (errors.length === 0) return;
  const listed = errors.slice(0, maxListedFindings).map((f) => `  ${formatFinding(f)}`);
  if (errors.length > maxListedFindings) listed.push(`  … and ${errors.length - maxListedFindings} more`);
  throw new InputError(`the rendered objects${of} are invalid (${errors.length} ${errors.length === 1 ? 'error' : 'errors'}); nothing was written:\n${listed.join('\n')}`, {
    hint: 'fix the config or template the findings point at; `capiform render --no-validate` writes the tree anyway',
  }, 'E_INVALID_OBJECTS');
}
