/**
 * `capiform init`: a new project's files from what the repositories offer. Every provider is pinned to the patch
 * range of the newest release its repository lists (or the version asked for), each infrastructure provider gets one
 * example cluster from its default flavor, and the variables those need are written down for the user to fill in.
 * Reads releases like `lock` does (local folders, a bundle's repository factory, or remote repositories) but pins
 * nothing: `capiform lock` does that next, verifying every byte.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import { capiformVersion } from '../version.js';
import semver from 'semver';
import { writeFileAtomic } from '../cache/index.js';
import {
  ciWorkflowPath,
  ciWorkflowSource,
  relockWorkflowPath,
  relockWorkflowSource,
  clusterOwnVariables,
  configFileNames,
  configSource,
  gitignoreSource,
  looksLikeCredential,
  patchRange,
  repoUrlProblem,
  validateConfig,
  type ResolvedConfig,
  type ResolvedProvider,
  type Scaffold,
  type ScaffoldCluster,
  type ScaffoldProvider,
} from '../config/index.js';
import { parseKubernetesVersion, parseFeatureGates, versionTag } from '../capi/index.js';
import { listVariables, substitute } from '../envsubst/index.js';
import { fileKindOf } from '../yaml/index.js';
import { CapiformError, ResolutionError, UsageError } from '../errors.js';
import type { SourceObject } from '../validate/index.js';
import {
  certManagerLabel,
  certManagerRepository,
  certManagerRepositoryHint,
  providerRepository,
  repositoryFactory,
  type ProviderRepository,
  type RepositoryFactory,
} from '../resolve/index.js';

export interface InitProvider {
  name: string;
  /** An exact version to pin the range of; empty: the newest the repository offers. */
  version: string;
}

export interface InitRequest {
  /** The project folder (created when missing). */
  dir: string;
  core: InitProvider;
  bootstrap: readonly InitProvider[];
  controlPlane: readonly InitProvider[];
  infrastructure: readonly InitProvider[];
  /** One repository for every provider and cert-manager: a local folder (absolute) or a URL; none: clusterctl's catalog. */
  repository?: string;
  /** cert-manager's version; default: the newest the repository offers. */
  certManager?: string;
  argocdRepoURL?: string;
  kubernetesVersion: string;
  force: boolean;
  env: NodeJS.ProcessEnv;
  offline?: boolean;
  /** Where releases come from (a bundle's factory); default: local folders and remote repositories. */
  repositories?: RepositoryFactory;
}

/** A feature gate an example cluster's flavor needs, and how the config turns it on. */
export interface InitGate {
  gate: string;
  /** The providers whose managers serve the webhooks that need it, by label. */
  providers: string[];
  /** The global variable set to `'true'` (the releases read the gate from it); undefined: `manager.featureGates` instead. */
  variable: string | undefined;
  /** The example clusters (and their flavor files) that need it, with the kinds that do. */
  because: string;
}

export interface InitResult {
  /** Files written, relative to `dir`, in the order written. */
  written: string[];
  /** Feature gates the config turns on for the example clusters' flavors. */
  gates: InitGate[];
  /** `--kubernetes-version` as written into the config, when init had to add the `v`. */
  kubernetesVersion?: { given: string; written: string };
  /** `environment`: credentials the config reads from the environment when rendering. */
  providers: { label: string; newest: string; range: string; environment: string[] }[];
  certManager: { newest: string; range: string } | undefined;
  clusters: { name: string; infrastructure: string; flavor: string | undefined; missing: string[]; configPath: string }[];
  /** The branch the workflows check pushes on, and where init learnt it. */
  defaultBranch: { name: string; from: DefaultBranchSource };
}

export type DefaultBranchSource = 'origin/HEAD' | 'init.defaultBranch' | 'current branch' | 'fallback';

function gitOut(cwd: string, args: string[], env: NodeJS.ProcessEnv): string | undefined {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, timeout: 10_000 });
  if (r.error || r.status !== 0) return undefined;
  const out = r.stdout.trim();
  return out === '' ? undefined : out;
}

/**
 * The repository's default branch, for the workflows' `push: branches`: origin's HEAD (what a clone of GitHub's
 * repository knows), else `init.defaultBranch` (what \`git init\` names the first branch), else the current branch;
 * `main` when none says (no git, or a folder outside any repository), and the result says so.
 */
