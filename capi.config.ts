/**
 * The embedded example: a complete CAPI management stack and three workload clusters, rendered offline from the
 * small provider repository committed under examples/repository (clusterctl's local-repository layout).
 *
 *   npm ci && npx capiform render        # reproduces capi.lock.yaml, providers/, clusterclasses/, clusters/ and argocd/ byte for byte
 *
 * Upgrading is a one-line change: set the kubeadm/docker/core providers to `~1.13.0` and cert-manager to `v1.19.1`
 * (both ship in examples/repository), then `npx capiform lock --upgrade && npx capiform render`.
 */
import { defineConfig } from 'capiform';

const repo = './examples/repository';

// eslint-disable-next-line no-restricted-syntax -- config files are loaded by their default export, like vite.config.ts
export default defineConfig({
  providers: {
    core: [
      {
        name: 'cluster-api',
        version: '~1.12.0',
        url: `${repo}/cluster-api/latest/core-components.yaml`,
        // Provider Operator ManagerSpec semantics: `--v=4` on the `manager` container; survives upgrades.
        manager: { verbosity: 4 },
      },
    ],
    bootstrap: [{ name: 'kubeadm', version: '~1.12.0', url: `${repo}/bootstrap-kubeadm/latest/bootstrap-components.yaml` }],
    controlPlane: [
      {
        name: 'kubeadm',
        version: '~1.12.0',
        url: `${repo}/control-plane-kubeadm/latest/control-plane-components.yaml`,
        deployment: { replicas: 2 },
      },
    ],
    infrastructure: [
      {
        name: 'docker',
        version: '~1.12.0',
        url: `${repo}/infrastructure-docker/latest/infrastructure-components.yaml`,
      },
    ],
  },

  certManager: {
    version: 'v1.18.2',
    url: `${repo}/cert-manager/v1.18.2/cert-manager.yaml`,
  },

  // Variables for every provider and cluster (clusterctl's variables: environment < config < per-entry).
  variables: {
    CLUSTER_TOPOLOGY: 'true',
    EXP_MACHINE_POOL: 'false',
  },

  // clusterctl's `images:` semantics: CAPD releases point at the staging registry; a platform team mirrors it.
  images: {
    'infrastructure-docker': { repository: 'registry.example.com/capi' },
  },

  clusters: [
    {
      // Topology-managed: the `development` flavor references ClusterClass `quick-start`, which is included from
      // the docker provider's release into clusterclasses/team-a/quick-start/.
      name: 'dev-1',
      namespace: 'team-a',
      infrastructure: 'docker',
      flavor: 'development',
      kubernetesVersion: 'v1.33.1',
      controlPlaneMachineCount: 1,
      workerMachineCount: 2,
    },
    {
      // A second cluster of the same class in the same namespace: both share one ClusterClass object.
      name: 'dev-2',
      namespace: 'team-a',
      infrastructure: 'docker',
      flavor: 'development',
      kubernetesVersion: 'v1.33.1',
      controlPlaneMachineCount: 1,
      workerMachineCount: 1,
      variables: { POD_SECURITY_STANDARD_ENABLED: 'false' },
    },
    {
      // The plain (default) flavor: Cluster, KubeadmControlPlane, MachineDeployment and their templates.
      name: 'prod-1',
      namespace: 'team-b',
      infrastructure: 'docker',
      kubernetesVersion: 'v1.32.5',
      controlPlaneMachineCount: 3,
      workerMachineCount: 3,
      variables: { POD_CIDR: '["10.244.0.0/16"]' },
    },
  ],

  argocd: {
    enabled: true,
    repoURL: 'https://github.com/capiform/capiform.git',
    targetRevision: 'main',
    mode: 'applications',
  },
});
