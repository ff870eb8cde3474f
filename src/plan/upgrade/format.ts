/** `clusterctl upgrade plan` text output (`cmd/clusterctl/cmd/upgrade_plan.go`), byte for byte. */
import { manifestLabel } from '../../capi/index.js';
import { tabwrite } from '../../go/index.js';
import { sortUpgradeItemsForOutput } from './plan.js';
import type { UpgradePlan } from './types.js';

/** The cert-manager part of the plan; `null` when cert-manager is managed outside clusterctl (no line printed). */
export interface CertManagerPlan {
  from: string;
  to: string;
  shouldUpgrade: boolean;
}

export interface FormatOptions {
  /** clusterctl's own contract: only plans for it get the `clusterctl upgrade apply` hint. */
  currentContract?: string;
  certManager?: CertManagerPlan | null;
}

/** Renders plans exactly as `clusterctl upgrade plan` prints them. */
export function formatUpgradePlan(plans: readonly UpgradePlan[], options: FormatOptions = {}): string {
  const currentContract = options.currentContract ?? 'v1beta2';
  let out = '';
  const cm = options.certManager;
  if (cm) {
    out += cm.shouldUpgrade
      ? `Cert-Manager will be upgraded from ${JSON.stringify(cm.from)} to ${JSON.stringify(cm.to)}\n\n`
      : 'Cert-Manager is already up to date\n\n';
  }
  if (plans.length === 0) {
    return `${out}There are no providers in the cluster. Please use clusterctl init to initialize a Cluster API management cluster.\n`;
  }
  const sorted = [...plans].sort((a, b) => (a.contract < b.contract ? -1 : a.contract > b.contract ? 1 : 0));
  for (const plan of sorted) {
    const items = sortUpgradeItemsForOutput(plan.providers);
    out += `\nLatest release available for the ${plan.contract} Cluster API contract version:\n\n`;
    let table = 'NAME\tNAMESPACE\tTYPE\tCURRENT VERSION\tNEXT VERSION\n';
    for (const i of items) {
      table += `${manifestLabel(i.providerName, i.type)}\t${i.namespace}\t${i.type}\t${i.currentVersion}\t${
        i.nextVersion === '' ? 'Already up to date' : i.nextVersion
      }\n`;
    }
    out += tabwrite(table);
    out += '\n';
    if (items.some((i) => i.nextVersion !== '')) {
      if (plan.contract === currentContract) {
        out += `You can now apply the upgrade by executing the following command:\n\nclusterctl upgrade apply --contract ${plan.contract}\n`;
      } else {
        out += `The current version of clusterctl could not upgrade to ${plan.contract} contract (only ${currentContract} supported).\n`;
      }
    } else {
      out += 'You are already up to date!\n';
    }
    out += '\n';
  }
  return out;
}
