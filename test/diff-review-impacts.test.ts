/**
 * What the PR review says beyond rollouts: an update the management cluster refuses is **rejected** (it leads the
 * headline, the cluster table and the JSON, and is never folded away), and a removed cluster is described as what
 * Argo CD will do with the generated Applications — left running (orphaned, with the command that deletes it) or
 * deleted.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { classFiles, clusterFiles, emit, find, gitRepo, kustomization, parse, subst, writeFiles, type Files } from './helpers/diff-fixtures.js';
import { readFileSync } from 'node:fs';
import { sharedDir } from './helpers/shared.js';
import { argocdManifests, fleetArgocdManifests, hashTemplateNames } from '../src/render/index.js';
import type { DiffReport } from '../src/plan/diff/index.js';

type Obj = Record<string, unknown>;

const shared = sharedDir('corpus');
const corpus = join(shared.path, 'repository');

/** A git repository whose HEAD holds `base` and whose working tree holds exactly `head`. */
function repoOf(base: Files, head: Files): string {
  const dir = gitRepo(base);
  for (const top of ['providers', 'clusters', 'argocd', 'targets']) rmSync(join(dir, top), { recursive: true, force: true });
  writeFiles(dir, head);
  return dir;
}

async function review(repo: string): Promise<{ report: DiffReport; markdown: string; text: string }> {
  const json = await runCli(['diff', '--format', 'json'], { cwd: repo });
  expect(json.stderr).toBe('');
  const markdown = await runCli(['diff', '--format', 'markdown'], { cwd: repo });
  const text = await runCli(['diff', '--format', 'text'], { cwd: repo });
  return { report: JSON.parse(json.stdout) as DiffReport, markdown: markdown.stdout, text: text.stdout };
}

/** The part of the comment before the first folded object section. */
function unfolded(markdown: string): string {
  const at = markdown.search(/<details( open)?><summary>/);
  return at < 0 ? markdown : markdown.slice(0, at);
}

/** CAPA's default flavor for one cluster, as `capiform render` writes it. */
function awsCluster(version: string, edit?: (objs: Obj[]) => void): Files {
  const raw = readFileSync(join(corpus, 'infrastructure-aws', version, 'cluster-template.yaml'), 'utf8');
  const objs = parse(
    subst(raw, {
      CLUSTER_NAME: 'prod-1',
      AWS_REGION: 'eu-west-1',
      AWS_SSH_KEY_NAME: 'default',
      AWS_CONTROL_PLANE_MACHINE_TYPE: 't3.large',
      AWS_NODE_MACHINE_TYPE: 't3.large',
      KUBERNETES_VERSION: 'v1.33.1',
      CONTROL_PLANE_MACHINE_COUNT: '3',
      WORKER_MACHINE_COUNT: '2',
    }),
  );
  for (const o of objs) (o.metadata as Obj).namespace = 'team-a';
  edit?.(objs);
  return { 'clusters/team-a/prod-1/cluster.yaml': emit(objs), 'clusters/team-a/prod-1/kustomization.yaml': kustomization(['cluster.yaml']) };
}

