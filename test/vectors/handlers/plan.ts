/**
 * capi-plan vectors for the offline upgrade and move planners: `upgrade-plan.json` (every operation),
 * `move-graph.json` (buildGraph, discoveryTypes) and `move-order.json`.
 */
import { expect } from 'vitest';
import {
  applyCustomPlan,
  applyPlan,
  createCustomPlan,
  defaultContractRules,
  getContractsForUpgrade,
  getLatestNextVersion,
  getUpgradeInfo,
  parseUpgradeItem,
  plan,
  releaseSeriesForContract,
  type ContractRules,
  type InventoryProvider,
  type ReleaseSeries,
  type Repositories,
  type RepositoryListing,
  type UpgradeItem,
} from '../../../src/plan/upgrade/index.js';
import { manifestLabel } from '../../../src/resolve/provider-type.js';
import { certManagerShouldUpgrade } from '../../../src/resolve/cert-manager.js';
import { buildMoveGraph, discoveryTypes, movePreconditions, moveSequence, type CrdInfo } from '../../../src/plan/move/index.js';
import type { Vector, VectorHandler } from '../types.js';

type Input = Record<string, unknown>;

function rulesFrom(input: Input): ContractRules {
  const ctx = input.context as { currentContract?: string; compatibleContracts?: Record<string, string[]> } | undefined;
  if (!ctx) return defaultContractRules;
  return {
    currentContract: ctx.currentContract ?? defaultContractRules.currentContract,
    compatibleContracts: (c) => ctx.compatibleContracts?.[c] ?? defaultContractRules.compatibleContracts(c),
  };
}

/** Runs `fn`; when the vector expects an error, asserts it (and its text when given), else returns the value. */
function run<T>(vector: Vector, fn: () => T): T | undefined {
  const expected = vector.expected as { error?: boolean; errorContains?: string };
  if (expected.error) {
    let thrown: unknown;
    try {
      fn();
    } catch (err) {
      thrown = err;
    }
    expect(thrown, 'expected an error').toBeInstanceOf(Error);
    if (expected.errorContains) expect((thrown as Error).message).toContain(expected.errorContains);
    return undefined;
  }
  return fn();
}

function planInput(input: Input): { inventory: InventoryProvider[]; repositories: Repositories; rules: ContractRules } {
  return {
    inventory: input.inventory as InventoryProvider[],
    repositories: input.repositories as Repositories,
    rules: rulesFrom(input),
  };
}

const upgrade: Record<string, (v: Vector) => void> = {
  plan: (v) => {
    const got = run(v, () => plan(planInput(v.input)));
    if (got) expect({ plans: got }).toEqual({ plans: v.expected.plans });
  },
  applyPlan: (v) => {
    const got = run(v, () => applyPlan(planInput(v.input), v.input.contract as string));
    if (got && v.expected.providers) expect(got).toEqual(v.expected.providers);
  },
  createCustomPlan: (v) => {
    const got = run(v, () => createCustomPlan(planInput(v.input), v.input.upgradeItems as UpgradeItem[]));
    if (!got) return;
    // The expected plan may be given whole (`plan` or `{contract, providers}`) or as its items only.
    const want = (v.expected.plan ?? v.expected) as { contract?: string; providers?: UpgradeItem[] };
    if (want.contract !== undefined) expect(got.contract).toEqual(want.contract);
    if (want.providers) expect(got.providers).toEqual(want.providers);
  },
  applyCustomPlan: (v) => {
    const got = run(v, () => applyCustomPlan(planInput(v.input), v.input.upgradeItems as UpgradeItem[]));
    if (got && v.expected.providers) expect(got).toEqual(v.expected.providers);
  },
  getUpgradeInfo: (v) => {
    const got = run(v, () => getUpgradeInfo(v.input.provider as InventoryProvider, v.input.repository as RepositoryListing));
    if (got) {
      const want = v.expected;
      expect(got.metadataReleaseSeries).toEqual(want.metadataReleaseSeries);
      expect(got.currentContract).toEqual(want.currentContract);
      expect(got.nextVersions).toEqual(want.nextVersions);
    }
  },
  getContractsForUpgrade: (v) => {
    const got = run(v, () =>
      getContractsForUpgrade(v.input.currentVersion as string, v.input.releaseSeries as ReleaseSeries[]),
    );
    if (got) expect(got).toEqual(v.expected.contracts);
  },
  getLatestNextVersion: (v) => {
    const got = getLatestNextVersion(
      v.input.nextVersions as string[],
      v.input.releaseSeries as ReleaseSeries[],
      v.input.compatibleContracts as string[],
    );
    expect(got).toEqual(v.expected.nextVersion);
  },
  parseUpgradeItem: (v) => {
    const got = run(v, () =>
      parseUpgradeItem(v.input.ref as string, v.input.providerType as string, v.input.inventory as InventoryProvider[]),
    );
    if (got) expect(got).toEqual(v.expected);
  },
  getReleaseSeriesForContract: (v) => {
    const got = releaseSeriesForContract(v.input.releaseSeries as ReleaseSeries[], v.input.contract as string);
    expect(got).toEqual(v.expected.releaseSeries ?? null);
  },
  manifestLabel: (v) => {
    expect(manifestLabel(v.input.providerName as string, v.input.type as string)).toEqual(v.expected.label);
  },
  certManagerShouldUpgrade: (v) => {
    const count = v.input.desiredObjectCount as number;
    const desired: Record<string, unknown>[] = Array.from({ length: count }, (_, i) => ({ kind: 'ConfigMap', metadata: { name: `o${i}` } }));
    if (v.input.imagesDiffer && desired.length > 0) {
      desired[0] = {
        kind: 'Deployment',
        metadata: { name: 'o0' },
        spec: { template: { spec: { containers: [{ image: 'registry.invalid/other:v0' }] } } },
      };
    }
    const got = run(v, () =>
      certManagerShouldUpgrade(v.input.desiredVersion as string, v.input.installedObjects as Record<string, unknown>[], desired),
    );
    if (got) expect({ from: got.fromVersion, shouldUpgrade: got.shouldUpgrade }).toEqual(v.expected);
  },
};

