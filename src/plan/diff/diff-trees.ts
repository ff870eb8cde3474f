/** Compares two rendered trees object by object and assesses the rollout impact of every change. */
import { checkCapiformTree, type RenderedTree } from './tree.js';
import { indexTree, isRecord, ownerFromPath, type TreeIndex, type TreeObject } from './objects.js';
import { diffFields } from './field-diff.js';
import { withValueDiffs } from './value-diff.js';
import { findRotations } from './rotation.js';
import { diffSecret, isSecret, redactSecretValues, scrubStrings, type SecretPolicy } from './secrets.js';
import type { DiffReport, FieldChange, ObjectChange, Owner } from './types.js';
import { classifyAdded, classifyChanged, classifyRemoved, classifyRotated, type ClassifyInput } from '../rollout/classify.js';
import { assessProviders } from '../rollout/provider.js';
import { summarize, summarizeClusters } from '../rollout/summary.js';
import { clusterClassOf, clusterOfObject, TreeLookup } from '../rollout/refs.js';
import type { ClusterSummary, Impact } from '../rollout/types.js';
import { templatePinOf } from '../../render/index.js';
import type { ClusterTopologyReview, TopologyReview } from '../topology/types.js';
import { removalFates, type RemovalFate } from '../rollout/argocd.js';
import { checkUpdates, clusterVersionCeilingRule, updateRules, type SourceObject, type UpdateRule } from '../../validate/admission/index.js';

export interface DiffOptions {
  /** Salt for secret hashes (see `repositorySalt`). Required so hashes are stable per repository. */
  salt: string;
  /** Variables marked secret and their values (both sides' values when known). */
  secretValues?: Record<string, string | string[]>;
  /** Allow an empty base (the first render). Default true. */
  allowEmptyBase?: boolean;
  /** Allow an empty head (the tree was removed). Default false. */
  allowEmptyHead?: boolean;
  /**
   * The ClusterClass review (`reviewTreeTopology` of src/plan/topology): expands the topology Clusters a change
   * reaches on both sides. Passed in rather than imported so a diff that touches no topology Cluster never loads the
   * topology engine (see `topologyScope`).
   */
  topology?: (base: TreeIndex, head: TreeIndex) => TopologyReview | undefined;
  /**
   * What Argo CD does with a removed object. Default: read from the two indexes' own Argo CD glue (a fleet's
   * management clusters are compared one by one, so `diffTrees` reads the glue of the whole trees instead).
   */
  removal?: (o: TreeObject) => RemovalFate | undefined;
  /**
   * The update rules of the management cluster's webhooks. Default: every rule of src/validate/admission, and the
   * Cluster webhook's version rules against the head tree's ClusterClass (the class the API server holds once the
   * change is synced).
   */
  updateRules?: readonly UpdateRule[];
}

/**
 * Replaces the impacts of every changed object a webhook refuses to update with `rejected`: the update never lands,
 * so nothing it would have done happens (Argo CD's sync of it fails). The clusters its impacts reached stay named.
 */
function applyUpdateRules(inputs: ClassifyInput[], rules: readonly UpdateRule[] | undefined): void {
  for (const i of inputs) {
    if (i.change.action !== 'changed' || !i.base || !i.head || i.change.fields.length === 0) continue;
    const findings = checkUpdates([{ before: { object: i.base.object, file: i.base.file, line: 1 }, after: { object: i.head.object, file: i.head.file, line: 1 } }], rules);
    const errors = findings.filter((f) => f.severity === 'error');
    if (errors.length === 0) continue;
    const clusters = [...new Set([...i.change.impacts.map((x) => x.cluster), i.cluster].filter((c): c is string => c !== undefined))];
    const what = `${i.change.kind} ${i.change.namespace ? `${i.change.namespace}/` : ''}${i.change.name}`;
    i.change.impacts = errors.flatMap((f) => {
      const impact: Impact = {
        kind: 'rejected',
        // A webhook's message already leads with its field path, as the API server prints it.
        reason: `update of ${what} rejected: ${f.field !== undefined && f.message.startsWith(`${f.field}: `) ? f.message : `${f.field}: ${f.message}`}`,
        field: f.field,
        message: f.message,
        ...(f.rule !== undefined ? { rule: f.rule } : {}),
        ...(f.hint !== undefined ? { hint: f.hint } : {}),
      };
      return clusters.length === 0 ? [impact] : clusters.map((cluster) => ({ ...impact, cluster }));
    });
  }
}

