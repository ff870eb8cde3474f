/**
 * `plan topology --output-directory` builds file paths from the input's namespaces and Cluster names, which a pull
 * request controls. Names Kubernetes refuses are refused (exit 2) before anything is written, every file stays in
 * the folder, and the project's own tree (which only `render` writes) is never a place to write to.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { snapshotDir } from '../helpers/dir-snapshot.js';
import { repoRoot } from '../helpers/diff-fixtures.js';
import { tempDir, writeFiles } from '../helpers/testdir.js';

/** The example's rendered tree at `<base>/project`, beside `<base>/outside`. */
function layout(): { base: string; project: string } {
  const base = tempDir();
  const project = join(base, 'project');
  for (const d of ['clusterclasses', 'clusters']) cpSync(join(repoRoot, d), join(project, d), { recursive: true });
  writeFiles(join(base, 'outside'), { 'x/keep.yaml': 'kind: Keep\n' });
  return { base, project };
}

/** Gives Cluster team-a/dev-1 another metadata.name or metadata.namespace. */
function rename(project: string, field: 'name' | 'namespace', value: string): void {
  const file = join(project, 'clusters/team-a/dev-1/cluster.yaml');
  const from = field === 'name' ? /^ {2}name: dev-1$/m : /^ {2}namespace: team-a$/m;
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, `  ${field}: ${JSON.stringify(value)}`));
}

async function refused(base: string, project: string, out: string): Promise<CliResult> {
  const before = snapshotDir(base);
  const r = await runCli(['plan', 'topology', '--output-directory', out], { cwd: project });
  expect(r.stderr).toMatch(/^Error: /);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.code).toBe(2);
  expect(snapshotDir(base)).toEqual(before);
  return r;
}

describe('T1: nothing outside the project is read, written, moved or deleted — plan topology --output-directory', () => {
  it('a Cluster named ../../x is refused; nothing is written beside the folder', async () => {
    const { base, project } = layout();
    rename(project, 'name', '../../x');
    const r = await refused(base, project, 'plan');
    expect(r.stderr).toContain('cannot write the plan of Cluster "team-a/../../x" to --output-directory: a name is a lowercase RFC 1123 subdomain');
  });

  it('a namespace of ../x or an absolute path is refused', async () => {
    for (const ns of ['../x', '/tmp/x']) {
      const { base, project } = layout();
      rename(project, 'namespace', ns);
      const r = await refused(base, project, 'plan');
      expect(r.stderr).toContain(`cannot write the plan of Cluster "${ns}/dev-1" to --output-directory: a namespace is a lowercase RFC 1123 label`);
    }
  });
});

describe('T3: nothing is written into the tree except through render — plan topology --output-directory', () => {
  it.each([['clusters'], ['clusters/team-a'], ['clusterclasses'], ['providers'], ['.capiform']])('--output-directory %s is refused; the rendered files stay', async (out) => {
    const { base, project } = layout();
    const r = await refused(base, project, out);
    expect(r.stderr).toContain(`lies in the project's tree (${out.split('/')[0]}/), which only \`capiform render\` writes`);
  });

  it('a namespace named after a tree folder cannot write into the tree through --output-directory .', async () => {
    const { base, project } = layout();
    // The whole example moved to a namespace named `clusters`, classes included, so that its Clusters expand.
    for (const rel of Object.keys(snapshotDir(project)).filter((p) => p.endsWith('.yaml'))) {
      const file = join(project, rel);
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll('namespace: team-a', 'namespace: clusters'));
    }
    const r = await refused(base, project, '.');
    expect(r.stderr).toMatch(/would write clusters\/dev-1\/\S+\.yaml into the project's tree \(clusters\/\), which only `capiform render` writes/);
  });
});
