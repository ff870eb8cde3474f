// The benchmark fleets: n topology clusters of one class (the docker provider's `development` flavor, ClusterClass
// quick-start, all in one namespace), deterministic names and machine counts, from the embedded example's local
// repository. Shared by bench/fleet.mjs and bench/shards.mjs.
import { join } from 'node:path';
import { repoRoot } from './corpus.mjs';

export const exampleRepository = join(repoRoot, 'examples', 'repository');

export function fleetConfig(n, repository = exampleRepository) {
  const url = (p) => join(repository, p);
  const clusters = [];
  for (let i = 0; i < n; i++) {
    clusters.push({
      name: `cluster-${String(i).padStart(5, '0')}`,
      namespace: 'fleet',
      infrastructure: 'docker',
      flavor: 'development',
      kubernetesVersion: 'v1.33.1',
      controlPlaneMachineCount: 1 + 2 * (i % 2),
      workerMachineCount: i % 7,
    });
  }
  return {
    providers: {
      core: [{ name: 'cluster-api', version: '~1.12.0', url: url('cluster-api/latest/core-components.yaml') }],
      bootstrap: [{ name: 'kubeadm', version: '~1.12.0', url: url('bootstrap-kubeadm/latest/bootstrap-components.yaml') }],
      controlPlane: [{ name: 'kubeadm', version: '~1.12.0', url: url('control-plane-kubeadm/latest/control-plane-components.yaml') }],
      infrastructure: [{ name: 'docker', version: '~1.12.0', url: url('infrastructure-docker/latest/infrastructure-components.yaml') }],
    },
    certManager: { version: 'v1.18.2', url: url('cert-manager/v1.18.2/cert-manager.yaml') },
    variables: { CLUSTER_TOPOLOGY: 'true', EXP_MACHINE_POOL: 'false' },
    clusters,
  };
}
