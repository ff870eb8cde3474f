/**
 * A fleet's ApplicationSets (`argocd: { mode: 'applicationset', generator: 'clusters' }`), one per management cluster
 * (RollingSync's steps are global to an ApplicationSet: docs/argocd-rollout.md): an Argo CD cluster generator crossed
 * with git generators over `targets/<name>/`. Checked three ways: against Argo CD's own CRDs
 * (test/fixtures/argocd, from argoproj/argo-cd manifests/crds at 37ee0097), by evaluating it as the ApplicationSet
 * controller does (Go templates with sprig over the rendered tree; the Applications must be those the per-target
 * `applications` mode writes), and with `kubectl kustomize` of the emitted folder.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureRepository, fleetFixtureConfig, fleetProject, testdir } from './helpers/pipeline-fixtures.js';
import { hasKubectl, kubectlSkipped } from './helpers/kubectl.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { goValueFromJSON, parseTemplate } from '../src/go/template/index.js';
import { hermeticTxtFuncMap } from '../src/go/sprig/index.js';
import { readManifest, schemaCatalogOf, validateManifests } from '../src/validate/index.js';
import { shardOfPath } from '../src/render/index.js';

const fleetConfig = fleetFixtureConfig;

/** A cluster whose Application name is longer than 63 characters: the name is cut and hashed. */
const longName = 'a-workload-cluster-with-a-rather-long-name-for-its-application';

/** The fixture fleet with its Argo CD settings replaced by `argocd`, and a long-named cluster in eu-west. */
function fleetWith(argocd: string): string {
  return fleetConfig
    .replace("argocd: { repoURL: 'https://git.example.com/fleet.git', targetRevision: 'main' },", `argocd: ${argocd},`)
    .replace(
      "{ name: 'plain', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' },\n      ],",
      `{ name: 'plain', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' },\n        { name: '${longName}', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' },\n      ],`,
    );
}

const fleetSet = "{ repoURL: 'https://git.example.com/fleet.git', targetRevision: 'main', mode: 'applicationset', generator: 'clusters' }";

async function rendered(config: string): Promise<string> {
  const dir = fleetProject(config);
  const r = await runCli(['render'], { cwd: dir });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return dir;
}

type Obj = Record<string, unknown>;
const read = (dir: string, p: string): string => readFileSync(join(dir, p), 'utf8');
const appSets = (dir: string): Obj[] => parseAllDocuments(read(dir, 'argocd/apps/applicationset.yaml')).map((d) => d.toJS() as Obj);

/** Every directory and file of the tree, relative to its root, as the repo server lists them for git generators. */
function treePaths(dir: string, rel = ''): { dirs: string[]; files: string[] } {
  const out = { dirs: [] as string[], files: [] as string[] };
  for (const name of readdirSync(join(dir, rel))) {
    const p = rel === '' ? name : `${rel}/${name}`;
    if (statSync(join(dir, p)).isDirectory()) {
      out.dirs.push(p);
      const sub = treePaths(dir, p);
      out.dirs.push(...sub.dirs);
      out.files.push(...sub.files);
    } else out.files.push(p);
  }
  return out;
}

/** Go's path.Match for the patterns capiform writes (`*` within one segment). */
function pathMatch(pattern: string, path: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
  return re.test(path);
}

const funcs = hermeticTxtFuncMap();
function goTemplate(text: string, params: Obj): string {
  return parseTemplate('t', text, { funcs, missingKey: 'error' }).execute(goValueFromJSON(params));
}

/** Every string in `value` rendered as a Go template with `params` (the controller renders the template's fields). */
function renderStrings(value: unknown, params: Obj): unknown {
  if (typeof value === 'string') return goTemplate(value, params);
  if (Array.isArray(value)) return value.map((v) => renderStrings(v, params));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderStrings(v, params)]));
  return value;
}

function merge(into: Obj, patch: Obj): Obj {
  for (const [k, v] of Object.entries(patch)) {
    const cur = into[k];
    into[k] = cur && typeof cur === 'object' && !Array.isArray(cur) && v && typeof v === 'object' && !Array.isArray(v) ? merge({ ...(cur as Obj) }, v as Obj) : v;
  }
  return into;
}

