/**
 * The pipeline layer's door: compositions of the layers below. `render`, `render --check`, `lock` and a render in
 * memory are compositions of the stages (./compositions.ts); `bundle` and `images` compose the tree on disk with a
 * render in memory (./bundle.ts, ./images.ts). `lock --upgrade --contract` lives here because it joins
 * the lock with the upgrade planner (src/plan), which sits above the lock. The project's files on disk (tree writer,
 * journal, writer lock, path checks) are ./tree, what `plan` reads from disk is ./plan-inputs, and what `validate`
 * reads and checks is ./validate, and what `diff` reads and renders is ./review: each has a door of its own for
 * commands that need only that.
 */
export { checkProject, checkTarget, lockedUnusedVariables, lockProject, renderInMemory, renderProject, runPipeline, type LockedVariableUse } from './compositions.js';
export type { ContractFinding, ContractPlanner, OmittedObject, PipelineMode, PipelineOptions, PipelineRequest, PipelineResult } from './types.js';
export { formatContractFindings } from './contract-lint.js';
export { buildBundle, type BundleRequest, type BundleResult } from './bundle.js';
export { configImageOverrides, upstreamTree } from './images.js';
export { contractUpgradeVersions, type ContractUpgrade } from './contract-upgrade.js';
export { assertNoUnfinishedWrite, checkLockPath, checkTreePaths, defaultLockTimeoutSeconds, diffTree, readSettled, repairTree, withProjectLock, writeTree, type Repair } from './tree/index.js';
export { initProject, isRepositoryUrl, type InitProvider, type InitRequest, type InitResult } from './init.js';
