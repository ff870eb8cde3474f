/**
 * `capiform plan upgrade` and `capiform plan move`: clusterctl's upgrade plan and move plan, offline, from the lock,
 * the rendered tree and local provider repositories.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InputError, UsageError } from '../../errors.js';
import { manifestLabel } from '../../capi/index.js';
import type { CliIO } from '../context.js';
import { withBundleRepository } from './bundle-option.js';
import { requireFolder } from '../paths.js';
import { formatMovePlan, planMove } from '../../plan/move/index.js';
import { readCertManagerPlan, readManifests, readPinnedClusters, readPlanInventory, readPlanRepositories, type PinnedCluster } from '../../pipeline/plan-inputs/index.js';
import { tabwrite } from '../../go/index.js';
import {
  addUpgradeItems,
  applyCustomPlan,
  applyPlan,
  checkUpgradePaths,
  formatUpgradePlan,
  planWithDropped,
  sortUpgradeItemsForOutput,
  type UpgradeFinding,
  type UpgradeItem,
} from '../../plan/upgrade/index.js';
import { lockFileName } from '../../lock/index.js';
import { assertNoUnfinishedWrite, readSettled } from '../../pipeline/tree/index.js';
import { registerPlanTopology } from './plan-topology.js';

interface PlanGlobals {
  json?: boolean;
  quiet?: boolean;
  config?: string;
}

/** The directory holding capi.lock.yaml and the rendered tree: `--config`'s directory, else the working directory. */
function baseDir(io: CliIO, config: string | undefined): string {
  if (!config) return io.cwd;
  const p = resolve(io.cwd, config);
  if (!existsSync(p)) throw new UsageError(`config file not found: ${config}`, { hint: 'pass an existing capi.config.* with --config' });
  return dirname(p);
}

interface UpgradeOptions {
  repository?: string;
  target?: string;
  contract?: string;
  certManagerVersion?: string;
  core?: string[];
  bootstrap?: string[];
  controlPlane?: string[];
  infrastructure?: string[];
  ipam?: string[];
  runtimeExtension?: string[];
  addon?: string[];
}

/** `upgrade apply`'s provider flags, in clusterctl's order, with the provider type each one takes. */
const providerFlags: [keyof UpgradeOptions, string][] = [
  ['core', 'CoreProvider'],
  ['bootstrap', 'BootstrapProvider'],
  ['controlPlane', 'ControlPlaneProvider'],
  ['infrastructure', 'InfrastructureProvider'],
  ['ipam', 'IPAMProvider'],
  ['runtimeExtension', 'RuntimeExtensionProvider'],
  ['addon', 'AddonProvider'],
];

/** clusterctl StringSlice flags: repeatable and comma-separated. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').filter((v) => v !== '')];
}

function formatFindings(findings: readonly UpgradeFinding[]): string {
  if (findings.length === 0) return '';
  let out = 'capiform upgrade-path checks (not part of clusterctl’s plan):\n\n';
  for (const f of findings) out += `  ${f.severity}: ${f.message}\n      ${f.reason}\n`;
  return `${out}\n`;
}

/** Clusters an upgrade leaves on their pinned templates: they render from that release until their pin moves. */
function formatPinned(pinned: readonly PinnedCluster[]): string {
  if (pinned.length === 0) return '';
  let table = 'CLUSTER\tTEMPLATES FROM\tTEMPLATE VERSION\n';
  for (const p of pinned) table += `${p.cluster}\t${p.label} ${p.version}\t${p.constraint}\n`;
  return `Clusters pinned to a provider release's templates (clusters[].templateVersion; an upgrade does not move them):\n\n${tabwrite(table)}\n`;
}

function formatApply(args: string, items: readonly UpgradeItem[]): string {
  if (items.length === 0) return `clusterctl upgrade apply ${args} has nothing to upgrade.\n`;
  let table = 'NAME\tNAMESPACE\tTYPE\tCURRENT VERSION\tNEXT VERSION\n';
  for (const i of items) {
    table += `${manifestLabel(i.providerName, i.type)}\t${i.namespace}\t${i.type}\t${i.currentVersion}\t${i.nextVersion}\n`;
  }
  return `clusterctl upgrade apply ${args} would upgrade, in this order:\n\n${tabwrite(table)}\n`;
}

