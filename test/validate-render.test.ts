/** `capiform render` checks the clusters it renders against their CRDs before writing anything. */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/testdir.js';

const repoRoot = join(import.meta.dirname, '..');

/** The embedded example's config and repository, with prod-1's SERVICE_DOMAIN set to a number. */
function brokenExample(): string {
  const dir = tempDir('capiform-validate-render-');
  for (const f of ['capi.config.ts', 'capi.lock.yaml', 'examples']) cpSync(join(repoRoot, f), join(dir, f), { recursive: true });
  const config = join(dir, 'capi.config.ts');
  const text = readFileSync(config, 'utf8');
  const prod = `variables: { POD_CIDR: '["10.244.0.0/16"]' }`;
  expect(text).toContain(prod);
  writeFileSync(config, text.replace(prod, `variables: { POD_CIDR: '["10.244.0.0/16"]', SERVICE_DOMAIN: '42' }`));
  return dir;
}

const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir('capiform-cache-') });

describe('render validates what it writes', () => {
  it('an invalid rendered cluster stops the render (exit 2) with the findings, and nothing is written', async () => {
    const dir = brokenExample();
    const res = await runCli(['render'], { cwd: dir, env: env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the rendered objects are invalid (1 error); nothing was written:');
    expect(res.stderr).toContain(
      '  clusters/team-b/prod-1/cluster.yaml:1: error: Cluster team-b/prod-1: spec.clusterNetwork.serviceDomain: Invalid value: "integer": spec.clusterNetwork.serviceDomain in body must be of type string: "integer"',
    );
    expect(res.stderr).toContain('--no-validate');
    expect(existsSync(join(dir, 'clusters'))).toBe(false);
  });

  it('--no-validate writes the tree anyway', async () => {
    const dir = brokenExample();
    const res = await runCli(['render', '--no-validate'], { cwd: dir, env: env() });
    expect(res.code).toBe(0);
    expect(readFileSync(join(dir, 'clusters', 'team-b', 'prod-1', 'cluster.yaml'), 'utf8')).toContain('serviceDomain: 42');
  });
});

/**
 * A fleet of two management clusters from the example repository: `eu-west` runs a topology cluster on CAPD 1.12,
 * `us-east` runs prod-1 on CAPD 1.13, optionally with SERVICE_DOMAIN set to a number.
 */
function fleet(serviceDomain?: string): string {
  const dir = tempDir('capiform-validate-fleet-');
  cpSync(join(repoRoot, 'examples'), join(dir, 'examples'), { recursive: true });
  const repo = (name: string, version: string): string => `{ name: '${name}', version: '${version}', url: './examples/repository' }`;
  const prodVariables = `{ POD_CIDR: '["10.244.0.0/16"]'${serviceDomain === undefined ? '' : `, SERVICE_DOMAIN: '${serviceDomain}'`} }`;
  writeFileSync(
    join(dir, 'capi.config.mjs'),
    `export default {
  providers: {
    core: ${repo('cluster-api', '~1.12.0')},
    bootstrap: [${repo('kubeadm', '~1.12.0')}],
    controlPlane: [${repo('kubeadm', '~1.12.0')}],
    infrastructure: [${repo('docker', '~1.12.0')}],
  },
  variables: { CLUSTER_TOPOLOGY: 'true', EXP_MACHINE_POOL: 'false' },
  managementClusters: {
    'eu-west': {
      clusters: [{ name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1' }],
    },
    'us-east': {
      providers: { infrastructure: [{ name: 'docker', version: '~1.13.0' }] },
      clusters: [{ name: 'prod-1', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.32.5', variables: ${prodVariables} }],
    },
  },
};
`,
  );
  return dir;
}

describe('render of a fleet validates every management cluster', { timeout: 120_000 }, () => {
  it('an invalid cluster of one management cluster stops the render (exit 2), naming it, and nothing is written', async () => {
    const dir = fleet('42');
    const res = await runCli(['render'], { cwd: dir, env: env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the rendered objects of management cluster us-east are invalid (1 error); nothing was written:');
    expect(res.stderr).toContain(
      '  targets/us-east/clusters/team-b/prod-1/cluster.yaml:1: error: Cluster team-b/prod-1: spec.clusterNetwork.serviceDomain: Invalid value: "integer": spec.clusterNetwork.serviceDomain in body must be of type string: "integer"',
    );
    expect(existsSync(join(dir, 'targets'))).toBe(false);
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(false);

    const anyway = await runCli(['render', '--no-validate'], { cwd: dir, env: env() });
    expect(anyway.code).toBe(0);
    expect(readFileSync(join(dir, 'targets', 'us-east', 'clusters', 'team-b', 'prod-1', 'cluster.yaml'), 'utf8')).toContain('serviceDomain: 42');
  });

  it('a valid fleet renders', async () => {
    const dir = fleet();
    const res = await runCli(['render'], { cwd: dir, env: env() });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(readFileSync(join(dir, 'targets', 'eu-west', 'clusters', 'team-a', 'dev-1', 'cluster.yaml'), 'utf8')).toContain('kind: Cluster');
  });
});

/**
 * 300 topology clusters of one class (more than one batch of files, which render validates a batch at a time): the
 * ClusterClass is in the first batch, and two clusters of the last batch are wrong, one in its own object and one
 * only through what the topology controller would create from the class.
 */
function bigFleet(): string {
  const dir = tempDir('capiform-validate-batches-');
  const repository = join(repoRoot, 'examples', 'repository');
  const url = (p: string): string => join(repository, p);
  const clusters = Array.from({ length: 300 }, (_, i) => ({
    name: `cluster-${String(i).padStart(3, '0')}`,
    namespace: 'fleet',
    infrastructure: 'docker',
    flavor: 'development',
    kubernetesVersion: 'v1.33.1',
    controlPlaneMachineCount: i === 298 ? 2 : 1,
    workerMachineCount: 1,
    ...(i === 299 ? { variables: { SERVICE_DOMAIN: '42' } } : {}),
  }));
  const config = {
    providers: {
      core: [{ name: 'cluster-api', version: '~1.12.0', url: url('cluster-api/latest/core-components.yaml') }],
      bootstrap: [{ name: 'kubeadm', version: '~1.12.0', url: url('bootstrap-kubeadm/latest/bootstrap-components.yaml') }],
      controlPlane: [{ name: 'kubeadm', version: '~1.12.0', url: url('control-plane-kubeadm/latest/control-plane-components.yaml') }],
      infrastructure: [{ name: 'docker', version: '~1.12.0', url: url('infrastructure-docker/latest/infrastructure-components.yaml') }],
    },
    variables: { CLUSTER_TOPOLOGY: 'true', EXP_MACHINE_POOL: 'false' },
    clusters,
  };
  writeFileSync(join(dir, 'capi.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

describe('render validates a big fleet a batch of files at a time', { timeout: 300_000 }, () => {
  it('finds the errors of the last batch, those from the class of the first batch included, and writes nothing', async () => {
    const dir = bigFleet();
    const res = await runCli(['render'], { cwd: dir, env: env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the rendered objects are invalid (2 errors); nothing was written:');
    expect(res.stderr).toContain('  clusters/fleet/cluster-299/cluster.yaml:1: error: Cluster fleet/cluster-299: spec.clusterNetwork.serviceDomain: Invalid value: "integer"');
    expect(res.stderr).toMatch(
      /\n {2}clusters\/fleet\/cluster-298\/cluster\.yaml \(topology controlPlane\):1: error \[webhook\/KubeadmControlPlane\.replicas-even-stacked-etcd\]: KubeadmControlPlane fleet\/cluster-298-[a-z0-9]+: spec\.replicas: Forbidden: cannot be an even number when etcd is stacked\n/,
    );
    expect(existsSync(join(dir, 'clusters'))).toBe(false);
    expect(existsSync(join(dir, 'capi.lock.yaml'))).toBe(false);
  });
});