export function defaultBranchOf(dir: string, env: NodeJS.ProcessEnv): { name: string; from: DefaultBranchSource } {
  let cwd = dir;
  while (!existsSync(cwd) && dirname(cwd) !== cwd) cwd = dirname(cwd);
  const origin = gitOut(cwd, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], env);
  if (origin?.startsWith('refs/remotes/origin/')) return { name: origin.slice('refs/remotes/origin/'.length), from: 'origin/HEAD' };
  const configured = gitOut(cwd, ['config', '--get', 'init.defaultBranch'], env);
  if (configured !== undefined) return { name: configured, from: 'init.defaultBranch' };
  const current = gitOut(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD'], env);
  if (current !== undefined) return { name: current, from: 'current branch' };
  return { name: 'main', from: 'fallback' };
}

/** Folders inside the git repository holding `dir` that the config reads (its local repository), for `paths:`. */
function workflowFolders(dir: string, repository: string | undefined, env: NodeJS.ProcessEnv): string[] {
  if (repository === undefined || isRepositoryUrl(repository)) return [];
  let cwd = dir;
  while (!existsSync(cwd) && dirname(cwd) !== cwd) cwd = dirname(cwd);
  const top = gitOut(cwd, ['rev-parse', '--show-toplevel'], env) ?? dir;
  const rel = relative(top, resolvePath(repository)).split(sep).join('/');
  // Outside the repository a change cannot arrive by pull request; `paths:` cannot name it either.
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return [];
  return [rel];
}

const configName = 'capi.config.ts';

/** `https://…`, `file://…`: a repository given as a URL rather than a folder. */
export function isRepositoryUrl(repository: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(repository);
}

/** A local repository as the config writes it: relative to the config's folder, with `/`. */
function urlFor(dir: string, repository: string | undefined): string | undefined {
  if (repository === undefined || isRepositoryUrl(repository)) return repository;
  const rel = relative(dir, repository).split(sep).join('/');
  return rel === '' ? '.' : rel.startsWith('.') ? rel : `./${rel}`;
}

/** Refuses to replace a config (or the workflow) that is already there, unless `force`. */
function checkNothingToOverwrite(dir: string, force: boolean): void {
  if (force) return;
  const existing = [...configFileNames, ciWorkflowPath, relockWorkflowPath].filter((f) => existsSync(join(dir, f)));
  if (existing.length === 0) return;
  throw new UsageError(`${dir} already has ${existing.join(', ')}: init does not overwrite a project`, {
    where: join(dir, existing[0]!),
    hint: 'run init in an empty folder, or pass --force to replace these files',
  });
}

/** The newest stable release, or the one asked for (which must be listed). */
function newestOf(versions: readonly string[], wanted: string, what: string, where: string): string {
  const valid = versions.filter((v) => semver.valid(v) !== null).sort((a, b) => semver.rcompare(a, b));
  if (wanted !== '') {
    const hit = valid.find((v) => semver.eq(v, wanted));
    if (!hit) {
      throw new ResolutionError(`${what} has no release ${wanted}`, {
        where,
        hint: valid.length ? `releases: ${valid.slice(0, 12).join(', ')}` : 'the repository lists no release',
      });
    }
    return hit;
  }
  const stable = valid.find((v) => semver.prerelease(v) === null) ?? valid[0];
  if (stable === undefined) throw new ResolutionError(`${what}: the repository lists no release`, { where, hint: 'check --repository' });
  return stable;
}