async function runUpgrade(io: CliIO, local: UpgradeOptions, globals: PlanGlobals): Promise<void> {
  const base = baseDir(io, globals.config);
  const repositoryHint = 'pass a clusterctl local repository: <DIR>/<provider label>/<version>/metadata.yaml';
  const repositoryDir = local.repository ? resolve(io.cwd, local.repository) : undefined;
  if (repositoryDir && !existsSync(repositoryDir)) {
    throw new UsageError(`repository directory not found: ${local.repository}`, {
      hint: repositoryHint,
    });
  }
  if (local.repository) requireFolder(io.cwd, local.repository, '--repository', repositoryHint);
  // The lock and the tree of one completed write: never a pair a crash or a running render left half-swapped.
  const { inventory, certManager, pinned } = await readSettled(
    base,
    () => ({
      inventory: readPlanInventory(base, local.target),
      certManager: readCertManagerPlan(base, repositoryDir, local.certManagerVersion, local.target),
      pinned: readPinnedClusters(base, local.target),
    }),
    lockFileName,
  );
  const repositories = await readPlanRepositories(inventory.providers, inventory.locked, repositoryDir, base, io.env);
  const input = { inventory: inventory.providers, repositories };
  const result = planWithDropped(input);
  const findings = checkUpgradePaths(result, inventory.providers, repositories);
  const custom = providerFlags.some(([flag]) => ((local[flag] as string[] | undefined) ?? []).length > 0);
  if (custom && local.contract !== undefined) {
    throw new UsageError(
      "The --contract flag can't be used in combination with --core, --bootstrap, --control-plane, --infrastructure, --ipam, --extension, --addon",
      { hint: 'preview either a contract upgrade (--contract) or explicit provider versions' },
    );
  }
  let applied: UpgradeItem[] | undefined;
  let appliedLabel = '';
  if (local.contract !== undefined) {
    applied = applyPlan(input, local.contract);
    appliedLabel = `--contract ${local.contract}`;
  } else if (custom) {
    const items: UpgradeItem[] = [];
    const args: string[] = [];
    for (const [flag, type] of providerFlags) {
      const refs = (local[flag] as string[] | undefined) ?? [];
      if (refs.length === 0) continue;
      items.push(...addUpgradeItems(refs, type, inventory.providers));
      args.push(`--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${refs.join(',')}`);
    }
    applied = applyCustomPlan(input, items);
    appliedLabel = args.join(' ');
  }
  if (globals.json) {
    const sorted = [...result.plans].sort((a, b) => (a.contract < b.contract ? -1 : a.contract > b.contract ? 1 : 0));
    const doc = {
      inventory: { source: inventory.source, providers: inventory.providers.map(({ providerName, type, version, namespace }) => ({ providerName, type, version, namespace })) },
      certManager,
      plans: sorted.map((p) => ({ contract: p.contract, providers: sortUpgradeItemsForOutput(p.providers) })),
      droppedPlans: result.droppedPlans,
      findings,
      ...(pinned.length > 0 ? { pinnedClusters: pinned } : {}),
      ...(applied ? { apply: { command: `clusterctl upgrade apply ${appliedLabel}`, providers: applied } } : {}),
    };
    io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    return;
  }
  let out = formatUpgradePlan(result.plans, { certManager });
  out += formatFindings(findings);
  out += formatPinned(pinned);
  if (applied) out += formatApply(appliedLabel, applied);
  io.stdout(out);
}

interface MoveOptions {
  namespace?: string;
  allNamespaces?: boolean;
  inferOwners?: boolean;
}