/** Argo CD cluster Secrets as the cluster generator sees them: two labelled management clusters and one other. */
const argoClusters = [
  { name: 'mc-eu', server: 'https://eu.example.com:6443', project: '', metadata: { labels: { 'capiform.io/management-cluster': 'eu-west' } } },
  { name: 'mc-us', server: 'https://us.example.com:6443', project: '', metadata: { labels: { 'capiform.io/management-cluster': 'us-east' } } },
  { name: 'workload', server: 'https://w.example.com:6443', project: '', metadata: { labels: { team: 'a' } } },
];

/** The Applications the ApplicationSet generates over the tree in `dir` (the matrix, git and cluster generators). */
function generate(appSet: Obj, dir: string): Obj[] {
  const spec = appSet.spec as { generators: { matrix: { generators: [{ clusters: { selector: { matchExpressions: { key: string; operator: string; values?: string[] }[] } } }, { git: Obj }] } }[]; template: Obj; templatePatch: string };
  const tree = treePaths(dir);
  const apps: Obj[] = [];
  for (const g of spec.generators) {
    const [clusters, git] = g.matrix.generators;
    for (const cluster of argoClusters) {
      const labels = cluster.metadata.labels as Record<string, string | undefined>;
      const selected = clusters.clusters.selector.matchExpressions.every((e) => (e.operator === 'Exists' ? e.key in labels : e.operator === 'In' && e.values!.includes(labels[e.key] ?? '')));
      if (!selected) continue;
      // The second generator is interpolated with the first one's parameters.
      const gitSpec = renderStrings(git.git, cluster) as { directories?: { path: string; exclude?: boolean }[]; files?: { path: string }[]; values: Record<string, string> };
      const found = gitSpec.directories
        ? tree.dirs.filter((d) => gitSpec.directories!.some((p) => !p.exclude && pathMatch(p.path, d)) && !gitSpec.directories!.some((p) => p.exclude && pathMatch(p.path, d)))
        : tree.files.filter((f) => gitSpec.files!.some((p) => pathMatch(p.path, f))).map((f) => posix.dirname(f));
      for (const path of found) {
        const gitParams = { path: { path, basename: posix.basename(path), basenameNormalized: posix.basename(path), segments: path.split('/') }, values: gitSpec.values };
        const params = { ...gitParams, ...cluster };
        const app = renderStrings(spec.template, params) as Obj;
        merge(app, parseYaml(goTemplate(spec.templatePatch, params)) as Obj);
        apps.push(app);
      }
    }
  }
  return apps;
}

/** What an Application is for the comparison: everything but its destination cluster. */
function essence(app: Obj): Obj {
  const metadata = app.metadata as { name: string; labels: Record<string, string> };
  const spec = app.spec as { source: Obj; destination: Record<string, string>; syncPolicy: Obj; ignoreDifferences?: unknown; project: string };
  return {
    name: metadata.name,
    component: metadata.labels['capiform.io/component'],
    wave: metadata.labels['capiform.io/sync-wave'],
    source: spec.source,
    namespace: spec.destination.namespace,
    project: spec.project,
    syncPolicy: spec.syncPolicy,
    ignoreDifferences: spec.ignoreDifferences,
  };
}