async function text(repo: ProviderRepository, version: string, file: string): Promise<string | null> {
  const bytes = await repo.getFile(version, file);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

function required(source: string, except: readonly string[] = []): string[] {
  return listVariables(source)
    .filter((v) => v.default === null && !except.includes(v.name))
    .map((v) => v.name);
}

/** `cluster-template.yaml` when the release ships it, else its first flavor by name. */
function defaultFlavor(files: readonly string[] | null): string | undefined {
  if (files === null || files.includes('cluster-template.yaml')) return undefined;
  return files
    .map((f) => /^cluster-template-(.+)\.yaml$/.exec(f)?.[1])
    .filter((f): f is string => f !== undefined)
    .sort()[0];
}

/** A provisional config: the providers asked for, at `latest`, from `repository`. */
async function provisionalConfig(req: InitRequest): Promise<ResolvedConfig> {
  const url = req.repository;
  const entry = (p: InitProvider): Record<string, string> => ({ name: p.name, version: 'latest', ...(url !== undefined ? { url } : {}) });
  const raw = {
    providers: {
      core: entry(req.core),
      bootstrap: req.bootstrap.map(entry),
      controlPlane: req.controlPlane.map(entry),
      infrastructure: req.infrastructure.map(entry),
    },
    certManager: { version: req.certManager ?? 'latest', ...(url !== undefined ? { url } : {}) },
  };
  return validateConfig(raw, join(req.dir, configName), req.env);
}

const kindOf: Record<string, ScaffoldProvider['kind']> = {
  CoreProvider: 'core',
  BootstrapProvider: 'bootstrap',
  ControlPlaneProvider: 'controlPlane',
  InfrastructureProvider: 'infrastructure',
};

function requested(req: InitRequest, p: ResolvedProvider): InitProvider | undefined {
  const list = { core: [req.core], bootstrap: req.bootstrap, controlPlane: req.controlPlane, infrastructure: req.infrastructure }[kindOf[p.type]!];
  return list.find((x) => x.name === p.name);
}

/**
 * `--kubernetes-version` as the example clusters need it, checked before anything is read or written. clusterctl
 * takes any `version.ParseSemantic` version (the `v` is optional there), but CAPI's webhooks want `vX.Y.Z`
 * (`version.KubeSemver`): a version without the `v` gets one; anything else (`1.33`, no patch release) is refused.
 */
export function exampleKubernetesVersion(given: string): string {
  const v = parseKubernetesVersion(given.trim());
  if (v === null) {
    const minor = /^v?(\d+)\.(\d+)$/.exec(given.trim());
    throw new UsageError(`--kubernetes-version ${JSON.stringify(given)} is not a Kubernetes release version (vMAJOR.MINOR.PATCH): clusterctl refuses it ("invalid KubernetesVersion. Please use a semantic version number")`, {
      where: '--kubernetes-version',
      hint: minor ? `name a patch release of ${minor[1]}.${minor[2]}, e.g. --kubernetes-version v${minor[1]}.${minor[2]}.0` : 'e.g. --kubernetes-version v1.33.1',
    });
  }
  return versionTag(v);
}

/** A value for every variable of a template, so its objects can be read for the kinds and fields they use. */
function placeholders(text: string): Record<string, string> {
  return Object.fromEntries(listVariables(text).map((v) => [v.name, v.default ?? 'placeholder']));
}

type ValidateDoor = typeof import('../validate/index.js');

function objectsOf(validate: ValidateDoor, text: string, file: string): SourceObject[] {
  try {
    return validate.readManifest(substitute(text, placeholders(text)), file).objects;
  } catch (err) {
    // A template that only parses with real values: its gates are left to `validate` after render.
    if (err instanceof CapiformError) return [];
    throw err;
  }
}

/**
 * The gates the objects of a flavor (and of the ClusterClasses its topology Clusters name, from the same release)
 * need in some provider's manager, by that provider's label.
 */
async function gatesNeeded(repo: ProviderRepository, version: string, file: string, template: string): Promise<{ label: string; gate: string; kind: string; off: boolean }[]> {
  // The validator is loaded only here: `render` imports this module's door and must not pay for it.
  const validate = await import('../validate/index.js');
  const objects = objectsOf(validate, template, file);
  const classes = new Set<string>();
  for (const o of objects) {
    const topology = o.object.kind === 'Cluster' && typeof o.object.spec === 'object' && o.object.spec !== null ? (o.object.spec as Record<string, unknown>).topology : undefined;
    if (typeof topology !== 'object' || topology === null) continue;
    const t = topology as Record<string, unknown>;
    const ref = typeof t.classRef === 'object' && t.classRef !== null ? (t.classRef as Record<string, unknown>).name : t.class;
    if (typeof ref === 'string' && !objects.some((x) => x.object.kind === 'ClusterClass' && (x.object.metadata as Record<string, unknown> | undefined)?.name === ref)) classes.add(ref);
  }
  for (const name of [...classes].sort()) {
    const classFile = `clusterclass-${name}.yaml`;
    const text = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name) ? await textOrNull(repo, version, classFile) : null;
    if (text !== null) objects.push(...objectsOf(validate, text, classFile));
  }
  return validate.gateRequirements(objects).map((n) => ({ label: n.rule.provider, gate: n.rule.gate, kind: String(n.object.object.kind), off: n.rule.default === false }));
}

async function textOrNull(repo: ProviderRepository, version: string, file: string): Promise<string | null> {
  try {
    return await text(repo, version, file);
  } catch (err) {
    if (err instanceof CapiformError) return null;
    throw err;
  }
}

/**
 * How the config turns on the gates the example clusters need: the global variable the releases read the gate from
 * (`CLUSTER_TOPOLOGY: 'true'`, as clusterctl users export it), or `manager.featureGates` on a provider whose release
 * hard-codes the gate or does not name it. Providers init does not install are left alone.
 */
