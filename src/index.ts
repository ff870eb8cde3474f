/** capiform's library surface. Every export here is part of the documented interface (DESIGN.md). */
export * from './errors.js';
export { manifestLabel, providerTypeOrder, providerTypes, type ProviderType } from './resolve/provider-type.js';
export type { ProviderRepository, RepositoryKind } from './resolve/repository.js';
export { listVariables, substitute, type TemplateVariable, type Variables } from './render/envsubst/index.js';
export {
  applyCustomPlan,
  applyPlan,
  checkUpgradePaths,
  createCustomPlan,
  formatUpgradePlan,
  plan as planUpgrade,
  planWithDropped,
  type InventoryProvider,
  type ReleaseSeries,
  type Repositories,
  type RepositoryListing,
  type UpgradeFinding,
  type UpgradeItem,
  type UpgradePlan,
} from './plan/upgrade/index.js';
export { formatMovePlan, planMove, type MovePlan, type MovePlanObject } from './plan/move/index.js';
