/**
 * Names are names, not paths: a flavor, provider name, cluster name or namespace that could leave a folder is refused
 * by its grammar before anything is read (exit 2, naming the config path or flag), and a symlink in a local
 * repository that points outside it is not followed (exit 3, naming the link and its target).
 */
import { copyFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flavorProblem } from '../src/config/index.js';
import { InputError } from '../src/errors.js';
import { clusterClassFileName, templateFileName } from '../src/render/template-names.js';
import { bundleProject } from './helpers/bundle-project.js';
import { runCli } from './helpers/cli.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { thrown } from './helpers/thrown.js';
import { testdir } from './helpers/testdir.js';

function configWith(o: { provider?: string; cluster?: Record<string, string> }): string {
  const cluster = { name: 'dev-1', namespace: 'team-a', infrastructure: o.provider ?? 'docker', kubernetesVersion: 'v1.33.1', ...o.cluster };
  return `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.12.0', url: './repository' },
    infrastructure: [{ name: ${JSON.stringify(o.provider ?? 'docker')}, version: '~1.12.0', url: './repository' }],
  },
  certManager: { version: 'v1.18.2', url: './repository' },
  clusters: [${JSON.stringify(cluster)}],
};
`;
}

describe('flavor grammar', () => {
  it('accepts the flavors real providers ship and refuses anything that is not a file-name fragment', () => {
    for (const ok of ['development', 'topology', 'aks-aso-clusterclass', 'eks-managedmachinepool-gpu', 'azure-cni-v1', 'v1.2']) expect(flavorProblem(ok)).toBeNull();
    for (const bad of ['x/../../../../x', '../x', 'a/b', 'a\\b', 'a..b', '..', 'a\0b', 'a\nb']) {
      expect(flavorProblem(bad)).toBe(`${JSON.stringify(bad)} is not a flavor name: a flavor is the <flavor> in cluster-template-<flavor>.yaml: it cannot contain "/", "\\", ".." or control characters (e.g. "development")`);
    }
  });

  it('the template file name is never built from a flavor or ClusterClass name that leaves the release folder', () => {
    expect(templateFileName('development')).toBe('cluster-template-development.yaml');
    expect(templateFileName(undefined)).toBe('cluster-template.yaml');
    const err = thrown(() => templateFileName('x/../../x'), InputError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain('"x/../../x" is not a flavor name');
    expect(clusterClassFileName('quick-start')).toBe('clusterclass-quick-start.yaml');
    expect(thrown(() => clusterClassFileName('../../etc/x'), InputError).message).toMatch(/^ClusterClass name "..\/..\/etc\/x" is not valid: a lowercase RFC 1123 subdomain/);
  });
});

describe('names in the config are checked before any IO', () => {
  it('`flavor: "x/../../../../x"` is a config error (exit 2) naming clusters[0].flavor; lock and tree stay as they were', async () => {
    const dir = bundleProject({ 'capi.config.ts': configWith({ cluster: { flavor: 'x/../../../../x' } }) });
    const before = snapshotDir(dir);
    for (const argv of [['render'], ['lock'], ['render', '--check']]) {
      const r = await runCli(argv, { cwd: dir });
      expect(r.stderr).toContain('  clusters[0].flavor: "x/../../../../x" is not a flavor name: a flavor is the <flavor> in cluster-template-<flavor>.yaml');
      expect(r.stderr).toContain('at: ');
      expect(r.code).toBe(2);
      expect(snapshotDir(dir)).toEqual(before);
    }
  });

  it('a provider name, cluster name or namespace outside its grammar is listed with its config path (exit 2)', async () => {
    const dir = bundleProject({ 'capi.config.ts': configWith({ provider: '../docker', cluster: { name: '../../dev', namespace: 'team-a/..' } }) });
    const before = snapshotDir(dir);
    const r = await runCli(['render'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('  providers.infrastructure[0].name: "../docker" is not a provider name: a lowercase RFC 1123 label (a-z, 0-9 and "-", e.g. "docker")');
    expect(r.stderr).toContain('  clusters[0].name: "../../dev" is not a lowercase RFC 1123 subdomain');
    expect(r.stderr).toContain('  clusters[0].namespace: "team-a/.." is not a lowercase RFC 1123 label');
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('`generate cluster --flavor` with a path is a usage error naming the flag, before the repository is opened', async () => {
    const dir = testdir();
    const r = await runCli(['generate', 'cluster', 'dev-1', '-i', 'docker:v1.12.4', '-n', 'team-a', '--flavor', 'x/../../../../x'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: invalid --flavor: "x/../../../../x" is not a flavor name');
    expect(r.stderr).toContain('at: --flavor');
    expect(r.stdout).toBe('');
  });
});

describe('symlinks in a local repository', () => {
  it('a release file that links outside the repository is refused (exit 3), naming the link and its target', async () => {
    const dir = bundleProject();
    const outside = testdir();
    const link = join(dir, 'repository', 'infrastructure-docker', 'v1.12.4', 'metadata.yaml');
    copyFileSync(link, join(outside, 'metadata.yaml'));
    rmSync(link);
    symlinkSync(join(outside, 'metadata.yaml'), link);
    const before = snapshotDir(dir);
    const r = await runCli(['render'], { cwd: dir });
    expect(r.stderr).toContain(`refusing to read ${link}: it is a symlink (or inside one) to ${join(outside, 'metadata.yaml')}, outside the local repository ${join(dir, 'repository')}`);
    expect(r.stderr).toContain('fix: copy the file into the repository instead of linking it');
    expect(r.code).toBe(3);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('links that stay inside the repository are followed', async () => {
    const dir = bundleProject();
    const file = join(dir, 'repository', 'infrastructure-docker', 'v1.12.4', 'metadata.yaml');
    mkdirSync(join(dir, 'repository', 'common'));
    copyFileSync(file, join(dir, 'repository', 'common', 'metadata.yaml'));
    rmSync(file);
    symlinkSync('../../common/metadata.yaml', file);
    const r = await runCli(['render'], { cwd: dir });
    expect(r.stderr).not.toContain('refusing');
    expect(r.code).toBe(0);
  });
});