function gateSettings(
  needs: readonly { label: string; gate: string; cluster: string; kind: string; off: boolean }[],
  releaseGates: ReadonlyMap<string, ReadonlyMap<string, string>>,
  providers: ScaffoldProvider[],
  resolved: readonly ResolvedProvider[],
  result: InitResult,
): Pick<Scaffold, 'variables'> {
  const variables: { name: string; value: string; comment: string }[] = [];
  const byGate = new Map<string, { providers: Set<string>; because: Map<string, Set<string>> }>();
  for (const n of needs) {
    const written = releaseGates.get(n.label)?.get(n.gate);
    // Not installed; or on: the release sets it (`${VAR:=true}` and hard-coded values are judged below), or does not
    // name a gate whose Go default is on or that it may not know (a gate the manager does not know stops it).
    if (!releaseGates.has(n.label) || written === 'true' || /^\$\{[^}]*:?=true\}$/.test(written ?? '') || (written === undefined && !n.off)) continue;
    const g = byGate.get(n.gate) ?? { providers: new Set(), because: new Map() };
    g.providers.add(n.label);
    g.because.set(n.cluster, (g.because.get(n.cluster) ?? new Set()).add(n.kind));
    byGate.set(n.gate, g);
  }
  for (const [gate, g] of [...byGate].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const labels = [...g.providers].sort();
    const because = [...g.because].map(([c, kinds]) => `${c}: ${[...kinds].sort().join(', ')}`).join('; ');
    const fromVariable = new Map<string, string>();
    for (const label of labels) {
      const written = releaseGates.get(label)!.get(gate);
      const variable = written === undefined ? undefined : /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[=-][^}]*)?\}$/.exec(written)?.[1];
      if (variable !== undefined) fromVariable.set(label, variable);
      else {
        // The release hard-codes the gate (or does not name it): only the manager's flags can turn it on.
        const i = resolved.findIndex((p) => p.label === label);
        const sp = i >= 0 ? providers[i] : undefined;
        if (sp) sp.featureGates = { ...sp.featureGates, [gate]: true };
      }
    }
    const names = [...new Set(fromVariable.values())].sort();
    for (const name of names) {
      const readers = labels.filter((l) => fromVariable.get(l) === name);
      variables.push({ name, value: 'true', comment: `the ${gate} feature gate of ${readers.join(', ')}: needed by ${because}` });
    }
    result.gates.push({ gate, providers: labels, variable: names.length === 1 ? names[0] : undefined, because });
  }
  return variables.length > 0 ? { variables } : {};
}

/**
 * The project folder must be a folder, or not exist yet (init creates it); checked before anything is fetched. The
 * user names it on the command line, so a link to a folder is followed (macOS's /tmp is one).
 */