async function runMove(io: CliIO, paths: readonly string[], local: MoveOptions, globals: PlanGlobals): Promise<void> {
  if (local.namespace !== undefined && local.allNamespaces) {
    throw new UsageError('--namespace and --all-namespaces cannot be used together', { hint: 'pass one of them' });
  }
  if (local.namespace === '') throw new UsageError('--namespace needs a namespace name', { hint: 'or use --all-namespaces' });
  let inputs = [...paths];
  let base: string | undefined;
  if (inputs.length === 0) {
    const dir = baseDir(io, globals.config);
    assertNoUnfinishedWrite(dir);
    base = dir;
    // ClusterClasses shared by a namespace's clusters live in clusterclasses/, and move with those clusters.
    inputs = ['providers', 'clusterclasses', 'clusters'].map((d) => join(dir, d)).filter((d) => existsSync(d));
    if (inputs.length === 0) {
      throw new InputError(`nothing to plan: no providers/, clusterclasses/ or clusters/ directory in ${base}`, {
        where: base,
        hint: 'run `capiform render` first, or pass the directories or files holding the manifests',
      });
    }
  }
  const objects = base === undefined ? readManifests(inputs, io.cwd) : await readSettled(base, () => readManifests(inputs, io.cwd));
  const plan = planMove(objects, { namespace: local.namespace ?? '', inferOwners: local.inferOwners !== false });
  if (globals.json) io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
  else io.stdout(formatMovePlan(plan));
}

export function registerPlan(program: Command, io: CliIO): void {
  const plan = program.command('plan').description('offline plans: what clusterctl upgrade, clusterctl move and the ClusterClass topology controller would do');
  plan
    .command('upgrade')
    .description('clusterctl upgrade plan, offline: next version per contract, plus capiform’s upgrade-path checks')
    .option('--repository <dir>', 'clusterctl local repository with the providers’ releases (<dir>/<label>/<version>/)')
    .option('--contract <contract>', 'also show what `clusterctl upgrade apply --contract <contract>` would upgrade')
    .option('--core <ref>', 'preview `upgrade apply --core [namespace/]name:version` (repeatable, comma-separated)', collect)
    .option('-b, --bootstrap <ref>', 'preview `upgrade apply --bootstrap …`', collect)
    .option('-c, --control-plane <ref>', 'preview `upgrade apply --control-plane …`', collect)
    .option('-i, --infrastructure <ref>', 'preview `upgrade apply --infrastructure …`', collect)
    .option('--ipam <ref>', 'preview `upgrade apply --ipam …`', collect)
    .option('--runtime-extension <ref>', 'preview `upgrade apply --runtime-extension …`', collect)
    .option('--addon <ref>', 'preview `upgrade apply --addon …`', collect)
    .option('--cert-manager-version <version>', 'the cert-manager version to plan for (default: newest in --repository)')
    .option('--target <name>', 'a fleet: plan the management cluster of this name (its lock section and targets/<name>/ tree)')
    .option('--config <file>', 'capi.config.* whose directory holds capi.lock.yaml and the rendered tree')
    .option('--bundle <file>', 'use the releases of this air-gapped bundle as the repository (instead of --repository)')
    .action(async (local: UpgradeOptions & { bundle?: string }, cmd: Command) => {
      if (local.bundle !== undefined && local.repository !== undefined) {
        throw new UsageError('pass either --bundle or --repository, not both', { hint: 'capiform plan upgrade --bundle capi-bundle.tar.gz' });
      }
      await withBundleRepository(io, local.bundle, local.repository, (dir) =>
        runUpgrade(io, { ...local, ...(dir !== undefined ? { repository: dir } : {}) }, cmd.optsWithGlobals<PlanGlobals>()),
      );
    });
  plan
    .command('move')
    .description('clusterctl move, offline: object graph, move order (groups), and what would be skipped')
    .argument('[paths...]', 'manifest directories or files (default: providers/, clusterclasses/ and clusters/ of the rendered tree)')
    .option('-n, --namespace <namespace>', 'move only this namespace (clusterctl --namespace)')
    .option('-A, --all-namespaces', 'move every namespace (the default)')
    .option('--no-infer-owners', 'use only the ownerReferences in the manifests (by default capiform adds the ones CAPI controllers set at runtime)')
    .option('--config <file>', 'capi.config.* whose directory holds the rendered tree')
    .action(async (paths: string[], local: MoveOptions, cmd: Command) => {
      await runMove(io, paths, local, cmd.optsWithGlobals<PlanGlobals>());
    });
  registerPlanTopology(plan, io);
}
