/**
 * `templates: { hashNames: true }` through `capiform render` and `capiform diff`: machine templates of rendered
 * clusters and of the ClusterClasses under clusterclasses/ get `<name>-<hash>` names, every reference follows, a spec
 * change becomes a rotation in the diff, a metadata-only change keeps the name, and the option is off by default.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { exampleRepo } from './helpers/diff-fixtures.js';
import { tempDir } from './helpers/testdir.js';

type Obj = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read deep YAML paths
type Any = Record<string, any>;

const hashed = (base: string): RegExp => new RegExp(`^${base}-[0-9a-f]{10}$`);

/**
 * The example repository, with the plain flavor's worker machine template made to depend on two variables: one in its
 * spec (WORKER_IMAGE, like an instance type) and one in its metadata only (WORKER_NOTE).
 */
function project(opts: { templates?: string; clusterTemplates?: string; workerImage?: string; workerNote?: string } = {}): string {
  const dir = tempDir('capiform-tplhash-');
  cpSync(exampleRepo, join(dir, 'repo'), { recursive: true });
  const file = join(dir, 'repo/infrastructure-docker/v1.12.4/cluster-template.yaml');
  const worker = 'kind: DockerMachineTemplate\nmetadata:\n  name: ${CLUSTER_NAME}-md-0\n  namespace: ${NAMESPACE}\nspec:\n  template:\n    spec:\n';
  const raw = readFileSync(file, 'utf8');
  expect(raw).toContain(worker);
  writeFileSync(
    file,
    raw.replace(
      worker,
      'kind: DockerMachineTemplate\nmetadata:\n  name: ${CLUSTER_NAME}-md-0\n  namespace: ${NAMESPACE}\n  annotations:\n    note: ${WORKER_NOTE:=none}\n' +
        'spec:\n  template:\n    spec:\n      customImage: ${WORKER_IMAGE:=kindest/node:v1.33.1}\n',
    ),
  );
  writeConfig(dir, opts);
  return dir;
}

function writeConfig(dir: string, opts: { templates?: string; clusterTemplates?: string; workerImage?: string; workerNote?: string }): void {
  const vars = [opts.workerImage ? `WORKER_IMAGE: '${opts.workerImage}'` : '', opts.workerNote ? `WORKER_NOTE: '${opts.workerNote}'` : ''].filter(Boolean).join(', ');
  writeFileSync(
    join(dir, 'capi.config.ts'),
    `import { defineConfig } from 'capiform';

export default defineConfig({
  providers: {
    core: { name: 'cluster-api', version: '~1.12.0', url: './repo' },
    bootstrap: [{ name: 'kubeadm', version: '~1.12.0', url: './repo' }],
    controlPlane: [{ name: 'kubeadm', version: '~1.12.0', url: './repo' }],
    infrastructure: [{ name: 'docker', version: '~1.12.0', url: './repo' }],
  },
  variables: { CLUSTER_TOPOLOGY: 'true' },
  ${opts.templates ?? ''}
  clusters: [
    { name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1' },
    { name: 'prod-1', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', workerMachineCount: 3, variables: { ${vars} }, ${opts.clusterTemplates ?? ''} },
  ],
});
`,
  );
}

function objects(dir: string, file: string): Any[] {
  return parseAllDocuments(readFileSync(join(dir, file), 'utf8'))
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null);
}

function names(objs: Any[], kind: string): string[] {
  return objs.filter((o) => o.kind === kind).map((o) => o.metadata.name as string);
}

function snapshot(dir: string): string {
  const out = tempDir('capiform-tplhash-snap-');
  for (const d of ['providers', 'clusters', 'clusterclasses']) cpSync(join(dir, d), join(out, d), { recursive: true });
  return out;
}

const cacheEnv = (dir: string): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: join(dir, '.cache') });

