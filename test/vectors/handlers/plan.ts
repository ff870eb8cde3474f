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
  doUpgradeChecks,
  formatUpgradePlan,
  getContractsForUpgrade,
  getLatestNextVersion,
  getUpgradeInfo,
  instanceName,
  parseUpgradeItem,
  plan,
  releaseSeriesForContract,
  type ContractRules,
  type InventoryProvider,
  type ReleaseSeries,
  type Repositories,
  type RepositoryListing,
  type UpgradeItem,
  type UpgradePlan,
} from '../../../src/plan/upgrade/index.js';
import { manifestLabel, parseKubernetesVersion as parseSemantic, versionTag } from '../../../src/capi/index.js';
import { certManagerShouldUpgrade } from '../../../src/resolve/index.js';
import {
  buildMoveGraph,
  discoveryTypes,
  moveNodes,
  movePreconditions,
  moveSequence,
  type CrdInfo,
  type MoveGraph,
  type MoveNode,
} from '../../../src/plan/move/index.js';
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
  // contract.GetCompatibleVersions(c): the contract itself, plus v1beta1 for v1beta2.
  getCompatibleVersions: (v) => {
    const got = rulesFrom(v.input).compatibleContracts(String(v.input.contract));
    const want = (v.expected.contracts ?? v.expected.compatibleContracts ?? v.expected.versions) as string[] | undefined;
    if (!want) expect.fail('getCompatibleVersions: expected.contracts (or compatibleContracts, versions) is missing');
    expect([...got].sort()).toEqual([...want].sort());
  },
  // Provider.InstanceName(): `<namespace>/<manifest label>`.
  instanceName: (v) => {
    const p = (v.input.provider ?? v.input) as InventoryProvider;
    const want = v.expected.instanceName ?? v.expected.name;
    if (typeof want !== 'string') expect.fail('instanceName: expected.instanceName (or name) is missing');
    expect(instanceName(p)).toBe(want);
  },
  // versionTag(v): `v` + the semver string.
  versionTag: (v) => {
    const want = v.expected.tag ?? v.expected.version;
    if (typeof want !== 'string') expect.fail('versionTag: expected.tag (or version) is missing');
    const parsed = parseSemantic(String(v.input.version));
    if (!parsed) expect.fail(`versionTag: ${String(v.input.version)} is not a semantic version`);
    expect(versionTag(parsed)).toBe(want);
  },
  // doUpgrade's checks before any change: single instances, the 3-minor skip guard, then the apply order.
  doUpgrade: (v) => {
    const planIn = (v.input.plan ?? { contract: v.input.contract, providers: v.input.upgradeItems ?? v.input.providers }) as UpgradePlan;
    if (!Array.isArray(planIn.providers)) expect.fail('doUpgrade: input.plan.providers (or upgradeItems, providers) is missing');
    const got = run(v, () => doUpgradeChecks(planIn, (v.input.inventory ?? []) as InventoryProvider[], rulesFrom(v.input)));
    if (got === undefined) return;
    const want = v.expected.providers ?? v.expected.order;
    if (!Array.isArray(want)) expect.fail('doUpgrade: expected.providers (or order) is missing');
    expect(got).toEqual(want);
  },
  // `clusterctl upgrade plan` output: the plans (given, or built from inventory + repositories) and the cert-manager line.
  upgradePlanOutput: (v) => {
    const plans = (v.input.plans as UpgradePlan[] | undefined) ?? (v.input.inventory ? plan(planInput(v.input)) : undefined);
    if (!plans) expect.fail('upgrade plan output: input.plans (or inventory + repositories) is missing');
    const cm = v.input.certManager as { from?: string; to?: string; shouldUpgrade?: boolean } | null | undefined;
    const out = formatUpgradePlan(plans, {
      currentContract: rulesFrom(v.input).currentContract,
      certManager: cm ? { from: String(cm.from ?? ''), to: String(cm.to ?? ''), shouldUpgrade: Boolean(cm.shouldUpgrade) } : null,
    });
    const want = v.expected.stdout ?? v.expected.output;
    if (typeof want !== 'string') expect.fail('upgrade plan output: expected.stdout (or output) is missing');
    expect(out).toBe(want);
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

type NodeView = Record<string, unknown>;

function nodeView(n: MoveNode): NodeView {
  return {
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
    apiVersion: n.apiVersion,
    kind: n.kind,
    name: n.name,
    namespace: n.namespace,
  };
}

/** Field names as Go tests spell them (`wantGraphItem`) → the node view's. */
const nodeFieldAliases: Record<string, string> = { isVirtual: 'virtual', tenant: 'tenants', softOwner: 'softOwners' };
const listFields = new Set(['owners', 'softOwners', 'tenants']);

/**
 * objectGraph.addObj inserts any object, discovery type or not. Vectors of that form carry no `crds`: every kind
 * among the objects then gets a plain namespaced type (no move labels), so each object becomes a node as addObj makes it.
 */
function addObjCrds(objects: Record<string, unknown>[]): CrdInfo[] {
  const seen = new Map<string, CrdInfo>();
  for (const o of objects) {
    const apiVersion = String(o.apiVersion ?? '');
    const kind = String(o.kind ?? '');
    const i = apiVersion.indexOf('/');
    const group = i < 0 ? '' : apiVersion.slice(0, i);
    if (group === '' && (kind === 'Secret' || kind === 'ConfigMap')) continue;
    const version = i < 0 ? apiVersion : apiVersion.slice(i + 1);
    seen.set(`${group}/${kind}`, {
      group,
      kind,
      storageVersion: version,
      scope: 'Namespaced',
      labels: { 'clusterctl.cluster.x-k8s.io': '' },
    });
  }
  return [...seen.values()];
}

function graphOf(v: Vector, insertAll: boolean): MoveGraph {
  const objects = (v.input.objects ?? v.input.objs) as Record<string, unknown>[] | undefined;
  if (!Array.isArray(objects)) expect.fail('move graph: the vector has no input.objects (or input.objs) list');
  const given = (v.input.crds as CrdInfo[] | undefined) ?? [];
  // addObj: kinds the vector's CRD table (often empty) does not define still become nodes.
  const known = new Set(given.map((c) => `${c.group}/${c.kind}`));
  const extra = insertAll ? addObjCrds(objects).filter((c) => !known.has(`${c.group}/${c.kind}`)) : [];
  return buildMoveGraph(objects, {
    crds: [...given, ...extra],
    namespace: (v.input.namespace as string | undefined) ?? '',
    inventory: v.input.inventory as InventoryProvider[] | undefined,
  });
}

/** Compares a map `uid → list` (softOwners, tenants, owners) against the graph, lists in any order. */
function expectNodeLists(got: Map<string, NodeView>, want: unknown, fieldName: string): void {
  for (const [uid, list] of Object.entries(want as Record<string, unknown>)) {
    const g = got.get(uid);
    expect(g, `node ${uid} is not in the graph`).toBeDefined();
    expect({ uid, [fieldName]: g?.[fieldName] }).toEqual({ uid, [fieldName]: [...((list as string[] | null) ?? [])].sort() });
  }
}

/** `root → [uids]`: exactly the nodes whose tenants include `root`, in any order. */
function expectTenantMembers(got: Map<string, NodeView>, want: unknown): void {
  for (const [root, list] of Object.entries(want as Record<string, unknown>)) {
    const members = [...got.entries()].filter(([, n]) => (n.tenants as string[]).includes(root)).map(([uid]) => uid);
    expect({ root, members: members.sort() }).toEqual({ root, members: [...((list as string[] | null) ?? [])].sort() });
  }
}

/**
 * The move graph built as clusterctl's Discovery/addObj would (then soft ownership, tenants, shouldNotDelete), checked
 * against `expected.nodes` (every node, each with the fields it lists; `null` lists mean empty) or the per-field maps
 * `expected.softOwners` / `tenants` / `owners` (`uid → [uids]`), or `expected.moveNodes` (the uids moved).
 */
function graphHandlerFor(insertAll: boolean): (v: Vector) => void {
  return (v) => {
    const graph = graphOf(v, insertAll);
    const got = new Map<string, NodeView>();
    for (const n of graph.nodes.values()) got.set(n.uid, nodeView(n));
    let checked = 0;
    const nodes = v.expected.nodes as Record<string, Record<string, unknown>> | undefined;
    if (nodes) {
      checked++;
      expect([...got.keys()].sort()).toEqual(Object.keys(nodes).sort());
      for (const [key, node] of Object.entries(nodes)) {
        const g = got.get(key) as NodeView;
        const subset: Record<string, unknown> = {};
        const want: Record<string, unknown> = {};
        for (const [k0, val] of Object.entries(node)) {
          const k = nodeFieldAliases[k0] ?? k0;
          if (!(k in g)) expect.fail(`move graph: node field ${k0} of ${key} is not one this handler knows`);
          subset[k] = g[k];
          want[k] = listFields.has(k) ? [...((val as string[] | null) ?? [])].sort() : val;
        }
        expect({ key, ...subset }).toEqual({ key, ...want });
      }
    }
    for (const f of ['softOwners', 'owners']) {
      if (v.expected[f] === undefined) continue;
      checked++;
      expectNodeLists(got, v.expected[f], f);
    }
    // Tenant maps as objectgraph_test.go writes them: tenant root → the nodes it is a tenant of (wantClusters,
    // wantCRSs, wantIdentity). `tenants` may be either that or node → its tenants; it must match one of the two.
    for (const f of ['wantClusters', 'wantCRSs', 'wantIdentity', 'wantIdentities', 'tenantMembers']) {
      if (v.expected[f] === undefined) continue;
      checked++;
      expectTenantMembers(got, v.expected[f]);
    }
    if (v.expected.tenants !== undefined) {
      checked++;
      try {
        expectNodeLists(got, v.expected.tenants, 'tenants');
      } catch {
        expectTenantMembers(got, v.expected.tenants);
      }
    }
    if (Array.isArray(v.expected.moveNodes)) {
      checked++;
      expect(moveNodes(graph).map((n) => n.uid).sort()).toEqual([...(v.expected.moveNodes as string[])].sort());
    }
    if (checked === 0) {
      expect.fail('move graph: expected has none of expected.nodes, softOwners, owners, tenants, wantClusters, wantCRSs, wantIdentity, moveNodes');
    }
  };
}
const graphHandler = graphHandlerFor(false);

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

/**
 * objectGraph insertion and the passes after it (objectgraph_test.go): `addObj` inserts every object given (with or
 * without a CRD table); the Discovery and ownership/tenant tests build the graph from a fixture with its CRD table.
 */
const addObj = graphHandlerFor(true);
const graphOps: Record<string, VectorHandler> = {
  addObj,
  addObjs: addObj,
  addObject: addObj,
  addObjects: addObj,
  'objectGraph.addObj': addObj,
  'objectGraph.addObjs': addObj,
  'objectGraph.addObjects': addObj,
  buildGraph: graphHandler,
  discovery: graphHandler,
  Discovery: graphHandler,
  DiscoveryByNamespace: graphHandler,
  discoveryByNamespace: graphHandler,
  setSoftOwnership: graphHandler,
  setTenants: graphHandler,
  setClusterTenants: graphHandler,
  setCRSTenants: graphHandler,
  setGlobalIdentityTenants: graphHandler,
  setShouldNotDelete: graphHandler,
  cycleSafeguards: graphHandler,
  discoveryTypes: handlers['capi-plan:move-graph:discoveryTypes'] as VectorHandler,
  getDiscoveryTypes: handlers['capi-plan:move-graph:discoveryTypes'] as VectorHandler,
  getMoveSequence: handlers['capi-plan:move-order:*'] as VectorHandler,
  getMoveNodes: (v) => {
    const graph = graphOf(v, false);
    const want = v.expected.moveNodes ?? v.expected.nodes;
    if (!Array.isArray(want)) expect.fail('getMoveNodes: expected.moveNodes (a list of node keys) is missing');
    expect(moveNodes(graph).map((n) => n.uid).sort()).toEqual([...(want as string[])].sort());
  },
  moveSequence: handlers['capi-plan:move-order:*'] as VectorHandler,
};
for (const [op, fn] of Object.entries(graphOps)) {
  handlers[`capi-plan:*:${op}`] = fn;
  handlers[`clusterctl:objectGraph.${op.replace(/^objectGraph\./, '')}`] ??= fn;
}
// A capi-plan file the repo has not seen yet runs its upgrade operations by name too.
for (const [op, fn] of Object.entries(upgrade)) handlers[`capi-plan:*:${op}`] = fn;
