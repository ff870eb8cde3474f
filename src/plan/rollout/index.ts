/** Rollout impact of a diff, per object change, per cluster and per provider (CAPI semantics). */
export * from './types.js';
export {
  classifyAdded,
  classifyChanged,
  classifyControlPlane,
  classifyRemoved,
  classifyRotated,
  classifyWorkers,
  isMachineTemplateKind,
  metadataOnly,
  normalPath,
  under,
  type ClassifyInput,
} from './classify.js';
export { assessProviders, providerContract } from './provider.js';
export { groupImpacts, summarize, summarizeClusters, type ImpactGroup } from './summary.js';
export { TreeLookup, classTemplateRefs, type ClassTemplateRef, type ClassTemplateRole } from './refs.js';
export { deleteCommand, removalFates, type RemovalFate } from './argocd.js';