/** The ClusterClass a topology Cluster names, as the head tree holds it (none: the webhook's class rules stay silent). */
function headClassOf(head: TreeLookup): (cluster: SourceObject) => Record<string, unknown> | undefined {
  return ({ object }) => {
    const meta = object.metadata;
    const namespace = isRecord(meta) && typeof meta.namespace === 'string' ? meta.namespace : '';
    const cls = clusterClassOf({ object, namespace });
    return cls ? head.classes(cls.namespace).find((c) => c.name === cls.name)?.object : undefined;
  };
}

/** What the review says CAPI does to a Cluster, as impacts on one changed object. */
function reviewImpacts(r: ClusterTopologyReview): Impact[] {
  if (r.impacts.length > 0) return r.impacts;
  return [{ kind: 'no-op', reason: 'the desired objects of this Cluster do not change', cluster: r.cluster }];
}

/**
 * Replaces the rule-of-thumb impacts on topology Clusters (a class or variable change "may roll") with what the
 * expansion of both sides says, for each Cluster expanded on both sides. A created or deleted Cluster keeps its
 * create/deletion; a Cluster that could not be expanded keeps the rules' answer.
 */
function applyTopologyReview(inputs: ClassifyInput[], review: TopologyReview): void {
  const reviewed = new Map(review.clusters.filter((c) => c.status === 'changed' || c.status === 'unchanged').map((c) => [c.cluster, c]));
  for (const i of inputs) {
    const touched = [...new Set(i.change.impacts.map((x) => x.cluster).filter((c): c is string => c !== undefined && reviewed.has(c)))];
    if (touched.length === 0) continue;
    const kept = i.change.impacts.filter((x) => x.cluster === undefined || !reviewed.has(x.cluster));
    i.change.impacts = [...kept, ...touched.flatMap((c) => reviewImpacts(reviewed.get(c) as ClusterTopologyReview))];
  }
}

function policyOf(opts: DiffOptions): SecretPolicy {
  const values: SecretPolicy['values'] = [];
  for (const [name, v] of Object.entries(opts.secretValues ?? {})) {
    for (const value of Array.isArray(v) ? v : [v]) if (value) values.push({ name, value });
  }
  // Longest first so a value that contains another is replaced whole.
  values.sort((a, b) => b.value.length - a.value.length);
  return { salt: opts.salt, values };
}

const ownerRank: Record<Owner['type'], number> = { provider: 0, namespace: 1, cluster: 2, argocd: 3, other: 4 };

