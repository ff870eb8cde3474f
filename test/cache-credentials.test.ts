/**
 * No credential value reaches a cache or a temporary file. A canary credential (VSPHERE_PASSWORD from the
 * environment, and a config variable listed under `secrets.variables`) goes through `generate provider` and `render`
 * of the shared corpus's vSphere provider, each run twice (cold and warm caches), in real processes whose TMPDIR and
 * capiform cache are folders of their own; afterwards no file in either holds the canary, plain or base64.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledCli } from './helpers/compiled-cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const shared = sharedDir('corpus');
const corpus = join(shared.path, 'repository');

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** Files under `dir` holding any of `needles`, as paths relative to `dir`. */
function holding(dir: string, needles: readonly string[]): string[] {
  return files(dir)
    .filter((p) => {
      const text = readFileSync(p).toString('latin1');
      return needles.some((n) => text.includes(n));
    })
    .map((p) => relative(dir, p));
}

describe.skipIf(!shared.present)(`credential canary${shared.skipped}`, { timeout: 240_000 }, () => {
  it('generate provider and render leave no credential value in the cache or in temporary files', async () => {
    const cli = await compiledCli();
    const root = tempDir('capiform-canary-');
    const [project, cache, tmp] = ['project', 'cache', 'tmp'].map((d) => join(root, d)) as [string, string, string];
    for (const d of [project, cache, tmp]) mkdirSync(d);
    const password = `canary-password-${process.pid}-7f3a`;
    const user = `canary-user-${process.pid}-91c2`;
    const canaries = [password, user, Buffer.from(password).toString('base64'), Buffer.from(user).toString('base64')];

    writeFileSync(
      join(project, 'clusterctl.yaml'),
      `providers:\n- name: vsphere\n  type: InfrastructureProvider\n  url: ${corpus}/infrastructure-vsphere/v1.16.1/infrastructure-components.yaml\n`,
    );
    const v = (version: string): string => `version: '${version}', url: '${corpus}'`;
    writeFileSync(
      join(project, 'capi.config.ts'),
      `export default {
  providers: {
    core: { name: 'cluster-api', ${v('v1.13.5')} },
    bootstrap: [{ name: 'kubeadm', ${v('v1.13.5')} }],
    controlPlane: [{ name: 'kubeadm', ${v('v1.13.5')} }],
    infrastructure: [{ name: 'vsphere', ${v('v1.16.1')} }],
  },
  certManager: { version: 'v1.19.4', url: '${corpus}' },
  secrets: { policy: 'omit', variables: ['VSPHERE_USERNAME'] },
  variables: {
    VSPHERE_USERNAME: '${user}',
    VSPHERE_PASSWORD: { env: 'VSPHERE_PASSWORD' },
    VSPHERE_SERVER: 'vcenter.example',
  },
  clusters: [
    {
      name: 'vs-1', namespace: 'team-v', infrastructure: 'vsphere', kubernetesVersion: 'v1.33.1',
      controlPlaneMachineCount: 1, workerMachineCount: 1,
      variables: {
        CONTROL_PLANE_ENDPOINT_IP: '10.0.0.10', CPI_IMAGE_K8S_VERSION: 'v1.33.0', VSPHERE_DATACENTER: 'dc', VSPHERE_DATASTORE: 'ds',
        VSPHERE_FOLDER: 'f', VSPHERE_NETWORK: 'n', VSPHERE_RESOURCE_POOL: 'rp', VSPHERE_STORAGE_POLICY: 'sp', VSPHERE_TEMPLATE: 't',
        VSPHERE_TLS_THUMBPRINT: 'AA:BB', VSPHERE_SSH_AUTHORIZED_KEY: 'ssh-ed25519 AAAA',
      },
    },
  ],
};
`,
    );
    const run = (...argv: string[]): { code: number | null; stdout: string; stderr: string } => {
      const r = spawnSync(process.execPath, [cli, ...argv], {
        cwd: project,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: { PATH: process.env.PATH, HOME: root, TMPDIR: tmp, CAPIFORM_CACHE_DIR: cache, VSPHERE_PASSWORD: password, VSPHERE_USERNAME: 'capv@vsphere.local' },
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };

    for (let i = 0; i < 2; i++) {
      const generated = run('generate', 'provider', '--infrastructure', 'vsphere:v1.16.1', '--config', 'clusterctl.yaml');
      expect(generated.stderr).toBe('');
      expect(generated.code).toBe(0);
      // The output is the user's: like clusterctl, it holds the substituted password.
      expect(generated.stdout).toContain(`password: '${password}'`);

      const rendered = run('render');
      expect(rendered.stderr).toContain('objects left out because they would hold credentials');
      expect(rendered.code).toBe(0);
      expect(rendered.stdout + rendered.stderr).not.toContain(password);
      expect(rendered.stdout + rendered.stderr).not.toContain(user);
    }
    expect(run('render', '--check', '--frozen')).toMatchObject({ code: 0, stdout: 'tree is up to date\n' });
    // A render with no credential value in it is still memoised.
    expect(run('generate', 'provider', '--infrastructure', 'vsphere:v1.16.1', '--describe', '--config', 'clusterctl.yaml').code).toBe(0);

    expect(files(join(cache, 'render')).length).toBeGreaterThan(0);
    expect(files(join(cache, 'trees')).length).toBe(1);
    expect(files(join(cache, 'rendered')).length).toBeGreaterThan(0);
    expect(holding(cache, canaries)).toEqual([]);
    expect(holding(tmp, canaries)).toEqual([]);
    expect(holding(join(project, 'providers'), canaries)).toEqual([]);
    expect(holding(join(project, 'clusters'), canaries)).toEqual([]);
  });
});
