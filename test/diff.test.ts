/**
 * `capiform diff` over real git repositories and directories: what changed, and what CAPI will do about it.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { classFiles, clusterFiles, find, git, gitRepo, header, providerFiles, writeTree, type Files } from './helpers/diff-fixtures.js';
import type { DiffReport } from '../src/plan/diff/index.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixture edits reach deep into YAML

async function jsonDiff(repo: string, ...extra: string[]): Promise<DiffReport> {
  const r = await runCli(['diff', '--format', 'json', ...extra], { cwd: repo });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as DiffReport;
}

const plainCluster = (edit?: (objs: Obj[]) => void, extra: Partial<Parameters<typeof clusterFiles>[0]> = {}): Files =>
  clusterFiles({ namespace: 'team-b', name: 'prod-1', workers: 2, ...extra, ...(edit ? { edit } : {}) });

describe('capiform diff against a git ref', () => {
  it('a MachineDeployment replica change is an in-place scale; nothing rolls', async () => {
    const repo = gitRepo(plainCluster(), plainCluster(undefined, { workers: 5 }));
    const report = await jsonDiff(repo, '--base', 'HEAD');
    expect(report.counts).toMatchObject({ changed: 1, added: 0, removed: 0, rotated: 0 });
    const md = report.changes.find((c) => c.kind === 'MachineDeployment');
    expect(md?.fields).toEqual([{ path: '.spec.replicas', action: 'changed', old: 2, new: 5 }]);
    expect(md?.impacts).toEqual([{ kind: 'in-place', reason: 'prod-1-md-0 scales 2 → 5', cluster: 'team-b/prod-1', machineDeployment: 'prod-1-md-0' }]);
    expect(report.clusters).toMatchObject([{ cluster: 'team-b/prod-1', impact: 'in-place', controlPlaneRolls: false, workersRoll: [] }]);
    expect(report.summary.text).toBe('1 cluster changes in place');
  });

  it('a KubeadmControlPlane kubeadmConfigSpec change rolls the control plane, not the workers', async () => {
    const repo = gitRepo(
      plainCluster(),
      plainCluster((objs) => {
        find(objs, 'KubeadmControlPlane').spec.kubeadmConfigSpec.clusterConfiguration.apiServer.certSANs.push('api.example.com');
      }),
    );
    const report = await jsonDiff(repo);
    const kcp = report.changes.find((c) => c.kind === 'KubeadmControlPlane');
    expect(kcp?.fields[0]?.path).toBe('.spec.kubeadmConfigSpec.clusterConfiguration.apiServer.certSANs');
    expect(kcp?.impacts.map((i) => i.kind)).toEqual(['control-plane-rollout']);
    expect(report.clusters[0]).toMatchObject({ controlPlaneRolls: true, workersRoll: [] });
    expect(report.summary.text).toBe('1 control plane rolls');
  });

  it('a KubeadmControlPlane version bump rolls the control plane; replicas alone do not', async () => {
    const repo = gitRepo(plainCluster(), plainCluster(undefined, { version: 'v1.34.0', cp: 3 }));
    const report = await jsonDiff(repo);
    const kcp = report.changes.find((c) => c.kind === 'KubeadmControlPlane');
    expect(kcp?.impacts).toEqual([
      { kind: 'in-place', reason: 'control plane scales 1 → 3', cluster: 'team-b/prod-1' },
      { kind: 'control-plane-rollout', reason: 'Kubernetes version v1.33.1 → v1.34.0', cluster: 'team-b/prod-1' },
    ]);
    const md = report.changes.find((c) => c.kind === 'MachineDeployment');
    expect(md?.impacts[0]).toMatchObject({ kind: 'worker-rollout', reason: 'Kubernetes version v1.33.1 → v1.34.0' });
    expect(report.summary.text).toBe('1 cluster will roll workers; 1 control plane rolls');
  });

  it('with hash-named templates a machine template spec change is a rotation and rolls that MachineDeployment', async () => {
    const edit = (objs: Obj[]): void => {
      find(objs, 'DockerMachineTemplate', 'prod-1-md-0').spec.template.spec.customImage = 'kindest/node:v1.33.1';
    };
    const repo = gitRepo(plainCluster(undefined, { hashNames: true }), plainCluster(edit, { hashNames: true }));
    const report = await jsonDiff(repo);
    expect(report.counts).toMatchObject({ rotated: 1, added: 0, removed: 0, changed: 1 });
    const rot = report.changes.find((c) => c.action === 'rotated');
    expect(rot).toMatchObject({ kind: 'DockerMachineTemplate', namespace: 'team-b' });
    expect(rot?.previousName).toMatch(/^prod-1-md-0-[0-9a-f]{10}$/);
    expect(rot?.name).toMatch(/^prod-1-md-0-[0-9a-f]{10}$/);
    expect(rot?.name).not.toBe(rot?.previousName);
    expect(rot?.fields).toEqual([{ path: '.spec.template.spec.customImage', action: 'added', new: 'kindest/node:v1.33.1' }]);
    expect(rot?.impacts[0]?.kind).toBe('template-rotation');
    const md = report.changes.find((c) => c.kind === 'MachineDeployment');
    expect(md?.impacts).toMatchObject([{ kind: 'worker-rollout', machineDeployment: 'prod-1-md-0', cluster: 'team-b/prod-1' }]);
    expect(report.clusters[0]).toMatchObject({ impact: 'worker-rollout', workersRoll: ['prod-1-md-0'], controlPlaneRolls: false });
    // The control plane's template did not change, so its hash name is stable.
    expect(report.changes.filter((c) => c.kind === 'KubeadmControlPlane')).toEqual([]);
    const text = await runCli(['diff'], { cwd: repo });
    expect(text.stdout).toContain(`↻ DockerMachineTemplate team-b/${rot?.previousName} → ${rot?.name}`);
  });

  it('without hash names a template spec mutation is rejected: CAPD refuses the update and nothing rolls', async () => {
    const edit = (objs: Obj[]): void => {
      find(objs, 'DockerMachineTemplate', 'prod-1-md-0').spec.template.spec.customImage = 'x';
    };
    const report = await jsonDiff(gitRepo(plainCluster(), plainCluster(edit)));
    const t = report.changes.find((c) => c.kind === 'DockerMachineTemplate');
    expect(t?.impacts).toMatchObject([{ kind: 'rejected', cluster: 'team-b/prod-1', field: 'spec.template.spec', rule: 'immutable/DockerMachineTemplate' }]);
    expect(t?.impacts[0]?.hint).toMatch(/hashNames: true/);
    expect(report.clusters).toMatchObject([{ cluster: 'team-b/prod-1', impact: 'rejected', workersRoll: [] }]);
  });

  it('a ClusterClass worker template changed under the same name is rejected in every cluster of the class', async () => {
    const base: Files = {
      ...classFiles('team-a'),
      ...clusterFiles({ namespace: 'team-a', name: 'dev-1', flavor: 'development' }),
      ...clusterFiles({ namespace: 'team-a', name: 'dev-2', flavor: 'development' }),
      ...plainCluster(),
    };
    const head: Files = {
      ...base,
      ...classFiles('team-a', (objs) => {
        find(objs, 'DockerMachineTemplate', 'quick-start-default-worker-machinetemplate').spec.template.spec.extraMounts.push({ containerPath: '/data', hostPath: '/data' });
      }),
    };
    const report = await jsonDiff(gitRepo(base, head));
    expect(report.counts.changed).toBe(1);
    const t = report.changes[0];
    expect(t?.owner).toEqual({ type: 'namespace', namespace: 'team-a' });
    expect(t?.impacts.map((i) => [i.kind, i.cluster, i.field])).toEqual([
      ['rejected', 'team-a/dev-1', 'spec.template.spec'],
      ['rejected', 'team-a/dev-2', 'spec.template.spec'],
    ]);
    expect(report.clusters.map((c) => [c.cluster, c.impact, c.workersRoll])).toEqual([
      ['team-a/dev-1', 'rejected', []],
      ['team-a/dev-2', 'rejected', []],
    ]);
    expect(report.summary.text).toBe(
      '1 update rejected by admission webhooks (DockerMachineTemplate team-a/quick-start-default-worker-machinetemplate), in 2 clusters: the Argo CD sync will fail',
    );
  });

  it('with hash names a ClusterClass worker template change is a rotation of the class template', async () => {
    const { hashTemplateNames } = await import('../src/render/template-hash.js');
    const hashed = (edit?: (objs: Obj[]) => void) => (objs: Obj[]): void => {
      edit?.(objs);
      objs.splice(0, objs.length, ...hashTemplateNames(objs));
    };
    const clusters = { ...clusterFiles({ namespace: 'team-a', name: 'dev-1', flavor: 'development' }), ...clusterFiles({ namespace: 'team-a', name: 'dev-2', flavor: 'development' }) };
    const base = { ...classFiles('team-a', hashed()), ...clusters };
    const head = {
      ...classFiles(
        'team-a',
        hashed((objs) => {
          find(objs, 'KubeadmConfigTemplate').spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs.push({ name: 'v', value: '2' });
        }),
      ),
      ...clusters,
    };
    const report = await jsonDiff(gitRepo(base, head));
    expect(report.counts).toMatchObject({ rotated: 1, changed: 1, added: 0, removed: 0 });
    const rot = report.changes.find((c) => c.action === 'rotated');
    expect(rot?.kind).toBe('KubeadmConfigTemplate');
    expect(rot?.previousName).toMatch(/^quick-start-default-worker-bootstraptemplate-[0-9a-f]{10}$/);
    const cc = report.changes.find((c) => c.kind === 'ClusterClass');
    expect(cc?.fields.map((f) => f.path)).toEqual(['.spec.workers.machineDeployments[class=default-worker].bootstrap.templateRef.name']);
    expect(report.clusters.map((c) => [c.cluster, c.workersRoll])).toEqual([
      ['team-a/dev-1', ['md-0']],
      ['team-a/dev-2', ['md-0']],
    ]);
  });

  it('a ClusterClass control plane machine template change (a new template) rolls both control planes', async () => {
    const { hashTemplateNames } = await import('../src/render/template-hash.js');
    const hashed = (edit?: (objs: Obj[]) => void) => (objs: Obj[]): void => {
      edit?.(objs);
      objs.splice(0, objs.length, ...hashTemplateNames(objs));
    };
    const clusters = { ...clusterFiles({ namespace: 'team-a', name: 'dev-1', flavor: 'development' }), ...clusterFiles({ namespace: 'team-a', name: 'dev-2', flavor: 'development' }) };
    const base: Files = { ...classFiles('team-a', hashed()), ...clusters };
    const head: Files = {
      ...clusters,
      ...classFiles(
        'team-a',
        hashed((objs) => {
          find(objs, 'DockerMachineTemplate', 'quick-start-control-plane').spec.template.spec.extraMounts = [{ containerPath: '/data', hostPath: '/data' }];
        }),
      ),
    };
    const report = await jsonDiff(gitRepo(base, head));
    expect(report.summary.text).toBe('2 control planes roll');
  });

  it('ClusterClass patches and topology variables may roll; Cluster annotations are a no-op', async () => {
    const base: Files = { ...classFiles('team-a'), ...clusterFiles({ namespace: 'team-a', name: 'dev-1', flavor: 'development' }) };
    const head: Files = {
      ...classFiles('team-a'),
      ...clusterFiles({
        namespace: 'team-a',
        name: 'dev-1',
        flavor: 'development',
        edit: (objs) => {
          const c = find(objs, 'Cluster');
          c.metadata.annotations = { 'example.com/owner': 'team-a' };
          c.spec.topology.variables[0].value = 'registry.example.com';
        },
      }),
    };
    const report = await jsonDiff(gitRepo(base, head));
    const cl = report.changes.find((c) => c.kind === 'Cluster');
    expect(cl?.impacts.map((i) => [i.kind, i.possible ?? false])).toEqual([
      ['no-op', false],
      ['control-plane-rollout', true],
      ['worker-rollout', true],
    ]);
    expect(report.summary.text).toBe('1 cluster may roll (variables, patches or class changed)');
  });

  it('a provider upgrade: inventory version, image, flags and CRDs', async () => {
    const repo = gitRepo({ ...providerFiles('cluster-api', 'v1.12.4'), ...plainCluster() }, { ...providerFiles('cluster-api', 'v1.13.1'), ...plainCluster() });
    const report = await jsonDiff(repo);
    expect(report.providers).toHaveLength(1);
    const p = report.providers[0];
    expect(p).toMatchObject({ label: 'cluster-api', providerName: 'cluster-api', type: 'CoreProvider', fromVersion: 'v1.12.4', toVersion: 'v1.13.1', impact: 'provider-upgrade', fromContract: 'v1beta2', toContract: 'v1beta2' });
    expect(p?.images).toEqual([
      { container: 'manager', object: 'capi-controller-manager', from: 'registry.k8s.io/cluster-api/cluster-api-controller:v1.12.4', to: 'registry.k8s.io/cluster-api/cluster-api-controller:v1.13.1' },
    ]);
    expect(p?.args[0]?.changed[0]?.flag).toBe('--feature-gates');
    expect(p?.crds.changed).toContain('clusters.cluster.x-k8s.io');
    expect(p?.crds.versionsDeprecated).toContain('clusters.cluster.x-k8s.io/v1beta1');
    expect(report.clusters).toEqual([]);
    expect(report.summary.text).toBe('1 provider upgraded (cluster-api v1.12.4 → v1.13.1)');
    const inv = report.changes.find((c) => c.kind === 'Provider');
    expect(inv?.impacts).toEqual([{ kind: 'provider-upgrade', provider: 'cluster-api', reason: 'cluster-api v1.12.4 → v1.13.1' }]);
    const md = await runCli(['diff', '--format', 'markdown'], { cwd: repo });
    expect(md.stdout).toContain('| cluster-api | v1.12.4 → v1.13.1 | v1beta2 | provider upgrade |');
    expect(md.stdout).toContain('image of capi-controller-manager/manager');
  });

  it('a Secret change is shown as changed with salted hashes, never its value, in every format', async () => {
    const secret = (value: string): Files => ({
      'clusters/team-b/prod-1/secret.yaml': `${header}apiVersion: v1\nkind: Secret\nmetadata:\n  name: prod-1-credentials\n  namespace: team-b\ntype: Opaque\nstringData:\n  password: ${value}\n  user: admin\ndata:\n  token: ${Buffer.from(value).toString('base64')}\n`,
    });
    const repo = gitRepo({ ...plainCluster(), ...secret('hunter2-old') }, { ...plainCluster(), ...secret('s3cr3t-new') });
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_DIFF_SALT: 'salt-1' };
    const outputs: string[] = [];
    for (const format of ['text', 'markdown', 'json']) {
      const r = await runCli(['diff', '--format', format], { cwd: repo, env });
      expect(r.code).toBe(0);
      outputs.push(r.stdout);
    }
    for (const out of outputs) {
      expect(out).not.toContain('hunter2');
      expect(out).not.toContain('s3cr3t');
      expect(out).not.toContain(Buffer.from('s3cr3t-new').toString('base64'));
    }
    const report = JSON.parse(outputs[2] ?? '') as DiffReport;
    const fields = report.changes.find((c) => c.kind === 'Secret')?.fields ?? [];
    expect(fields.map((f) => [f.path, f.action, f.redacted?.reason])).toEqual([
      ['.data["token"]', 'changed', 'Secret data'],
      ['.stringData["password"]', 'changed', 'Secret data'],
    ]);
    expect(fields[0]?.redacted?.oldHash).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(fields[0]?.redacted?.oldHash).not.toBe(fields[0]?.redacted?.newHash);
    // Same salt, same value → same hash; another salt → another hash.
    const again = JSON.parse((await runCli(['diff', '--format', 'json'], { cwd: repo, env })).stdout) as DiffReport;
    expect(again.changes.find((c) => c.kind === 'Secret')?.fields[0]?.redacted).toEqual(fields[0]?.redacted);
    const other = JSON.parse((await runCli(['diff', '--format', 'json'], { cwd: repo, env: { ...env, CAPIFORM_DIFF_SALT: 'salt-2' } })).stdout) as DiffReport;
    expect(other.changes.find((c) => c.kind === 'Secret')?.fields[0]?.redacted?.newHash).not.toBe(fields[0]?.redacted?.newHash);
  });

  it('a YAML error in a Secret is a warning that does not quote the file', async () => {
    const bad = `${header}apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: team-b\nstringData:\n  password: hunter2: [oops\n`;
    const repo = gitRepo(plainCluster(), { ...plainCluster(), 'clusters/team-b/prod-1/secret.yaml': bad });
    const r = await runCli(['diff', '--format', 'json'], { cwd: repo });
    expect(r.stdout).not.toContain('hunter2');
    expect((JSON.parse(r.stdout) as DiffReport).warnings.some((w) => w.includes('secret.yaml: YAML error'))).toBe(true);
  });

  it('values of --secret-var variables are hidden wherever they appear', async () => {
    const withToken = (token: string): Files =>
      plainCluster((objs) => {
        find(objs, 'KubeadmControlPlane').spec.kubeadmConfigSpec.files = [{ path: '/etc/token', content: `token=${token}` }];
      });
    const repo = gitRepo(withToken('tok-AAAA1111'), withToken('tok-BBBB2222'));
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, REGISTRY_TOKEN: 'tok-BBBB2222', OLD_TOKEN: 'tok-AAAA1111' };
    for (const format of ['text', 'markdown', 'json']) {
      const r = await runCli(['diff', '--format', format, '--secret-var', 'REGISTRY_TOKEN', '--secret-var', 'OLD_TOKEN'], { cwd: repo, env });
      expect(r.stdout).not.toContain('tok-');
      expect(r.stdout).toContain(format === 'json' ? 'secret variable' : 'secret variable');
    }
  });

  it('an unknown git ref is an input error (exit 2) naming the ref', async () => {
    const repo = gitRepo(plainCluster());
    const r = await runCli(['diff', '--base', 'origin/nope'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: unknown git ref "origin/nope": no such branch, tag or commit');
    expect(r.stderr).toContain('fix: fetch it first (git fetch origin nope)');
    expect(r.stdout).toBe('');
  });

  it('--base outside a git repository is an input error', async () => {
    const dir = writeTree(plainCluster());
    const r = await runCli(['diff', '--base', 'main'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not inside a git repository, so --base cannot be read/);
  });

  it('a base without a tree (first render): everything is new', async () => {
    const repo = gitRepo({ 'README.md': 'x\n' }, plainCluster());
    const report = await jsonDiff(repo);
    expect(report.counts.added).toBeGreaterThan(5);
    expect(report.clusters).toMatchObject([{ cluster: 'team-b/prod-1', created: true, impact: 'create' }]);
    expect(report.summary.text).toBe('1 cluster created');
    expect(report.warnings[0]).toMatch(/git:HEAD has no rendered tree/);
  });

  it('reads the base with git only: the working tree and index are untouched', async () => {
    const repo = gitRepo(plainCluster(), plainCluster(undefined, { workers: 3 }));
    const before = git(repo, 'status', '--porcelain');
    await jsonDiff(repo);
    expect(git(repo, 'status', '--porcelain')).toBe(before);
  });

  it('a removed cluster is a deletion', async () => {
    const repo = gitRepo({ ...plainCluster(), ...clusterFiles({ namespace: 'team-c', name: 'old' }) }, plainCluster());
    const report = await jsonDiff(repo);
    expect(report.clusters).toMatchObject([{ cluster: 'team-c/old', deleted: true, impact: 'deletion' }]);
    expect(report.summary.text).toBe('1 cluster deleted');
  });
});

describe('capiform diff DIR_A DIR_B', () => {
  it('compares two directories; --exit-code exits 1 on changes and 0 without', async () => {
    const a = writeTree(plainCluster());
    const b = writeTree(plainCluster(undefined, { workers: 4 }));
    expect((await runCli(['diff', a, b])).code).toBe(0);
    const changed = await runCli(['diff', '--exit-code', a, b]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('~ MachineDeployment team-b/prod-1-md-0');
    expect(changed.stdout).toContain('.spec.replicas: 2 → 4');
    const same = await runCli(['diff', '--exit-code', a, a]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('no changes');
  });

  it('a tree that is not capiform\'s is an input error', async () => {
    const a = writeTree(plainCluster());
    const foreign = writeTree({ 'clusters/x/y/cluster.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n' });
    const r = await runCli(['diff', a, foreign]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: ${foreign} is not a tree rendered by capiform: none of its 1 YAML files starts with the "# generated by capiform" header`);
  });

  it('a directory without a tree, or a missing directory, is an input error', async () => {
    const a = writeTree(plainCluster());
    const empty = writeTree({ 'notes.txt': 'x' });
    const r1 = await runCli(['diff', empty, a]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain('has no rendered tree: no YAML files under providers/, clusters/ or argocd/');
    const r2 = await runCli(['diff', a, join(a, 'missing')]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('is not a directory');
  });

  it('usage errors: one directory, directories with --base or --render, a bad --max-size', async () => {
    const a = writeTree(plainCluster());
    expect(await runCli(['diff', a])).toMatchObject({ code: 2 });
    expect((await runCli(['diff', a])).stderr).toContain('capiform diff takes two directories (BASE HEAD) or none, got 1');
    expect((await runCli(['diff', '--base', 'main', a, a])).stderr).toContain('pass either two directories or --base/--render, not both');
    const ms = await runCli(['diff', '--max-size', 'lots', a, a]);
    expect(ms.code).toBe(2);
    expect(ms.stderr).toContain('invalid --max-size "lots"');
    const render = await runCli(['diff', '--render', a, a]);
    expect(render.code).toBe(2);
    expect(render.stderr).toContain('pass either two directories or --base/--render, not both');
    const fmt = await runCli(['diff', '--format', 'html', a, a]);
    expect(fmt.code).toBe(2);
  });

  it('colours only on a terminal (or with FORCE_COLOR), never with NO_COLOR', async () => {
    const a = writeTree(plainCluster());
    const b = writeTree(plainCluster(undefined, { workers: 4 }));
    const esc = '\u001b[';
    expect((await runCli(['diff', a, b], { isTTY: true, env: { PATH: process.env.PATH, FORCE_COLOR: '1' } })).stdout).toContain(esc);
    expect((await runCli(['diff', a, b], { isTTY: true, env: { PATH: process.env.PATH, NO_COLOR: '1', FORCE_COLOR: '1' } })).stdout).not.toContain(esc);
    expect((await runCli(['diff', a, b], { isTTY: false })).stdout).not.toContain(esc);
  });

  it('the apiVersion version is not part of the identity: v1beta1 → v1beta2 is a field change', async () => {
    const a = writeTree(plainCluster((objs) => void (find(objs, 'DockerCluster').apiVersion = 'infrastructure.cluster.x-k8s.io/v1beta1')));
    const b = writeTree(plainCluster());
    const r = JSON.parse((await runCli(['diff', '--format', 'json', a, b])).stdout) as DiffReport;
    expect(r.changes).toMatchObject([{ action: 'changed', kind: 'DockerCluster', previousApiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2' }]);
    expect(r.changes[0]?.fields).toEqual([{ path: '.apiVersion', action: 'changed', old: 'infrastructure.cluster.x-k8s.io/v1beta1', new: 'infrastructure.cluster.x-k8s.io/v1beta2' }]);
  });
});

describe('more cases', () => {
  it('an object that only moved to another file is a no-op', async () => {
    const files = plainCluster();
    const text = files['clusters/team-b/prod-1/cluster.yaml'] ?? '';
    const docs = text.slice(header.length).split('---\n');
    const moved: Files = {
      'clusters/team-b/prod-1/kustomization.yaml': files['clusters/team-b/prod-1/kustomization.yaml'] ?? '',
      'clusters/team-b/prod-1/cluster.yaml': header + docs.slice(0, -1).join('---\n'),
      'clusters/team-b/prod-1/workers.yaml': header + (docs.at(-1) ?? ''),
    };
    const r = JSON.parse((await runCli(['diff', '--format', 'json', writeTree(files), writeTree(moved)])).stdout) as DiffReport;
    expect(r.changes).toMatchObject([{ kind: 'MachineDeployment', action: 'changed', fields: [], previousFile: 'clusters/team-b/prod-1/cluster.yaml', file: 'clusters/team-b/prod-1/workers.yaml' }]);
    expect(r.changes[0]?.impacts).toEqual([{ kind: 'no-op', reason: 'moved from clusters/team-b/prod-1/cluster.yaml to clusters/team-b/prod-1/workers.yaml' }]);
    expect(r.summary.text).toBe('no rollout: only no-op changes');
  });

  it('a tree in a sub-folder of the repository (--root)', async () => {
    const prefixed = (f: Files): Files => Object.fromEntries(Object.entries(f).map(([k, v]) => [`deploy/${k}`, v]));
    const repo = gitRepo(prefixed(plainCluster()));
    const head = plainCluster(undefined, { workers: 7 });
    const { writeFiles } = await import('./helpers/diff-fixtures.js');
    writeFiles(join(repo, 'deploy'), head);
    const r = await runCli(['diff', '--root', 'deploy', '--format', 'json'], { cwd: repo });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as DiffReport;
    expect(report.changes.map((c) => [c.kind, c.fields[0]?.path, c.fields[0]?.new])).toEqual([['MachineDeployment', '.spec.replicas', 7]]);
    // From inside the tree folder, no --root is needed.
    const inside = await runCli(['diff', '--format', 'json'], { cwd: join(repo, 'deploy', 'clusters') });
    expect(inside.code).toBe(2);
    const fromRepoRoot = gitRepo(plainCluster(), plainCluster(undefined, { workers: 7 }));
    const sub = await runCli(['diff', '--format', 'json'], { cwd: join(fromRepoRoot, 'clusters', 'team-b') });
    expect((JSON.parse(sub.stdout) as DiffReport).counts.changed).toBe(1);
  });

  it('markdown escapes values: no HTML injection, no broken tables', async () => {
    const cm = (v: string): Files => ({
      'clusters/team-b/prod-1/cm.yaml': `${header}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: crs\n  namespace: team-b\ndata:\n  x: ${JSON.stringify(v)}\n`,
    });
    const a = writeTree({ ...plainCluster(), ...cm('a') });
    const b = writeTree({ ...plainCluster(), ...cm('<script>alert(1)</script> | x') });
    const r = await runCli(['diff', '--format', 'markdown', a, b]);
    expect(r.stdout).not.toContain('<script>');
    expect(r.stdout).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &#124; x');
  });
});

describe('markdown', () => {
  const many = (n: number, workers: number): Files => {
    let files: Files = {};
    for (let i = 0; i < n; i++) files = { ...files, ...clusterFiles({ namespace: 'fleet', name: `c-${String(i).padStart(3, '0')}`, workers, version: workers > 2 ? 'v1.34.0' : 'v1.33.1' }) };
    return files;
  };

  it('is bounded: summary first, sections cut with a note saying what was cut and where the full report is', async () => {
    const a = writeTree(many(60, 2));
    const b = writeTree(many(60, 3));
    const r = await runCli(['diff', '--format', 'markdown', '--max-size', '8000', '--json-out', join(b, 'diff.json'), a, b]);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeLessThanOrEqual(8000);
    expect(r.stdout.startsWith('<!-- capiform-diff -->\n### capiform diff:')).toBe(true);
    expect(r.stdout).toContain('**60 clusters will roll workers; 60 control planes roll**');
    expect(r.stdout).toMatch(/✂️ \d+ of 120 object sections are not shown \(comment limit 8000 characters\): (\d+ KubeadmControlPlane, )?\d+ MachineDeployment\. The full report is in `.*diff\.json`\./);
    const full = JSON.parse(readFileSync(join(b, 'diff.json'), 'utf8')) as DiffReport;
    expect(full.changes).toHaveLength(120);
    // Without a limit problem nothing is cut.
    const small = await runCli(['diff', '--format', 'markdown', writeTree(many(1, 2)), writeTree(many(1, 3))]);
    expect(small.stdout).not.toContain('✂️');
    expect(small.stdout.match(/<details>/g)).toHaveLength(2);
  });

  it('a team can override the layout with --template DIR', async () => {
    const tpl = writeTree({ 'comment.hbs': 'SUMMARY {{report.summary.text}}\n{{#each sections}}{{{this}}}{{/each}}', 'object.hbs': '[{{change.kind}} {{change.name}}]\n' });
    const a = writeTree(plainCluster());
    const b = writeTree(plainCluster(undefined, { workers: 4 }));
    const r = await runCli(['diff', '--format', 'markdown', '--template', tpl, a, b]);
    expect(r.stdout).toBe('SUMMARY 1 cluster changes in place\n[MachineDeployment prod-1-md-0]\n');
    const missing = await runCli(['diff', '--format', 'markdown', '--template', join(tpl, 'nope'), a, b]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
  });

  it('the embedded templates are the shipped .hbs files', async () => {
    const { commentTemplate, objectTemplate, topologyTemplate } = await import('../src/plan/diff/templates.js');
    const dir = join(import.meta.dirname, '..', 'src', 'plan', 'diff', 'templates');
    expect(commentTemplate).toBe(readFileSync(join(dir, 'comment.hbs'), 'utf8'));
    expect(objectTemplate).toBe(readFileSync(join(dir, 'object.hbs'), 'utf8'));
    expect(topologyTemplate).toBe(readFileSync(join(dir, 'topology.hbs'), 'utf8'));
  });
});

describe('json', () => {
  it('has the documented shape (schemaVersion 1)', async () => {
    const repo = gitRepo({ ...providerFiles('cluster-api', 'v1.12.4'), ...plainCluster() }, { ...providerFiles('cluster-api', 'v1.13.1'), ...plainCluster(undefined, { workers: 3 }) });
    const r = await runCli(['--json', 'diff'], { cwd: repo });
    const report = JSON.parse(r.stdout) as DiffReport;
    expect(Object.keys(report)).toEqual(['schemaVersion', 'base', 'head', 'changed', 'counts', 'summary', 'clusters', 'providers', 'changes', 'warnings']);
    expect(report.schemaVersion).toBe(1);
    expect(report.base).toMatchObject({ label: 'git:HEAD' });
    expect(report.head).toMatchObject({ label: 'working tree' });
    expect(Object.keys(report.counts)).toEqual(['added', 'removed', 'changed', 'rotated', 'unchanged']);
    expect(Object.keys(report.summary).sort()).toEqual(
      ['clustersCreated', 'clustersDeleted', 'clustersInPlace', 'clustersOrphaned', 'clustersPossiblyRolling', 'clustersRejected', 'clustersRollingWorkers', 'controlPlanesRolling', 'providersChanged', 'providersUpgraded', 'text', 'updatesRejected'].sort(),
    );
    for (const c of report.changes) {
      expect(['added', 'removed', 'changed', 'rotated']).toContain(c.action);
      expect(c.key).toBe(`${c.apiVersion.includes('/') ? c.apiVersion.split('/')[0] : 'core'}/${c.kind}/${c.namespace}/${c.name}`);
      for (const f of c.fields) {
        expect(Object.keys(f).every((k) => ['path', 'action', 'old', 'new', 'redacted', 'valueDiff'].includes(k))).toBe(true);
        expect(f.path.startsWith('.')).toBe(true);
      }
      for (const i of c.impacts) expect(typeof i.reason).toBe('string');
    }
    // Providers first, then clusters.
    expect(report.changes[0]?.owner.type).toBe('provider');
    expect(report.changes.at(-1)?.owner).toEqual({ type: 'cluster', namespace: 'team-b', name: 'prod-1' });
  });
});
