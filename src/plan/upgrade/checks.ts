/**
 * Upgrade-path checks capiform adds on top of clusterctl's plan. clusterctl documents these rules but its
 * `upgrade plan` does not report them; they are returned separately from clusterctl's own result.
 */
import { manifestLabel } from '../../capi/index.js';
import { hasSkipVersionGuard, skipsTooManyMinors, type PlanResult } from './plan.js';
import { getUpgradeInfo, instanceName, releaseSeriesForVersion, repositoryKey } from './upgrade-info.js';
import { defaultContractRules, type ContractRules, type InventoryProvider, type Repositories } from './types.js';
import { parseKubernetesVersion } from '../../capi/index.js';

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface UpgradeFinding {
  severity: FindingSeverity;
  /** Stable identifier: `skip-minor-guard`, `skips-minor-versions`, `major-change`, `contract-change`, `plan-dropped`, `incompatible-contract`, `unsupported-contract`. */
  code: string;
  /** The plan's contract. */
  contract: string;
  /** `<namespace>/<manifest label>` when the finding is about one provider. */
  provider?: string;
  message: string;
  /** Why it matters, in a sentence. */
  reason: string;
}

function minorsBetween(current: string, next: string): string[] {
  const c = parseKubernetesVersion(current);
  const n = parseKubernetesVersion(next);
  if (!c || !n || c.major !== n.major) return [];
  const out: string[] = [];
  for (let m = c.minor + 1; m < n.minor; m++) out.push(`${c.major}.${m}`);
  return out;
}

/** Findings for a plan result; `inventory` and `repositories` are the planner's inputs. */
export function checkUpgradePaths(
  result: PlanResult,
  inventory: readonly InventoryProvider[],
  repositories: Repositories,
  rules: ContractRules = defaultContractRules,
): UpgradeFinding[] {
  const findings: UpgradeFinding[] = [];
  const contractOf = (p: { providerName: string; type: string }, version: string): string | null => {
    const inv = inventory.find((i) => i.providerName === p.providerName && i.type === p.type);
    if (!inv) return null;
    try {
      const info = getUpgradeInfo(inv, repositories[repositoryKey(inv)]);
      const v = parseKubernetesVersion(version);
      return v ? (releaseSeriesForVersion(info.metadataReleaseSeries, v)?.contract ?? null) : null;
    } catch {
      return null;
    }
  };

  for (const plan of result.plans) {
    const compatible = rules.compatibleContracts(plan.contract);
    if (plan.contract !== rules.currentContract && plan.providers.some((p) => p.nextVersion !== '')) {
      findings.push({
        severity: 'info',
        code: 'unsupported-contract',
        contract: plan.contract,
        message: `the plan for contract ${plan.contract} cannot be applied by clusterctl (it only upgrades to ${rules.currentContract})`,
        reason: 'clusterctl reports plans for every contract the core provider can reach but applies only its own',
      });
    }
    for (const item of plan.providers) {
      const name = instanceName(item);
      if (item.nextVersion === '') {
        const c = contractOf(item, item.currentVersion);
        if (c !== null && !compatible.includes(c)) {
          findings.push({
            severity: 'error',
            code: 'incompatible-contract',
            contract: plan.contract,
            provider: name,
            message: `${name} stays at ${item.currentVersion} (contract ${c}), which is not compatible with contract ${plan.contract}`,
            reason: `every provider must implement a contract compatible with the core provider's (${compatible.join(', ')}); no newer release of ${manifestLabel(item.providerName, item.type)} does`,
          });
        }
        continue;
      }
      if (hasSkipVersionGuard(item) && skipsTooManyMinors(item.currentVersion, item.nextVersion)) {
        findings.push({
          severity: 'error',
          code: 'skip-minor-guard',
          contract: plan.contract,
          provider: name,
          message: `upgrade for ${name} provider can't skip more than 3 versions (${item.currentVersion} → ${item.nextVersion})`,
          reason: 'clusterctl upgrade apply refuses this step for cluster-api and kubeadm; upgrade through an intermediate minor first',
        });
      } else {
        const skipped = minorsBetween(item.currentVersion, item.nextVersion);
        if (skipped.length > 0) {
          const tooMany = skipsTooManyMinors(item.currentVersion, item.nextVersion) || skipped.length >= 3;
          findings.push({
            severity: tooMany ? 'warning' : 'info',
            code: 'skips-minor-versions',
            contract: plan.contract,
            provider: name,
            message: `${name} skips minor version${skipped.length > 1 ? 's' : ''} ${skipped.join(', ')} (${item.currentVersion} → ${item.nextVersion})`,
            reason: tooMany
              ? 'Cluster API supports skipping at most 3 minor versions in one upgrade; clusterctl enforces it only for cluster-api and kubeadm'
              : 'skipping minor versions is supported up to 3 minors; read the release notes of the skipped versions',
          });
        }
      }
      const cur = parseKubernetesVersion(item.currentVersion);
      const nxt = parseKubernetesVersion(item.nextVersion);
      if (cur && nxt && nxt.major !== cur.major) {
        findings.push({
          severity: 'warning',
          code: 'major-change',
          contract: plan.contract,
          provider: name,
          message: `${name} changes major version (${item.currentVersion} → ${item.nextVersion})`,
          reason: 'a major version may remove APIs or flags; read the provider’s upgrade notes',
        });
      }
      const from = contractOf(item, item.currentVersion);
      const to = contractOf(item, item.nextVersion);
      if (from !== null && to !== null && from !== to) {
        findings.push({
          severity: 'warning',
          code: 'contract-change',
          contract: plan.contract,
          provider: name,
          message: `${name} moves from contract ${from} to ${to} (${item.currentVersion} → ${item.nextVersion})`,
          reason: 'a contract change must happen together for every provider of the management cluster; apply the whole plan at once',
        });
      }
    }
  }
  for (const dropped of result.droppedPlans) {
    const stuck = dropped.providers.filter((p) => p.nextVersion === '').map(instanceName);
    findings.push({
      severity: 'warning',
      code: 'plan-dropped',
      contract: dropped.contract,
      message: `no plan for contract ${dropped.contract}: ${stuck.join(', ')} ${stuck.length === 1 ? 'has' : 'have'} no release implementing it`,
      reason: `all providers must change contract together (the core provider is at ${result.coreContract}); clusterctl drops such plans silently`,
    });
  }
  return findings;
}