describe.skipIf(!shared.present)(`diff: updates the management cluster rejects${shared.skipped}`, () => {
  it('an AWSMachineTemplate instanceType edit is rejected by CAPA, not "1 cluster changes in place"', async () => {
    const head = awsCluster('v2.11.1', (objs) => {
      find(objs, 'AWSMachineTemplate', 'prod-1-md-0').spec.template.spec.instanceType = 'm5.xlarge';
    });
    const { report, markdown, text } = await review(repoOf(awsCluster('v2.11.1'), head));
    expect(report.summary.text).toBe(
      "1 update rejected by admission webhooks (AWSMachineTemplate team-a/prod-1-md-0), in 1 cluster: the Argo CD sync will fail",
    );
    expect(report.summary).toMatchObject({ updatesRejected: 1, clustersRejected: 1, clustersInPlace: 0 });
    expect(report.clusters).toMatchObject([
      { cluster: 'team-a/prod-1', impact: 'rejected', rejected: [{ object: 'AWSMachineTemplate team-a/prod-1-md-0', field: 'spec.template.spec', rule: 'immutable/AWSMachineTemplate' }] },
    ]);
    const change = report.changes.find((c) => c.kind === 'AWSMachineTemplate');
    expect(change?.impacts).toEqual([
      {
        kind: 'rejected',
        cluster: 'team-a/prod-1',
        field: 'spec.template.spec',
        message: 'AWSMachineTemplate.Spec is immutable (changed: spec.template.spec.instanceType)',
        rule: 'immutable/AWSMachineTemplate',
        hint: 'give the changed template a new name and point its users at it: templates: { hashNames: true } in capi.config.ts does this on every spec change',
        reason: 'update of AWSMachineTemplate team-a/prod-1-md-0 rejected: spec.template.spec: AWSMachineTemplate.Spec is immutable (changed: spec.template.spec.instanceType)',
      },
    ]);
    // Markdown: the headline, then the rejection table, all before any folded section; the cluster row says so.
    const top = unfolded(markdown);
    expect(top).toContain('**1 update rejected by admission webhooks');
    expect(top).toContain('#### ⛔ Rejected: the management cluster refuses these updates');
    expect(top).toContain('| AWSMachineTemplate <code>team-a/prod-1-md-0</code> | <code>spec.template.spec</code> | AWSMachineTemplate.Spec is immutable (changed: spec.template.spec.instanceType) |');
    expect(top).toMatch(/\| team-a\/prod-1 \| ⛔ rejected \|/);
    expect(top.indexOf('⛔ Rejected')).toBeLessThan(top.indexOf('| cluster | impact |'));
    expect(markdown).toContain('<details open><summary>✏️ <b>AWSMachineTemplate</b> <code>team-a/prod-1-md-0</code> — ⛔ rejected</summary>');
    expect(markdown).not.toContain('changes in place');
    expect(text).toContain('rejected: AWSMachineTemplate team-a/prod-1-md-0 spec.template.spec: AWSMachineTemplate.Spec is immutable');
  });

  it('an AWSMachineTemplate metadata-only edit is not rejected', async () => {
    const head = awsCluster('v2.11.1', (objs) => {
      find(objs, 'AWSMachineTemplate', 'prod-1-md-0').metadata.annotations = { team: 'a' };
    });
    const { report } = await review(repoOf(awsCluster('v2.11.1'), head));
    expect(report.changes.flatMap((c) => c.impacts).some((i) => i.kind === 'rejected')).toBe(false);
    expect(report.summary.updatesRejected).toBe(0);
  });

  it('CAPD v1.12.11 → v1.13.5 changes DockerClusterTemplate under the same name: rejected; with hashNames it is a new template', async () => {
    const tree = (version: string, hashed: boolean): Files => ({
      ...classFiles('team-a', hashed ? (objs) => void objs.splice(0, objs.length, ...hashTemplateNames(objs)) : undefined, version, corpus),
      ...clusterFiles({ namespace: 'team-a', name: 'dev-1', flavor: 'development', providerVersion: version, root: corpus }),
    });
    const plain = await review(repoOf(tree('v1.12.11', false), tree('v1.13.5', false)));
    const dct = plain.report.changes.find((c) => c.kind === 'DockerClusterTemplate');
    expect(dct?.action).toBe('changed');
    expect(dct?.impacts[0]).toMatchObject({
      kind: 'rejected',
      cluster: 'team-a/dev-1',
      field: 'spec.template.spec',
      rule: 'immutable/DockerClusterTemplate',
      message: 'DockerClusterTemplate spec.template.spec field is immutable. Please create a new resource instead. (changed: spec.template.spec.failureDomains)',
    });
    expect(plain.report.clusters).toMatchObject([{ cluster: 'team-a/dev-1', impact: 'rejected' }]);
    expect(plain.report.summary.text).toMatch(/^\d+ updates? rejected by admission webhooks \(.*DockerClusterTemplate team-a\/quick-start-cluster/);
    expect(unfolded(plain.markdown)).toContain('| DockerClusterTemplate <code>team-a/quick-start-cluster</code> | <code>spec.template.spec</code> |');

    // The suggested fix exists: hashNames names DockerClusterTemplate by content too, so the bump rotates it.
    const hashed = await review(repoOf(tree('v1.12.11', true), tree('v1.13.5', true)));
    const rotated = hashed.report.changes.find((c) => c.kind === 'DockerClusterTemplate');
    expect(rotated?.action).toBe('rotated');
    expect(rotated?.name).toMatch(/^quick-start-cluster-[0-9a-f]{10}$/);
    expect(hashed.report.changes.flatMap((c) => c.impacts).filter((i) => i.kind === 'rejected')).toEqual([]);
    expect(hashed.report.summary.updatesRejected).toBe(0);
  });
});

/** Two workload clusters, and the Argo CD glue capiform generates for the ones listed. */
function fleetOf(names: string[], automated: { prune: boolean; selfHeal: boolean }, edit?: (objs: Obj[]) => void): Files {
  const files: Files = {};
  for (const name of names) Object.assign(files, clusterFiles({ namespace: 'team-a', name, ...(name === 'dev-1' && edit ? { edit } : {}) }));
  const glue = argocdManifests({
    repoURL: 'https://git.example.com/platform.git',
    targetRevision: 'main',
    providers: [],
    clusters: names.map((name) => ({ namespace: 'team-a', name, dir: `clusters/team-a/${name}`, wave: 3 })),
    mode: 'applications',
    automated,
    header: 'generated by capiform — do not edit; run `capiform render`',
  });
  for (const f of glue) files[f.path] = f.content;
  return files;
}

describe('diff: removed clusters are what Argo CD does with them', () => {
  for (const prune of [false, true]) {
    it(`a cluster removed from the config (prune: ${prune}) is orphaned: its Application goes without the resources finalizer`, async () => {
      const automated = { prune, selfHeal: true };
      const { report, markdown, text } = await review(repoOf(fleetOf(['dev-1', 'dev-2'], automated), fleetOf(['dev-1'], automated)));
      const hint = 'kubectl delete cluster.cluster.x-k8s.io -n team-a dev-2 (on the management cluster)';
      expect(report.clusters).toMatchObject([{ cluster: 'team-a/dev-2', impact: 'orphaned', deleted: false, orphaned: { hint } }]);
      expect(report.summary).toMatchObject({ clustersOrphaned: 1, clustersDeleted: 0, clustersInPlace: 0 });
      expect(report.summary.text).toBe('1 cluster orphaned: removed from git, still running until deleted by hand');
      const cluster = report.changes.find((c) => c.kind === 'Cluster');
      expect(cluster?.impacts).toEqual([
        {
          kind: 'orphaned',
          cluster: 'team-a/dev-2',
          hint,
          reason:
            'cluster removed from git but left running (control plane, workers and infrastructure stay): its Argo CD Application capi-cluster-team-a-dev-2 is removed too, without the resources finalizer: Argo CD deletes the Application, not what it deployed',
        },
      ]);
      // No removed object of the cluster reads as an update.
      const removed = report.changes.filter((c) => c.action === 'removed' && c.owner.type === 'cluster' && c.kind !== 'Kustomization');
      expect(removed.length).toBeGreaterThan(3);
      for (const c of removed) expect(c.impacts.map((i) => i.kind)).toEqual(['orphaned']);
      expect(unfolded(markdown)).toContain(`- **team-a/dev-2 is orphaned**: cluster removed from git but left running`);
      expect(unfolded(markdown)).toContain(`To delete it: <code>${hint}</code>; CAPI then tears down its machines and infrastructure.`);
      expect(markdown).not.toMatch(/in-place|in place/);
      expect(text).toContain(`orphaned: still running, no longer in git; delete it with ${hint}`);
    });
  }

  it('with prune: true a MachineDeployment removed from a cluster is deleted with its Machines, said loudly', async () => {
    const automated = { prune: true, selfHeal: true };
    const dropMd = (objs: Obj[]): void => void objs.splice(objs.indexOf(find(objs, 'MachineDeployment')), 1);
    const { report, markdown } = await review(repoOf(fleetOf(['dev-1'], automated), fleetOf(['dev-1'], automated, dropMd)));
    const md = report.changes.find((c) => c.kind === 'MachineDeployment');
    expect(md?.impacts).toEqual([
      {
        kind: 'deletion',
        cluster: 'team-a/dev-1',
        machineDeployment: 'dev-1-md-0',
        pruned: true,
        reason: 'MachineDeployment dev-1-md-0 deleted with its Machines: Argo CD Application capi-cluster-team-a-dev-1 prunes (syncPolicy.automated.prune: true)',
      },
    ]);
    expect(report.clusters).toMatchObject([{ cluster: 'team-a/dev-1', impact: 'deletion', deleted: false }]);
    expect(report.summary.text).toBe('1 cluster loses objects (deleted: Argo CD prunes)');
    expect(markdown).not.toMatch(/in-place|in place/);
  });

  it('with prune: false the same MachineDeployment is left running, OutOfSync', async () => {
    const automated = { prune: false, selfHeal: true };
    const dropMd = (objs: Obj[]): void => void objs.splice(objs.indexOf(find(objs, 'MachineDeployment')), 1);
    const { report } = await review(repoOf(fleetOf(['dev-1'], automated), fleetOf(['dev-1'], automated, dropMd)));
    expect(report.changes.find((c) => c.kind === 'MachineDeployment')?.impacts[0]).toMatchObject({
      kind: 'orphaned',
      hint: 'kubectl delete machinedeployment.cluster.x-k8s.io -n team-a dev-1-md-0 (on the management cluster)',
    });
    expect(report.summary.text).toBe('1 cluster keeps removed objects running (Argo CD does not prune)');
  });

  it('an Application with the resources finalizer deletes the removed cluster: DELETED, loudly', async () => {
    const automated = { prune: true, selfHeal: true };
    const withFinalizer = (files: Files): Files => {
      const out = { ...files };
      for (const [path, text] of Object.entries(out)) {
        if (path.startsWith('argocd/apps/capi-cluster-')) out[path] = text.replace(/^metadata:\n/m, 'metadata:\n  finalizers:\n    - resources-finalizer.argocd.argoproj.io\n');
      }
      return out;
    };
    const { report, markdown } = await review(repoOf(withFinalizer(fleetOf(['dev-1', 'dev-2'], automated)), withFinalizer(fleetOf(['dev-1'], automated))));
    expect(report.clusters).toMatchObject([{ cluster: 'team-a/dev-2', impact: 'deletion', deleted: true, pruned: true }]);
    expect(report.summary.text).toBe('⚠️ 1 cluster DELETED (Argo CD prunes): machines and infrastructure of the workload cluster are destroyed');
    expect(unfolded(markdown)).toContain('- ⚠️ **team-a/dev-2 is DELETED**: cluster deleted: CAPI tears down its control plane, workers and infrastructure');
  });

  it('a fleet: a cluster removed from one management cluster is orphaned there (the ApplicationSet preserves resources), named by target', async () => {
    const fleet = (names: string[]): Files => {
      const files: Files = {};
      for (const name of names) for (const [p, t] of Object.entries(clusterFiles({ namespace: 'team-a', name }))) files[`targets/mgmt-eu/${p}`] = t;
      for (const f of fleetArgocdManifests({ repoURL: 'https://git.example.com/platform.git', targetRevision: 'main', automated: { prune: true, selfHeal: true }, targets: ['mgmt-eu', 'mgmt-us'] })) files[f.path] = f.content;
      return files;
    };
    const { report, markdown } = await review(repoOf(fleet(['dev-1', 'dev-2']), fleet(['dev-1'])));
    const hint = 'kubectl delete cluster.cluster.x-k8s.io -n team-a dev-2 (on the management cluster mgmt-eu)';
    expect(report.clusters).toMatchObject([{ target: 'mgmt-eu', cluster: 'team-a/dev-2', impact: 'orphaned', orphaned: { hint } }]);
    expect(report.changes.find((c) => c.kind === 'Cluster')?.impacts[0]?.reason).toBe(
      'cluster removed from git but left running (control plane, workers and infrastructure stay): ApplicationSet capi-fleet-mgmt-eu deletes its Application for this folder and preserves its resources (preserveResourcesOnDeletion: true)',
    );
    expect(unfolded(markdown)).toContain('- **mgmt-eu: team-a/dev-2 is orphaned**');
  });
});
