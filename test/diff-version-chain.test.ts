/**
 * The Cluster webhook's version rules that need the ClusterClass, in the review: `diff` reads the head tree's class
 * and reports a topology version change the API server refuses as rejected. Without `spec.kubernetesVersions` the
 * version moves at most one minor at a time; with it, any jump is accepted exactly when it lands on the chain.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DiffReport } from '../src/plan/diff/index.js';
import { runCli } from './helpers/cli.js';
import { repoRoot } from './helpers/diff-fixtures.js';
import { tempDir } from './helpers/testdir.js';

const classFile = join('clusterclasses', 'team-a', 'quick-start', 'clusterclass.yaml');
const dev1 = join('clusters', 'team-a', 'dev-1', 'cluster.yaml');

/** A copy of the example's rendered tree, its ClusterClass listing `versions` when given. */
function exampleTree(versions?: readonly string[]): string {
  const dir = tempDir();
  for (const d of ['providers', 'clusterclasses', 'clusters']) cpSync(join(repoRoot, d), join(dir, d), { recursive: true });
  if (versions) {
    const file = join(dir, classFile);
    const text = readFileSync(file, 'utf8');
    const spec = text.indexOf('\nspec:\n', text.indexOf('kind: ClusterClass\n'));
    expect(spec).toBeGreaterThan(0);
    const list = `  kubernetesVersions:\n${versions.map((v) => `  - ${v}\n`).join('')}`;
    writeFileSync(file, `${text.slice(0, spec + 7)}${list}${text.slice(spec + 7)}`);
  }
  return dir;
}

function upgradeDev1(dir: string, to: string): void {
  const file = join(dir, dev1);
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('version: v1.33.1');
  writeFileSync(file, text.replace('version: v1.33.1', `version: ${to}`));
}

async function review(base: string, head: string): Promise<{ json: DiffReport; markdown: string }> {
  const json = await runCli(['diff', '--format', 'json', base, head]);
  expect(json.stderr).toBe('');
  const markdown = await runCli(['diff', '--format', 'markdown', base, head]);
  return { json: JSON.parse(json.stdout) as DiffReport, markdown: markdown.stdout };
}

const rejectedOf = (r: DiffReport) => r.changes.flatMap((c) => c.impacts.filter((i) => i.kind === 'rejected').map((i) => [c.kind, i.cluster, i.rule, i.field, i.message]));

describe('diff: a topology version jump against the ClusterClass', () => {
  it('two minors at once without kubernetesVersions in the class is rejected', async () => {
    const base = exampleTree();
    const head = exampleTree();
    upgradeDev1(head, 'v1.35.0');
    const { json, markdown } = await review(base, head);
    expect(rejectedOf(json)).toEqual([['Cluster', 'team-a/dev-1', 'webhook/Cluster.topology-version-skip', 'spec.topology.version', 'spec.topology.version: Invalid value: "v1.35.0": version cannot be increased from "1.33.1" to "1.35.0"']]);
    expect(json.clusters.find((c) => c.cluster === 'team-a/dev-1')?.impact).toBe('rejected');
    expect(markdown).toMatch(/\| team-a\/dev-1 \| ⛔ rejected \|/);
    expect(markdown).toContain('| Cluster <code>team-a/dev-1</code> | <code>spec.topology.version</code> | spec.topology.version: Invalid value: &quot;v1.35.0&quot;: version cannot be increased from &quot;1.33.1&quot; to &quot;1.35.0&quot; |');
    expect(markdown).toContain('update of Cluster team-a/dev-1 rejected: spec.topology.version: Invalid value: &quot;v1.35.0&quot;');
  });

  it('two minors along the class chain are accepted: the chained upgrade walks v1.34.0', async () => {
    const chain = ['v1.33.1', 'v1.34.0', 'v1.35.0'];
    const base = exampleTree(chain);
    const head = exampleTree(chain);
    upgradeDev1(head, 'v1.35.0');
    const { json, markdown } = await review(base, head);
    expect(rejectedOf(json)).toEqual([]);
    expect(json.topology?.clusters.map((c) => [c.cluster, c.upgrade?.hops])).toEqual([['team-a/dev-1', ['v1.34.0']]]);
    expect(markdown).not.toContain('rejected');
  });

  it('a jump off the chain is rejected with the webhook message, even when only the head class lists the versions', async () => {
    const base = exampleTree();
    const head = exampleTree(['v1.33.1', 'v1.34.0', 'v1.35.0']);
    upgradeDev1(head, 'v1.35.2');
    const { json, markdown } = await review(base, head);
    expect(rejectedOf(json)).toEqual([['Cluster', 'team-a/dev-1', 'webhook/Cluster.topology-version-chain', 'spec.topology.version', 'spec.topology.version: Invalid value: "v1.35.2": version must match one of the versions defined in the ClusterClass']]);
    const impact = json.changes.find((c) => c.kind === 'Cluster')?.impacts[0];
    expect(impact?.hint).toBe("use one of the ClusterClass's spec.kubernetesVersions (v1.33.1, v1.34.0, v1.35.0), or add v1.35.2 to that list");
    expect(markdown).toMatch(/\| team-a\/dev-1 \| ⛔ rejected \|/);
    expect(markdown).toContain('| <code>spec.topology.version</code> | spec.topology.version: Invalid value: &quot;v1.35.2&quot;: version must match one of the versions defined in the ClusterClass |');
  });

  it('one minor without a list is accepted', async () => {
    const base = exampleTree();
    const head = exampleTree();
    upgradeDev1(head, 'v1.34.0');
    expect(rejectedOf((await review(base, head)).json)).toEqual([]);
  });
});