/** Reads the vectors' CRD table entries (`storageVersion` or `versions[].storage`). */
function crdsFrom(input: Input): CrdInfo[] {
  return (input.crds as CrdInfo[] | undefined) ?? [];
}

function graphHandler(v: Vector): void {
  const graph = buildMoveGraph(v.input.objects as Record<string, unknown>[], {
    crds: crdsFrom(v.input),
    namespace: (v.input.namespace as string | undefined) ?? '',
    inventory: v.input.inventory as InventoryProvider[] | undefined,
  });
  const want = v.expected.nodes as Record<string, Record<string, unknown>>;
  const got: Record<string, Record<string, unknown>> = {};
  for (const n of graph.nodes.values()) {
    got[n.uid] = {
      virtual: n.virtual,
      isGlobal: n.isGlobal,
      forceMove: n.forceMove,
      forceMoveHierarchy: n.forceMoveHierarchy,
      shouldNotDelete: n.shouldNotDelete,
      owners: [...n.owners.keys()].sort(),
      softOwners: [...n.softOwners].sort(),
      isGlobalHierarchy: n.isGlobalHierarchy,
      blockingMove: n.blockingMove,
      tenants: [...n.tenants].sort(),
    };
  }
  const pick = (node: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(node)) out[k] = Array.isArray(val) ? [...(val as string[])].sort() : val;
    return out;
  };
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const [key, node] of Object.entries(want)) {
    const g = got[key] as Record<string, unknown>;
    const subset: Record<string, unknown> = {};
    for (const k of Object.keys(node)) subset[k] = g[k];
    expect({ key, ...subset }).toEqual({ key, ...pick(node) });
  }
}

export const handlers: Record<string, VectorHandler> = {
  'capi-plan:move-graph:buildGraph': graphHandler,
  'capi-plan:move-graph:discoveryTypes': (v) => {
    const types = discoveryTypes(crdsFrom(v.input));
    const got: Record<string, unknown> = {};
    for (const [key, t] of types) {
      got[key] = { apiVersion: t.apiVersion, kind: t.kind, forceMove: t.forceMove, forceMoveHierarchy: t.forceMoveHierarchy, scope: t.scope };
    }
    expect(got).toEqual(v.expected.types);
  },
  'capi-plan:move-order:*': (v) => {
    const graph = buildMoveGraph(v.input.objects as Record<string, unknown>[], {
      crds: crdsFrom(v.input),
      namespace: (v.input.namespace as string | undefined) ?? '',
      inventory: v.input.inventory as InventoryProvider[] | undefined,
    });
    const groups = moveSequence(graph).map((g) => g.map((n) => n.uid));
    // Provisioning state (status) is not part of static manifests; a vector whose move passes its preconditions must
    // at least not be refused for paused objects.
    if (v.expected.moveFailsPreconditions === false) {
      expect(movePreconditions(graph).filter((p) => p.severity === 'error')).toEqual([]);
    }
    const want = v.expected.moveGroups as string[][];
    const inside = v.expected.orderInsideGroupMatters === true;
    const norm = (gs: string[][]): string[][] => (inside ? gs : gs.map((g) => [...g].sort()));
    if (v.expected.groupOrderMatters === false) {
      expect(norm(groups).map((g) => g.join('\n')).sort()).toEqual(norm(want).map((g) => g.join('\n')).sort());
    } else {
      expect(norm(groups)).toEqual(norm(want));
    }
  },
};
for (const [op, fn] of Object.entries(upgrade)) handlers[`capi-plan:upgrade-plan:${op}`] = fn;
