/**
 * The pipeline layer's door: compositions of the layers below. `lock --upgrade --contract` lives here because it
 * joins the lock with the upgrade planner (src/plan), which sits above the lock.
 */
export { contractUpgradeVersions, type ContractUpgrade } from './contract-upgrade.js';
