/**
 * The desired state of a topology Cluster (spec/capi-plan.md §3.1): objects cloned from the class's templates with
 * the names, labels, refs and topology fields CAPI sets, before patches; and the upgrade plan of a version change.
 */
export {
  computeDesiredState,
  contractRef,
  DesiredStateError,
  roles,
  templateName,
  type ControlPlaneContract,
  type CurrentNames,
  type DesiredStateInput,
} from './compute.js';
export { upgradePlan, UpgradePlanError, type UpgradePlan } from './versions.js';
export { annotations as topologyAnnotations, labels as topologyLabels } from './labels.js';
export { asObj, cloneJson, getPath, groupOf, isObj, setPath, versionOf, type Obj } from './json.js';