async function render(dir: string): Promise<void> {
  const r = await runCli(['render'], { cwd: dir, env: cacheEnv(dir) });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

async function jsonDiff(base: string, head: string): Promise<Any> {
  const r = await runCli(['diff', '--format', 'json', base, head], { cwd: head, env: { PATH: process.env.PATH, HOME: head } });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Any;
}

describe('templates.hashNames through render and diff', { timeout: 240_000 }, () => {
  it('names machine templates <name>-<hash> and points every reference at them', async () => {
    const dir = project({ templates: 'templates: { hashNames: true },' });
    await render(dir);
    const cluster = objects(dir, 'clusters/team-b/prod-1/cluster.yaml');
    const [cpTemplate, workerTemplate] = names(cluster, 'DockerMachineTemplate');
    expect(cpTemplate).toMatch(hashed('prod-1-control-plane'));
    expect(workerTemplate).toMatch(hashed('prod-1-md-0'));
    expect(names(cluster, 'KubeadmConfigTemplate')[0]).toMatch(hashed('prod-1-md-0'));
    const md = cluster.find((o) => o.kind === 'MachineDeployment')!;
    expect(md.metadata.name).toBe('prod-1-md-0');
    expect(md.spec.template.spec.infrastructureRef.name).toBe(workerTemplate);
    expect(md.spec.template.spec.bootstrap.configRef.name).toBe(names(cluster, 'KubeadmConfigTemplate')[0]);
    const kcp = cluster.find((o) => o.kind === 'KubeadmControlPlane')!;
    expect(kcp.metadata.name).toBe('prod-1-control-plane');
    expect(kcp.spec.machineTemplate.spec.infrastructureRef.name).toBe(cpTemplate);
    // Not machine templates: their names stay.
    expect(names(cluster, 'DockerCluster')).toEqual(['prod-1']);

    // The shared ClusterClass: its machine templates and the templates whose webhooks refuse spec updates
    // (KubeadmControlPlaneTemplate, DockerClusterTemplate) renamed, its templateRefs rewritten.
    const cc = objects(dir, 'clusterclasses/team-a/quick-start/clusterclass.yaml');
    const cls = cc.find((o) => o.kind === 'ClusterClass')!;
    const md0 = cls.spec.workers.machineDeployments[0];
    expect(md0.bootstrap.templateRef.name).toMatch(hashed('quick-start-default-worker-bootstraptemplate'));
    expect(md0.infrastructure.templateRef.name).toMatch(hashed('quick-start-default-worker-machinetemplate'));
    expect(cls.spec.controlPlane.machineInfrastructure.templateRef.name).toMatch(hashed('quick-start-control-plane'));
    expect(cls.spec.controlPlane.templateRef.name).toMatch(hashed('quick-start-control-plane'));
    expect(names(cc, 'KubeadmControlPlaneTemplate')).toEqual([cls.spec.controlPlane.templateRef.name]);
    expect(cls.spec.infrastructure.templateRef.name).toMatch(hashed('quick-start-cluster'));
    expect(names(cc, 'DockerClusterTemplate')).toEqual([cls.spec.infrastructure.templateRef.name]);
    expect(names(cc, 'DockerMachineTemplate').sort()).toEqual(
      [cls.spec.controlPlane.machineInfrastructure.templateRef.name, md0.infrastructure.templateRef.name].sort(),
    );
    expect(names(cc, 'KubeadmConfigTemplate')).toEqual([md0.bootstrap.templateRef.name]);
    // A cluster refers to its class by name: unaffected.
    const dev = objects(dir, 'clusters/team-a/dev-1/cluster.yaml').find((o) => o.kind === 'Cluster')!;
    expect(dev.spec.topology.classRef.name).toBe('quick-start');

    // File names and kustomizations are those of any render; the tree checks clean against the lock.
    expect(readFileSync(join(dir, 'clusterclasses/team-a/quick-start/kustomization.yaml'), 'utf8')).toContain('- clusterclass.yaml');
    const check = await runCli(['render', '--check', '--frozen'], { cwd: dir, env: cacheEnv(dir) });
    expect(check.stdout + check.stderr).toContain('up to date');
    expect(check.code).toBe(0);
  });

  it('a template spec change gets new names, and the diff shows a rotation that rolls the workers', async () => {
    const dir = project({ templates: 'templates: { hashNames: true },', workerImage: 'kindest/node:v1.33.1' });
    await render(dir);
    const before = snapshot(dir);
    const oldName = names(objects(dir, 'clusters/team-b/prod-1/cluster.yaml'), 'DockerMachineTemplate')[1]!;

    writeConfig(dir, { templates: 'templates: { hashNames: true },', workerImage: 'registry.example.com/node:v1.33.1' });
    await render(dir);
    const cluster = objects(dir, 'clusters/team-b/prod-1/cluster.yaml');
    const newName = names(cluster, 'DockerMachineTemplate')[1]!;
    expect(newName).toMatch(hashed('prod-1-md-0'));
    expect(newName).not.toBe(oldName);
    expect(cluster.find((o) => o.kind === 'MachineDeployment')!.spec.template.spec.infrastructureRef.name).toBe(newName);

    const report = await jsonDiff(before, dir);
    expect(report.counts).toMatchObject({ rotated: 1, added: 0, removed: 0 });
    const rotation = report.changes.find((c: Any) => c.action === 'rotated');
    expect(rotation).toMatchObject({ kind: 'DockerMachineTemplate', namespace: 'team-b', previousName: oldName, name: newName });
    expect(rotation.fields.map((f: Any) => [f.path, f.old, f.new])).toEqual([['.spec.template.spec.customImage', 'kindest/node:v1.33.1', 'registry.example.com/node:v1.33.1']]);
    const md = report.changes.find((c: Any) => c.kind === 'MachineDeployment');
    expect(md.action).toBe('changed');
    expect(md.impacts.map((i: Any) => i.kind)).toContain('worker-rollout');
    expect(report.clusters.map((c: Any) => [c.cluster, c.workersRoll])).toEqual([['team-b/prod-1', ['prod-1-md-0']]]);
    expect(report.summary.text).toBe('1 cluster will roll workers');
  });

  it('a metadata-only change keeps the template name', async () => {
    const dir = project({ templates: 'templates: { hashNames: true },' });
    await render(dir);
    const before = snapshot(dir);
    const name = names(objects(dir, 'clusters/team-b/prod-1/cluster.yaml'), 'DockerMachineTemplate')[1]!;

    writeConfig(dir, { templates: 'templates: { hashNames: true },', workerNote: 'reviewed' });
    await render(dir);
    const worker = objects(dir, 'clusters/team-b/prod-1/cluster.yaml').find((o) => o.kind === 'DockerMachineTemplate' && o.metadata.name === name);
    expect(worker?.metadata.annotations).toEqual({ note: 'reviewed' });

    const report = await jsonDiff(before, dir);
    expect(report.counts).toMatchObject({ rotated: 0, added: 0, removed: 0, changed: 1 });
    expect(report.changes[0]).toMatchObject({ action: 'changed', kind: 'DockerMachineTemplate', name });
  });

  it('is off by default; a cluster can override the global setting; toggling it re-renders cached directories', async () => {
    const dir = project();
    await render(dir);
    expect(names(objects(dir, 'clusters/team-b/prod-1/cluster.yaml'), 'DockerMachineTemplate')).toEqual(['prod-1-control-plane', 'prod-1-md-0']);
    expect(names(objects(dir, 'clusterclasses/team-a/quick-start/clusterclass.yaml'), 'KubeadmConfigTemplate')).toEqual(['quick-start-default-worker-bootstraptemplate']);

    // Same repository and lock, same tree cache: only the option changes, and both directories are rendered again.
    writeConfig(dir, { templates: 'templates: { hashNames: true },' });
    await render(dir);
    expect(names(objects(dir, 'clusters/team-b/prod-1/cluster.yaml'), 'DockerMachineTemplate')[1]).toMatch(hashed('prod-1-md-0'));
    expect(names(objects(dir, 'clusterclasses/team-a/quick-start/clusterclass.yaml'), 'KubeadmConfigTemplate')[0]).toMatch(
      hashed('quick-start-default-worker-bootstraptemplate'),
    );

    writeConfig(dir, { templates: 'templates: { hashNames: true },', clusterTemplates: 'templates: { hashNames: false }' });
    await render(dir);
    expect(names(objects(dir, 'clusters/team-b/prod-1/cluster.yaml'), 'DockerMachineTemplate')).toEqual(['prod-1-control-plane', 'prod-1-md-0']);
    // ClusterClasses are shared by clusters: they follow the global setting.
    expect(names(objects(dir, 'clusterclasses/team-a/quick-start/clusterclass.yaml'), 'KubeadmConfigTemplate')[0]).toMatch(
      hashed('quick-start-default-worker-bootstraptemplate'),
    );

    writeConfig(dir, { clusterTemplates: 'templates: { hashNames: true }' });
    await render(dir);
    expect(names(objects(dir, 'clusters/team-b/prod-1/cluster.yaml'), 'DockerMachineTemplate')[1]).toMatch(hashed('prod-1-md-0'));
    expect(names(objects(dir, 'clusterclasses/team-a/quick-start/clusterclass.yaml'), 'KubeadmConfigTemplate')).toEqual(['quick-start-default-worker-bootstraptemplate']);
  });

  it('rejects a value that is not a boolean', async () => {
    const dir = project({ templates: "templates: { hashNames: 'yes' }," });
    const r = await runCli(['render'], { cwd: dir, env: cacheEnv(dir) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('templates.hashNames');
    expect(r.stderr).toMatch(/expected boolean/i);
  });
});
