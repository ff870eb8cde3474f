/**
 * ClusterClass variables (CAPI `internal/topology/variables`): defaulting and validation of Cluster values and of
 * MachineDeployment/MachinePool/control plane overrides, validation of the class's variable definitions, and the
 * class's `status.variables`. Data in, values and Kubernetes field errors out.
 */
export {
  defaultClusterVariables,
  defaultMachineVariables,
  defaultVariable,
  validateClusterVariable,
  validateClusterVariables,
  validateControlPlaneVariables,
  validateMachineVariables,
  validateVariables,
  type PathLike,
} from './cluster.js';
export {
  clusterClassStatusVariables,
  qualifiedNameErrors,
  validateClusterClassVariable,
  validateClusterClassVariables,
  type ClusterClassVariableOptions,
} from './clusterclass.js';
export { convertVariableSchema } from './schema.js';
export {
  decodedValue,
  rawText,
  variableOf,
  type ClusterClassStatusVariable,
  type ClusterClassStatusVariableDefinition,
  type ClusterClassVariable,
  type ClusterVariable,
  type VariableMetadata,
  type VariableSchema,
} from './types.js';
