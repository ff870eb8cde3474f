/** Rollout impact of a diff, per object change, per cluster and per provider (CAPI semantics). */
export * from './types.js';
export { classifyAdded, classifyChanged, classifyRemoved, classifyRotated, isMachineTemplateKind, normalPath } from './classify.js';
export { assessProviders, providerContract } from './provider.js';
export { groupImpacts, summarize, summarizeClusters, type ImpactGroup } from './summary.js';
export { TreeLookup } from './refs.js';