function checkProjectFolder(dir: string): void {
  let kind: string;
  try {
    const st = statSync(dir);
    if (st.isDirectory()) return;
    kind = fileKindOf(st);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  throw new UsageError(`${dir} is ${kind}, where a folder is expected: init writes a project into a folder`, {
    where: dir,
    hint: 'give a folder that exists or does not exist yet',
  });
}

export async function initProject(req: InitRequest): Promise<InitResult> {
  const dir = resolvePath(req.dir);
  checkProjectFolder(dir);
  const kubernetesVersion = exampleKubernetesVersion(req.kubernetesVersion);
  if (req.argocdRepoURL !== undefined) {
    const problem = req.argocdRepoURL.trim() === '' ? '--argocd needs the URL of the git repository Argo CD reads the tree from' : repoUrlProblem(req.argocdRepoURL);
    if (problem) throw new UsageError(problem, { where: '--argocd', hint: 'give the URL Argo CD clones the project from, e.g. --argocd https://github.com/org/fleet.git, or leave --argocd out' });
  }
  checkNothingToOverwrite(dir, req.force);
  const config = await provisionalConfig(req);
  const factory = req.repositories ?? repositoryFactory({ env: req.env, offline: req.offline ?? false });
  const url = urlFor(dir, req.repository);

  const providers: ScaffoldProvider[] = [];
  const clusters: ScaffoldCluster[] = [];
  const result: InitResult = { written: [], gates: [], providers: [], certManager: undefined, clusters: [], defaultBranch: defaultBranchOf(dir, req.env) };
  if (kubernetesVersion !== req.kubernetesVersion) result.kubernetesVersion = { given: req.kubernetesVersion, written: kubernetesVersion };
  /** Each provider's `--feature-gates` as its release writes it (`ClusterTopology` → `${CLUSTER_TOPOLOGY:=false}`), by label. */
  const releaseGates = new Map<string, Map<string, string>>();
  const needs: { label: string; gate: string; cluster: string; kind: string; off: boolean }[] = [];
  for (const p of config.providers) {
    const { repo } = await providerRepository(p, dir, factory);
    const newest = newestOf(await repo.listVersions(), requested(req, p)?.version ?? '', p.label, repo.url);
    const components = await text(repo, newest, repo.componentsFile);
    if (components === null) {
      throw new ResolutionError(`${p.label} ${newest} has no ${repo.componentsFile}`, { where: repo.fileLocation(newest, repo.componentsFile) });
    }
    const requiredVariables = required(components);
    const flag = /--feature-gates=([^\s'"]*)/.exec(components);
    releaseGates.set(p.label, new Map(flag ? parseFeatureGates(flag[1]!) : []));
    providers.push({ kind: kindOf[p.type]!, name: p.name, newest, url, requiredVariables });
    result.providers.push({ label: p.label, newest, range: patchRange(newest), environment: requiredVariables.filter(looksLikeCredential) });
    if (p.type !== 'InfrastructureProvider') continue;
    const flavor = defaultFlavor((await repo.listFiles?.(newest)) ?? null);
    const file = flavor === undefined ? 'cluster-template.yaml' : `cluster-template-${flavor}.yaml`;
    const template = await text(repo, newest, file);
    // A provider without any cluster template gets no example cluster; its components are still installed.
    if (template === null) continue;
    const cluster: ScaffoldCluster = {
      name: `${p.name}-example`,
      namespace: 'default',
      infrastructure: p.name,
      flavor,
      kubernetesVersion,
      source: `${p.label} ${newest} ${file}`,
      requiredVariables: required(template, clusterOwnVariables),
    };
    for (const n of await gatesNeeded(repo, newest, file, template)) needs.push({ ...n, cluster: `${cluster.name} (${file})` });
    clusters.push(cluster);
    result.clusters.push({
      name: cluster.name,
      infrastructure: p.name,
      flavor,
      missing: cluster.requiredVariables.filter((n) => !looksLikeCredential(n)),
      configPath: `clusters[${clusters.length - 1}].variables`,
    });
  }

  const cm = await certManagerRepository(config, factory).catch((err: unknown) => {
    if (err instanceof CapiformError) return { err };
    throw err;
  });
  let certManager: Scaffold['certManager'];
  if (cm) {
    let versions: string[] = [];
    let failure: CapiformError | undefined = 'err' in cm ? cm.err : undefined;
    if (!('err' in cm)) {
      try {
        versions = await cm.repo.listVersions();
      } catch (err) {
        if (!(err instanceof CapiformError)) throw err;
        failure = err;
      }
    }
    const local = req.repository !== undefined && !isRepositoryUrl(req.repository);
    const where = local ? join(req.repository!, certManagerLabel) : 'err' in cm ? (req.repository ?? "cert-manager's GitHub releases") : cm.repo.url;
    if (failure || versions.length === 0) {
      const why = failure && !local ? ` (${failure.message})` : '';
      throw new ResolutionError(`no cert-manager release found: capiform looked in ${where}${why}`, {
        where: '--cert-manager',
        hint: `put cert-manager's release in the repository as ${certManagerLabel}/<version>/cert-manager.yaml, or ${certManagerRepositoryHint.replace(/^set/, 'after init, set')}`,
      });
    }
    const newest = newestOf(versions, req.certManager ?? '', certManagerLabel, where);
    certManager = { newest, url };
    result.certManager = { newest, range: patchRange(newest) };
  }

  const scaffold: Scaffold = { providers, certManager, clusters, argocdRepoURL: req.argocdRepoURL, ...gateSettings(needs, releaseGates, providers, config.providers, result) };
  const gitignorePath = join(dir, '.gitignore');
  const files: [string, string][] = [
    [configName, configSource(scaffold)],
    ['.gitignore', gitignoreSource(existsSync(gitignorePath) ? readFileSync(gitignorePath, 'utf8') : undefined)],
  ];
  const workflow = { defaultBranch: result.defaultBranch.name, version: capiformVersion(), folders: workflowFolders(dir, req.repository, req.env) };
  files.push([ciWorkflowPath, ciWorkflowSource(workflow)], [relockWorkflowPath, relockWorkflowSource(workflow)]);
  for (const [name, content] of files) {
    writeFileAtomic(join(dir, name), content);
    result.written.push(name);
  }
  return result;
}