function compareChanges(a: ObjectChange, b: ObjectChange): number {
  const r = ownerRank[a.owner.type] - ownerRank[b.owner.type];
  if (r !== 0) return r;
  const fa = ownerKey(a.owner);
  const fb = ownerKey(b.owner);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export function ownerKey(o: Owner): string {
  switch (o.type) {
    case 'provider':
      return o.label;
    case 'cluster':
      return `${o.namespace}/${o.name}`;
    case 'namespace':
      return o.namespace;
    default:
      return o.type;
  }
}

function makeChange(action: ObjectChange['action'], obj: TreeObject, prev: TreeObject | undefined, fields: FieldChange[]): ObjectChange {
  const c: ObjectChange = {
    action,
    key: obj.key,
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    namespace: obj.namespace,
    name: obj.name,
    file: obj.file,
    owner: ownerFromPath(obj.file),
    fields,
    impacts: [],
  };
  if (prev && prev.apiVersion !== obj.apiVersion) c.previousApiVersion = prev.apiVersion;
  if (prev && prev.file !== obj.file) c.previousFile = prev.file;
  if (prev && prev.name !== obj.name) c.previousName = prev.name;
  return c;
}

function objectFields(a: TreeObject, b: TreeObject, policy: SecretPolicy): FieldChange[] {
  const fields = isSecret(a) || isSecret(b) ? diffSecret(a, b, policy) : diffFields(a.object, b.object);
  return redactSecretValues(fields, policy);
}

/** `Kind ns/name` of every change a webhook refuses (with its management cluster in a fleet). */
function rejectedObjects(changes: readonly ObjectChange[]): string[] {
  return changes
    .filter((c) => c.impacts.some((i) => i.kind === 'rejected'))
    .map((c) => `${c.target === undefined ? '' : `${c.target}: `}${c.kind} ${c.namespace ? `${c.namespace}/` : ''}${c.name}`);
}

/** Compares two indexed trees. */
export function diffIndexes(base: TreeIndex, head: TreeIndex, opts: DiffOptions, warnings: string[] = []): DiffReport {
  const policy = policyOf(opts);
  const inputs: ClassifyInput[] = [];
  const removed: TreeObject[] = [];
  const added: TreeObject[] = [];
  const referenceChanges = new Set<string>();
  // Only files that differ can hold a change; unchanged files are parsed later only if context needs them.
  const changedFiles = new Set<string>();
  for (const [path, text] of base.files) if (head.files.get(path) !== text) changedFiles.add(path);
  for (const path of head.files.keys()) if (!base.files.has(path)) changedFiles.add(path);
  const baseObjects = new Map<string, TreeObject>();
  const headObjects = new Map<string, TreeObject>();
  // Within a changed file, a document whose text is the same on both sides is the same object: skip it.
  for (const path of changedFiles) {
    const bc = base.chunksOf(path);
    const hc = head.chunksOf(path);
    const bs = new Set(bc);
    const hs = new Set(hc);
    bc.forEach((text, i) => {
      if (!hs.has(text)) for (const o of base.objectsOfChunk(path, i)) baseObjects.set(o.key, o);
    });
    hc.forEach((text, i) => {
      if (!bs.has(text)) for (const o of head.objectsOfChunk(path, i)) headObjects.set(o.key, o);
    });
  }
  let unchangedInChangedFiles = 0;
  for (const [key, a] of baseObjects) {
    const b = headObjects.get(key) ?? head.objects.get(key);
    if (!b) {
      removed.push(a);
      continue;
    }
    const fields = objectFields(a, b, policy);
    if (fields.length === 0 && a.file === b.file) {
      unchangedInChangedFiles++;
      continue;
    }
    for (const f of fields) if (typeof f.old === 'string' && typeof f.new === 'string') referenceChanges.add(`${f.old}\0${f.new}`);
    inputs.push({ change: makeChange('changed', b, a, fields), base: a, head: b });
  }
  for (const [key, b] of headObjects) if (!baseObjects.has(key) && !base.objects.has(key)) added.push(b);

  const rotations = findRotations(removed, added, referenceChanges);
  const rotatedFrom = new Set(rotations.map((r) => r.from));
  const rotatedTo = new Set(rotations.map((r) => r.to));
  for (const r of rotations) {
    const fields = objectFields(r.from, r.to, policy).filter((f) => f.path !== '.metadata.name');
    const change = makeChange('rotated', r.to, r.from, fields);
    if (r.naming) change.renamedBy = r.naming;
    inputs.push({ change, base: r.from, head: r.to });
  }
  for (const a of removed) if (!rotatedFrom.has(a)) inputs.push({ change: makeChange('removed', a, undefined, []), base: a });
  for (const b of added) if (!rotatedTo.has(b)) inputs.push({ change: makeChange('added', b, undefined, []), head: b });

  // Owners and clusters.
  const ctx = { base: new TreeLookup(base), head: new TreeLookup(head) };
  for (const i of inputs) {
    const o = (i.head ?? i.base) as TreeObject;
    const owner = i.change.owner;
    // A folder clusters/<ns>/<dir>/ is a cluster's only if that Cluster exists (else it is shared, e.g. a ClusterClass).
    const isClusterDir = owner.type === 'cluster' && (ctx.head.hasClusterDir(owner.namespace, owner.name) || ctx.base.hasClusterDir(owner.namespace, owner.name));
    if (owner.type === 'cluster' && !isClusterDir) i.change.owner = { type: 'namespace', namespace: owner.namespace };
    const cluster = clusterOfObject(o, isClusterDir && owner.type === 'cluster' ? owner : null);
    if (cluster) {
      i.cluster = cluster;
      if (owner.type !== 'provider') {
        const [namespace = '', name = ''] = cluster.split('/');
        i.change.owner = { type: 'cluster', namespace, name };
      }
    }
  }

  // Rollout impact.
  const fate = opts.removal ?? removalFates(base, head);
  for (const i of inputs) {
    if (i.change.owner.type === 'provider') continue;
    switch (i.change.action) {
      case 'changed':
        i.change.impacts = classifyChanged(i, ctx);
        break;
      case 'added':
        i.change.impacts = classifyAdded(i);
        break;
      case 'removed':
        i.change.impacts = classifyRemoved(i, fate(i.base as TreeObject));
        break;
      case 'rotated':
        i.change.impacts = classifyRotated(i);
        break;
    }
  }
  // An object that only moved to another file changes nothing.
  for (const i of inputs) {
    if (i.change.action === 'changed' && i.change.fields.length === 0) {
      i.change.impacts = [{ kind: 'no-op', reason: `moved from ${i.change.previousFile ?? '?'} to ${i.change.file}` }];
    }
  }
  const topology = opts.topology?.(base, head);
  if (topology) applyTopologyReview(inputs, topology);
  applyUpdateRules(inputs, opts.updateRules ?? [...updateRules, clusterVersionCeilingRule(headClassOf(ctx.head))]);
  const providers = assessProviders(inputs, base, head);
  const changes = inputs.map((i) => i.change).sort(compareChanges);
  const clusters = summarizeClusters(changes);
  const counts = {
    added: changes.filter((c) => c.action === 'added').length,
    removed: changes.filter((c) => c.action === 'removed').length,
    changed: changes.filter((c) => c.action === 'changed').length,
    rotated: changes.filter((c) => c.action === 'rotated').length,
    unchanged: 0,
  };
  for (const c of changes) for (const f of c.fields) delete f.segments;
  // Objects present on both sides and not changed (exact for parsed files, counted by `kind:` lines otherwise).
  counts.unchanged = Math.max(0, head.objectCount() - counts.added - counts.changed - counts.rotated);
  void unchangedInChangedFiles;
  const report: DiffReport = {
    schemaVersion: 1,
    base: { label: base.label, files: base.files.size, objects: base.objectCount() },
    head: { label: head.label, files: head.files.size, objects: head.objectCount() },
    changed: changes.length > 0,
    counts,
    summary: summarize(clusters, providers, changes.length > 0, rejectedObjects(changes)),
    clusters,
    providers,
    changes,
    warnings: [...warnings, ...base.warnings, ...head.warnings],
  };
  for (const c of changes) withValueDiffs(c.fields);
  if (topology) {
    for (const c of topology.clusters) for (const ch of c.changes) withValueDiffs(ch.fields);
    // Clusters the change leaves as they are need no section.
    const clusters = topology.clusters.filter((c) => c.status !== 'unchanged' || c.warnings.length > 0);
    if (clusters.length > 0 || topology.warnings.length > 0) report.topology = { clusters, warnings: topology.warnings };
  }
  return scrubStrings(report, policy);
}

/** Compares two rendered trees (checks that both are capiform's first). */
export function diffTrees(base: RenderedTree, head: RenderedTree, opts: DiffOptions): DiffReport {
  const warnings = [
    ...checkCapiformTree(base, { allowEmpty: opts.allowEmptyBase ?? true }),
    ...checkCapiformTree(head, { allowEmpty: opts.allowEmptyHead ?? false }),
  ];
  const groups = targetGroups(base, head);
  let whole: { base: TreeIndex; head: TreeIndex } | undefined;
  const report =
    groups === null
      ? diffIndexes(indexTree(base), indexTree(head), opts, warnings)
      : mergeTargetReports(
          base,
          head,
          groups.map((g) => {
            // The glue of a fleet sits beside the management clusters' folders: read it from the whole trees.
            whole ??= { base: indexTree(base), head: indexTree(head) };
            const removal = g.target === undefined ? undefined : removalFates(whole.base, whole.head, `${targetsDir}${g.target}/`, g.target);
            return { target: g.target, report: diffIndexes(indexTree(g.base), indexTree(g.head), { ...opts, ...(removal ? { removal } : {}) }) };
          }),
          warnings,
        );
  for (const c of report.clusters) Object.assign(c, templatePins(base, head, c.target, c.cluster));
  return report;
}

/** A listed cluster's template pin on each side, as its `cluster.yaml` names it (`clusters[].templateVersion`). */
function templatePins(base: RenderedTree, head: RenderedTree, target: string | undefined, cluster: string): Partial<ClusterSummary> {
  const file = `${target === undefined ? '' : `${targetsDir}${target}/`}clusters/${cluster}/cluster.yaml`;
  const pinOf = (t: RenderedTree): string | undefined => {
    const text = t.files.get(file);
    return text === undefined ? undefined : templatePinOf(text)?.version;
  };
  const now = pinOf(head);
  const before = pinOf(base);
  return {
    ...(now !== undefined ? { templateVersion: now } : {}),
    ...(before !== undefined && before !== now ? { previousTemplateVersion: before } : {}),
  };
}

const targetsDir = 'targets/';

/**
 * A fleet's tree (`targets/<name>/…`) split per management cluster: each holds its own copy of the providers and
 * objects of the same name, so each is compared with its own side. Null when neither side has a `targets/` folder.
 */
export function targetGroups(base: RenderedTree, head: RenderedTree): { target: string | undefined; base: RenderedTree; head: RenderedTree }[] | null {
  const names = new Set<string>();
  for (const tree of [base, head]) {
    for (const path of tree.files.keys()) if (path.startsWith(targetsDir)) names.add(path.slice(targetsDir.length).split('/', 1)[0]!);
  }
  if (names.size === 0) return null;
  const part = (tree: RenderedTree, target: string | undefined): RenderedTree => {
    const prefix = target === undefined ? undefined : `${targetsDir}${target}/`;
    const files = new Map<string, string>();
    for (const [path, text] of tree.files) {
      if (prefix === undefined ? !path.startsWith(targetsDir) : path.startsWith(prefix)) files.set(prefix ? path.slice(prefix.length) : path, text);
    }
    return { label: tree.label, files };
  };
  const groups = [undefined, ...[...names].sort()].map((target) => ({ target, base: part(base, target), head: part(head, target) }));
  return groups.filter((g) => g.base.files.size > 0 || g.head.files.size > 0);
}

/** One report of the fleet: every change, cluster and provider names its management cluster, grouped by it. */
function mergeTargetReports(base: RenderedTree, head: RenderedTree, parts: { target: string | undefined; report: DiffReport }[], warnings: string[]): DiffReport {
  const at = (target: string | undefined, file: string): string => (target === undefined ? file : `${targetsDir}${target}/${file}`);
  const changes: ObjectChange[] = [];
  const clusters: DiffReport['clusters'] = [];
  const providers: DiffReport['providers'] = [];
  const counts = { added: 0, removed: 0, changed: 0, rotated: 0, unchanged: 0 };
  let baseObjects = 0;
  let headObjects = 0;
  const topology: TopologyReview = { clusters: [], warnings: [] };
  for (const { target, report } of parts) {
    if (report.topology) {
      topology.clusters.push(...report.topology.clusters.map((c) => (target === undefined ? c : { target, ...c })));
      topology.warnings.push(...report.topology.warnings.map((w) => (target === undefined ? w : `${target}: ${w}`)));
    }
    const named = target === undefined ? {} : { target };
    for (const c of report.changes) {
      changes.push({ ...named, ...c, file: at(target, c.file), ...(c.previousFile !== undefined ? { previousFile: at(target, c.previousFile) } : {}) });
    }
    clusters.push(...report.clusters.map((c) => ({ ...named, ...c })));
    providers.push(...report.providers.map((p) => ({ ...named, ...p })));
    for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] += report.counts[k];
    baseObjects += report.base.objects;
    headObjects += report.head.objects;
    warnings.push(...report.warnings.map((w) => (target === undefined ? w : `${target}: ${w}`)));
  }
  return {
    schemaVersion: 1,
    base: { label: base.label, files: base.files.size, objects: baseObjects },
    head: { label: head.label, files: head.files.size, objects: headObjects },
    changed: changes.length > 0,
    counts,
    summary: summarize(clusters, providers, changes.length > 0, rejectedObjects(changes)),
    clusters,
    providers,
    changes,
    warnings,
    ...(topology.clusters.length > 0 || topology.warnings.length > 0 ? { topology } : {}),
  };
}