describe('a fleet with an ApplicationSet per management cluster (argocd.generator "clusters")', { timeout: 240_000 }, () => {
  it('writes argocd/ once for the fleet and no per-target glue; the cluster folders keep their sync waves', async () => {
    const dir = await rendered(fleetWith(fleetSet));
    const paths = Object.keys(snapshotDir(dir));
    expect(paths.filter((p) => p.startsWith('argocd/'))).toEqual(['argocd/apps', 'argocd/apps/applicationset.yaml', 'argocd/apps/kustomization.yaml', 'argocd/root.yaml']);
    expect(paths.some((p) => /^targets\/[^/]+\/argocd/.test(p))).toBe(false);
    expect(read(dir, 'targets/eu-west/clusters/team-b/plain/kustomization.yaml')).toContain('argocd.argoproj.io/sync-wave: "1"');

    const sets = appSets(dir);
    // One per management cluster: a region whose wave is not Healthy holds only its own later waves.
    expect(sets.map((a) => (a.metadata as { name: string }).name)).toEqual(['capi-fleet-eu-west', 'capi-fleet-us-east']);
    const appSet = sets[0]!;
    expect(appSet).toMatchObject({ kind: 'ApplicationSet', metadata: { name: 'capi-fleet-eu-west', namespace: 'argocd' }, spec: { goTemplate: true, goTemplateOptions: ['missingkey=error'] } });
    expect((sets[1]!.spec as { strategy: unknown }).strategy).toEqual((appSet.spec as { strategy: unknown }).strategy);
    const spec = appSet.spec as { generators: Obj[]; template: { spec: Obj } };
    expect(spec.generators).toHaveLength(6);
    expect(spec.generators[5]).toEqual({
      matrix: {
        generators: [
          { clusters: { selector: { matchExpressions: [{ key: 'capiform.io/management-cluster', operator: 'In', values: ['eu-west'] }] } } },
          {
            git: {
              repoURL: 'https://git.example.com/fleet.git',
              revision: 'main',
              directories: [{ path: 'targets/{{ index .metadata.labels "capiform.io/management-cluster" }}/clusters/*/*' }],
              values: { component: 'cluster', wave: '4', word: 'cluster' },
            },
          },
        ],
      },
    });
    expect(spec.template.spec.destination).toEqual({ server: '{{ .server }}' });
    const root = parseYaml(read(dir, 'argocd/root.yaml')) as Obj;
    expect(root).toMatchObject({ kind: 'Application', metadata: { name: 'capi-root' }, spec: { source: { path: 'argocd/apps' }, destination: { server: 'https://kubernetes.default.svc', namespace: 'argocd' } } });
  });

  it('is valid against Argo CD’s ApplicationSet and Application CRDs', async () => {
    const dir = await rendered(fleetWith(fleetSet));
    const crds = ['applicationset-crd.yaml.gz', 'application-crd.yaml.gz'].flatMap((f) =>
      readManifest(gunzipSync(readFileSync(new URL(`./fixtures/argocd/${f}`, import.meta.url))).toString('utf8'), f).objects,
    );
    const objects = ['argocd/apps/applicationset.yaml', 'argocd/root.yaml'].flatMap((p) => readManifest(read(dir, p), p).objects);
    const report = validateManifests({ objects, schemaObjects: crds }, schemaCatalogOf({ objects: [], schemaObjects: crds }));
    expect(report.findings).toEqual([]);
    expect(report.checked).toBe(3);
    // The schema is really applied: a field the CRD does not have is found.
    const bad = structuredClone(objects[0]!.object) as { spec: { generators: Obj[] } };
    bad.spec.generators[0] = { matrix: { ...(bad.spec.generators[0]!.matrix as Obj), elements: [] } };
    const badReport = validateManifests({ objects: [{ ...objects[0]!, object: bad }], schemaObjects: crds }, schemaCatalogOf({ objects: [], schemaObjects: crds }));
    expect(badReport.findings.map((f) => f.message).join('\n')).toContain('elements');
  });

  it('generates, over the rendered tree, exactly the Applications the per-target mode writes (deployed to each labelled cluster)', async () => {
    const dir = await rendered(fleetWith(fleetSet));
    const generated = appSets(dir).flatMap((a) => generate(a, dir));

    const perTarget = await rendered(fleetWith("{ repoURL: 'https://git.example.com/fleet.git', targetRevision: 'main' }"));
    const expected: Obj[] = [];
    for (const t of ['eu-west', 'us-east']) {
      const appsDir = `targets/${t}/argocd/apps`;
      for (const f of readdirSync(join(perTarget, appsDir)).filter((n) => n !== 'kustomization.yaml')) expected.push(parseYaml(read(perTarget, `${appsDir}/${f}`)) as Obj);
    }
    const byName = (a: Obj, b: Obj): number => ((a.name as string) < (b.name as string) ? -1 : 1);
    expect(generated.map(essence).sort(byName)).toEqual(expected.map(essence).sort(byName));
    expect(generated.length).toBe(expected.length);
    // The long name is cut and hashed as the per-target Applications' is.
    expect(generated.map(essence).find((a) => (a.source as { path: string }).path.endsWith(longName))?.name).toMatch(/^capi-eu-west-cluster-team-b-a-workload-cluster-with-a-[0-9a-f]{8}$/);
    // Each Application goes to the management cluster whose label names its folder, and says which one it is.
    for (const app of generated) {
      const target = (app.metadata as { labels: Record<string, string> }).labels['capiform.io/management-cluster'];
      expect((app.spec as { source: { path: string } }).source.path.startsWith(`targets/${target!}/`)).toBe(true);
      expect((app.spec as { destination: { server: string } }).destination.server).toBe(target === 'eu-west' ? 'https://eu.example.com:6443' : 'https://us.example.com:6443');
    }
  });

  it('with argocd.path, finds the trees below it and names the Applications the same', async () => {
    const dir = await rendered(fleetWith("{ repoURL: 'https://git.example.com/fleet.git', path: 'infra/capi', mode: 'applicationset', generator: 'clusters', namePrefix: 'x-' }"));
    const sets = appSets(dir);
    // The controller lists the repository; here the project sits at infra/capi in it.
    const repo = testdir({});
    const { cpSync } = await import('node:fs');
    cpSync(join(dir, 'targets'), join(repo, 'infra/capi/targets'), { recursive: true });
    const names = sets.flatMap((a) => generate(a, repo)).map((a) => (a.metadata as { name: string }).name);
    expect(names).toContain('x-us-east-cluster-team-b-plain');
    expect(names).toContain('x-eu-west-namespace-team-a');
    expect((parseYaml(read(dir, 'argocd/root.yaml')) as { spec: { source: { path: string } } }).spec.source.path).toBe('infra/capi/argocd/apps');
  });

  it.skipIf(!hasKubectl)(`kubectl kustomize builds the emitted folder${kubectlSkipped}`, async () => {
    const dir = await rendered(fleetWith(fleetSet));
    const r = spawnSync('kubectl', ['kustomize', join(dir, 'argocd/apps')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj);
    expect(docs.map((d) => `${d.kind as string}/${(d.metadata as { name: string }).name}`)).toEqual(['ApplicationSet/capi-fleet-eu-west', 'ApplicationSet/capi-fleet-us-east']);
  });

  it('belongs to shard 1, with or without --target: it depends on no management cluster', async () => {
    expect(shardOfPath('argocd/apps/applicationset.yaml', 4)).toBe(1);
    const dir = await rendered(fleetWith(fleetSet));
    const before = read(dir, 'argocd/apps/applicationset.yaml');
    testdir({ 'capi.config.mjs': fleetWith(fleetSet.replace("targetRevision: 'main'", "targetRevision: 'release'")) }, dir);
    const two = await runCli(['render', '--check', '--shard', '2/2'], { cwd: dir });
    expect(two.stderr).not.toContain('argocd/');
    for (const args of [['--shard', '1/2'], ['--target', 'us-east', '--shard', '1/2'], ['--target', 'eu-west']]) {
      const check = await runCli(['render', '--check', ...args], { cwd: dir });
      expect(check.code, args.join(' ')).toBe(1);
      expect(check.stderr).toContain('argocd/apps/applicationset.yaml');
    }
    expect((await runCli(['render', '--target', 'eu-west'], { cwd: dir })).code).toBe(0);
    expect(read(dir, 'argocd/apps/applicationset.yaml')).toBe(before.replaceAll('revision: main', 'revision: release').replaceAll('targetRevision: main', 'targetRevision: release'));
  });

  it('is a fleet-wide setting: the config says where it does not fit', async () => {
    const dir = fleetProject(fleetWith(fleetSet.replace("mode: 'applicationset', ", '')));
    const noMode = await runCli(['lock'], { cwd: dir });
    expect(noMode.code).toBe(2);
    expect(noMode.stderr).toContain('argocd.mode: must be "applicationset" with generator "clusters"');

    testdir({ 'capi.config.mjs': fleetWith(fleetSet).replace("variables: { DOCKER_REGION: 'us' },", "variables: { DOCKER_REGION: 'us' },\n      argocd: { namePrefix: 'us-' },") }, dir);
    const perTarget = await runCli(['lock'], { cwd: dir });
    expect(perTarget.code).toBe(2);
    expect(perTarget.stderr).toContain('managementClusters["us-east"].argocd: cannot be set with the shared argocd.generator "clusters"');
    expect(perTarget.stderr).toContain('capiform.io/management-cluster=us-east');

    const single = testdir({
      'capi.config.mjs': `export default { providers: { core: { name: 'cluster-api', version: '~1.12.0', url: './repo' } }, argocd: ${fleetSet} };\n`,
    });
    fixtureRepository(single);
    const one = await runCli(['lock'], { cwd: single });
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('argocd.generator: "clusters" needs managementClusters');
  });
});
