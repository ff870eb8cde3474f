/**
 * What the topology engine works on, in the shape of CAPI's `scope.ClusterBlueprint` and `scope.ClusterState`
 * (exp/topology/scope): the class with its templates, and the desired objects computed for one Cluster. Desired-state
 * computation fills a {@link DesiredClusterState}; the patch engine rewrites it in place of CAPI's `engine.Apply`.
 * Objects are plain JSON (as parsed from YAML), keyed by topology name where CAPI uses maps.
 */
import type { KubeObject } from '../../yaml/index.js';

export type { KubeObject };

export interface MachineDeploymentBlueprint {
  /** `spec.workers.machineDeployments[]` entry of the class (v1beta2 shape; v1beta1 classes are converted first). */
  readonly classDefinition: KubeObject;
  readonly bootstrapTemplate: KubeObject;
  readonly infrastructureMachineTemplate: KubeObject;
}

export interface MachinePoolBlueprint {
  readonly classDefinition: KubeObject;
  readonly bootstrapTemplate: KubeObject;
  readonly infrastructureMachinePoolTemplate: KubeObject;
}

export interface ClusterBlueprint {
  /** The Cluster's `spec.topology`. */
  readonly topology: KubeObject;
  readonly clusterClass: KubeObject;
  readonly infrastructureClusterTemplate: KubeObject;
  readonly controlPlaneTemplate: KubeObject;
  readonly controlPlaneInfrastructureMachineTemplate?: KubeObject;
  /** By MachineDeployment class name. */
  readonly machineDeployments: ReadonlyMap<string, MachineDeploymentBlueprint>;
  /** By MachinePool class name. */
  readonly machinePools: ReadonlyMap<string, MachinePoolBlueprint>;
}

export interface DesiredMachineDeployment {
  object: KubeObject;
  bootstrapTemplate: KubeObject;
  infrastructureMachineTemplate: KubeObject;
  machineHealthCheck?: KubeObject;
}

export interface DesiredMachinePool {
  object: KubeObject;
  bootstrapObject: KubeObject;
  infrastructureMachinePoolObject: KubeObject;
}

export interface DesiredClusterState {
  cluster: KubeObject;
  infrastructureCluster: KubeObject;
  controlPlane: {
    object: KubeObject;
    infrastructureMachineTemplate?: KubeObject;
    machineHealthCheck?: KubeObject;
  };
  /** By MachineDeployment topology name (`spec.topology.workers.machineDeployments[].name`), in topology order. */
  machineDeployments: Map<string, DesiredMachineDeployment>;
  /** By MachinePool topology name, in topology order. */
  machinePools: Map<string, DesiredMachinePool>;
}
