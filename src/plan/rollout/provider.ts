/**
 * Provider changes: the clusterctl inventory `Provider` object's version (a → b), the contract (from the CRDs'
 * `cluster.x-k8s.io/<contract>` labels, else their storage versions), CRD versions, controller images and flags.
 */
import { isRecord, type TreeIndex, type TreeObject } from '../diff/objects.js';
import type { ObjectChange } from '../diff/types.js';
import type { Impact, ProviderSummary } from './types.js';
import { get, str } from './refs.js';
import { valueDiff } from '../diff/value-diff.js';

const contractLabel = /^cluster\.x-k8s\.io\/(v\d+(?:(?:alpha|beta)\d+)?)$/;

function providerObjects(index: TreeIndex, label: string): TreeObject[] {
  return index.under(`providers/${label}/`);
}

function isCrd(o: TreeObject): boolean {
  return o.group === 'apiextensions.k8s.io' && o.kind === 'CustomResourceDefinition';
}

function isInventory(o: TreeObject): boolean {
  return o.group === 'clusterctl.cluster.x-k8s.io' && o.kind === 'Provider';
}

/** Kubernetes API version order: v1 > v1beta2 > v1beta1 > v1alpha4. */
function versionRank(v: string): number {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  if (!m) return -1;
  const stage = m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2;
  return Number(m[1]) * 10000 + stage * 1000 + Number(m[3] ?? 0);
}

function newest(versions: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const v of versions) if (best === undefined || versionRank(v) > versionRank(best)) best = v;
  return best;
}

/** The provider's contract as its CRDs declare it (newest contract label), else the newest storage version. */
export function providerContract(objs: TreeObject[]): string | undefined {
  const fromLabels = new Set<string>();
  const storage = new Set<string>();
  for (const o of objs.filter(isCrd)) {
    const labels = get(o.object, 'metadata', 'labels');
    if (isRecord(labels)) for (const k of Object.keys(labels)) {
      const m = contractLabel.exec(k);
      if (m?.[1]) fromLabels.add(m[1]);
    }
    const s = crdVersions(o).storage;
    if (s && o.name.endsWith('.cluster.x-k8s.io')) storage.add(s);
  }
  return newest(fromLabels) ?? newest(storage);
}

function crdVersions(o: TreeObject | undefined): { all: string[]; served: string[]; deprecated: string[]; storage?: string } {
  const versions = get(o?.object, 'spec', 'versions');
  const all: string[] = [];
  const served: string[] = [];
  const deprecated: string[] = [];
  let storage: string | undefined;
  if (Array.isArray(versions)) {
    for (const v of versions) {
      const name = str(get(v, 'name'));
      if (!name) continue;
      all.push(name);
      if (get(v, 'served') !== false) served.push(name);
      if (get(v, 'deprecated') === true) deprecated.push(name);
      if (get(v, 'storage') === true) storage = name;
    }
  }
  return storage === undefined ? { all, served, deprecated } : { all, served, deprecated, storage };
}

/** `--name=value` flags by name; other arguments keep their text as the name. */
function flagMap(args: string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const a of args) {
    const eq = a.indexOf('=');
    if (a.startsWith('-') && eq > 0) m.set(a.slice(0, eq), a.slice(eq + 1));
    else m.set(a, '');
  }
  return m;
}

/** A flag whose value changed; a list value (`A=true,B=false`) with the items each side alone has. */
function flagChange(flag: string, from: string, to: string): ProviderSummary['args'][number]['changed'][number] {
  const d = valueDiff(from, to);
  return d?.kind === 'items' && !d.hidden ? { flag, from, to, removed: d.removed, added: d.added } : { flag, from, to };
}

interface Container {
  name: string;
  image?: string;
  args: string[];
}

function containers(o: TreeObject | undefined): Container[] {
  const spec = get(o?.object, 'spec', 'template', 'spec');
  const out: Container[] = [];
  for (const list of ['initContainers', 'containers']) {
    const cs = get(spec, list);
    if (!Array.isArray(cs)) continue;
    for (const c of cs) {
      const name = str(get(c, 'name')) ?? '?';
      const image = str(get(c, 'image'));
      const args = [get(c, 'command'), get(c, 'args')].flatMap((a) => (Array.isArray(a) ? a.map(String) : []));
      out.push(image === undefined ? { name, args } : { name, image, args });
    }
  }
  return out;
}

export interface ProviderChangeInput {
  change: ObjectChange;
  base?: TreeObject;
  head?: TreeObject;
}

/** Fills `impacts` of every provider-owned change and returns one summary per provider with changes. */
export function assessProviders(inputs: ProviderChangeInput[], base: TreeIndex, head: TreeIndex): ProviderSummary[] {
  const byLabel = new Map<string, ProviderChangeInput[]>();
  for (const i of inputs) {
    if (i.change.owner.type !== 'provider') continue;
    const list = byLabel.get(i.change.owner.label);
    if (list) list.push(i);
    else byLabel.set(i.change.owner.label, [i]);
  }
  const out: ProviderSummary[] = [];
  for (const [label, list] of [...byLabel.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const bObjs = providerObjects(base, label);
    const hObjs = providerObjects(head, label);
    const bInv = bObjs.find(isInventory);
    const hInv = hObjs.find(isInventory);
    const inv = hInv ?? bInv;
    const fromVersion = str(get(bInv?.object, 'version'));
    const toVersion = str(get(hInv?.object, 'version'));
    const upgraded = fromVersion !== undefined && toVersion !== undefined && fromVersion !== toVersion;
    const kind = upgraded ? 'provider-upgrade' : 'provider-change';
    const summary: ProviderSummary = {
      label,
      impact: kind,
      crds: { added: [], removed: [], changed: [], versionsAdded: [], versionsRemoved: [], versionsDeprecated: [], storageChanged: [] },
      images: [],
      args: [],
      objectsChanged: list.length,
    };
    const providerName = str(get(inv?.object, 'providerName'));
    const type = str(get(inv?.object, 'type'));
    if (providerName) summary.providerName = providerName;
    if (type) summary.type = type;
    if (fromVersion) summary.fromVersion = fromVersion;
    if (toVersion) summary.toVersion = toVersion;
    const fromContract = bObjs.length > 0 ? providerContract(bObjs) : undefined;
    const toContract = hObjs.length > 0 ? providerContract(hObjs) : undefined;
    if (fromContract) summary.fromContract = fromContract;
    if (toContract) summary.toContract = toContract;
    const mk = (reason: string, warning?: string): Impact => ({ kind, provider: label, reason, ...(warning ? { warning } : {}) });

    for (const i of list) {
      const o = i.head ?? i.base;
      if (!o) continue;
      const a = i.change.action;
      if (a === 'changed' && i.change.fields.length === 0) continue; // moved between files: already a no-op
      if (o.kind === 'Kustomization') {
        i.change.impacts = [{ kind: 'no-op', provider: label, reason: 'GitOps glue changed' }];
        continue;
      }
      if (isInventory(o)) {
        if (a === 'added') i.change.impacts = [{ kind: 'create', provider: label, reason: `provider ${providerName ?? label} ${toVersion ?? ''} installed`.trim() }];
        else if (a === 'removed') i.change.impacts = [{ kind: 'deletion', provider: label, reason: `provider ${providerName ?? label} removed from the inventory` }];
        else if (upgraded) {
          const contract = fromContract && toContract && fromContract !== toContract ? `; contract ${fromContract} → ${toContract}` : '';
          i.change.impacts = [mk(`${providerName ?? label} ${fromVersion} → ${toVersion}${contract}`)];
        } else i.change.impacts = [mk('inventory object changed')];
        continue;
      }
      if (isCrd(o)) {
        if (a === 'added') {
          summary.crds.added.push(o.name);
          i.change.impacts = [mk(`CRD ${o.name} added`)];
        } else if (a === 'removed') {
          summary.crds.removed.push(o.name);
          i.change.impacts = [mk(`CRD ${o.name} removed`, 'deleting a CRD deletes every object of its kind (Argo CD prunes only with prune: true)')];
        } else {
          summary.crds.changed.push(o.name);
          const bv = crdVersions(i.base);
          const hv = crdVersions(i.head);
          const added = hv.served.filter((v) => !bv.served.includes(v));
          const removed = bv.served.filter((v) => !hv.served.includes(v));
          const dropped = bv.all.filter((v) => !hv.all.includes(v) && !removed.includes(v));
          const parts: string[] = [];
          if (added.length) {
            parts.push(`versions added ${added.join(', ')}`);
            summary.crds.versionsAdded.push(...added.map((v) => `${o.name}/${v}`));
          }
          const deprecated = hv.deprecated.filter((v) => !bv.deprecated.includes(v));
          if (deprecated.length) {
            parts.push(`versions deprecated ${deprecated.join(', ')}`);
            summary.crds.versionsDeprecated.push(...deprecated.map((v) => `${o.name}/${v}`));
          }
          if (removed.length) {
            parts.push(`versions no longer served ${removed.join(', ')}`);
            summary.crds.versionsRemoved.push(...removed.map((v) => `${o.name}/${v}`));
          }
          if (dropped.length) {
            parts.push(`versions dropped from the CRD ${dropped.join(', ')}`);
            summary.crds.versionsRemoved.push(...dropped.map((v) => `${o.name}/${v}`));
          }
          if (bv.storage !== hv.storage) {
            parts.push(`storage version ${bv.storage ?? '(none)'} → ${hv.storage ?? '(none)'}`);
            summary.crds.storageChanged.push(`${o.name}: ${bv.storage ?? '(none)'} → ${hv.storage ?? '(none)'}`);
          }
          const schema = i.change.fields.filter((f) => f.path.includes('openAPIV3Schema')).length;
          if (schema) parts.push(`schema: ${schema} field change${schema === 1 ? '' : 's'}`);
          const other = i.change.fields.length - schema;
          if (other && parts.length === 0) parts.push(`${other} field change${other === 1 ? '' : 's'}`);
          i.change.impacts = [
            mk(
              `CRD ${o.name}: ${parts.join('; ')}`,
              removed.length || dropped.length
                ? `objects stored as ${[...removed, ...dropped].join(', ')} must be migrated first (clusterctl upgrade runs the storage version migration; Argo CD does not)`
                : undefined,
            ),
          ];
        }
        continue;
      }
      if (o.group === 'apps' && (o.kind === 'Deployment' || o.kind === 'DaemonSet' || o.kind === 'StatefulSet') && a === 'changed') {
        const bc = containers(i.base);
        const hc = containers(i.head);
        const parts: string[] = [];
        for (const c of hc) {
          const prev = bc.find((x) => x.name === c.name);
          if (!prev) continue;
          if (prev.image !== c.image) {
            summary.images.push({ container: c.name, object: o.name, ...(prev.image ? { from: prev.image } : {}), ...(c.image ? { to: c.image } : {}) });
            parts.push(`image ${prev.image ?? '(none)'} → ${c.image ?? '(none)'}`);
          }
          const before = flagMap(prev.args);
          const after = flagMap(c.args);
          const added = [...after.keys()].filter((k) => !before.has(k)).map((k) => (after.get(k) ? `${k}=${after.get(k)}` : k));
          const removed = [...before.keys()].filter((k) => !after.has(k)).map((k) => (before.get(k) ? `${k}=${before.get(k)}` : k));
          const changed = [...after.keys()]
            .filter((k) => before.has(k) && before.get(k) !== after.get(k))
            .map((k) => flagChange(k, before.get(k) ?? '', after.get(k) ?? ''));
          if (added.length || removed.length || changed.length) {
            summary.args.push({ object: o.name, container: c.name, added, removed, changed });
            const bits = [...added.map((x) => `added ${x}`), ...removed.map((x) => `removed ${x}`), ...changed.map((x) => (x.removed ? `${x.flag} ${[...x.removed.map((r) => `-${r}`), ...(x.added ?? []).map((a) => `+${a}`)].join(' ')}` : `${x.flag} ${x.from} → ${x.to}`))];
            parts.push(`flags: ${bits.join(', ')}`);
          }
        }
        i.change.impacts = [mk(`${o.kind} ${o.name} restarts${parts.length ? `: ${parts.join('; ')}` : ''}`)];
        continue;
      }
      if (a === 'added') i.change.impacts = [mk(`${o.kind} ${o.name} added`)];
      else if (a === 'removed') i.change.impacts = [mk(`${o.kind} ${o.name} removed (if Argo CD prunes)`)];
      else i.change.impacts = [mk(`${o.kind} ${o.name} updated in place`)];
    }
    // A provider that appears or disappears as a whole.
    if (!bInv && hInv) summary.impact = 'create';
    if (bInv && !hInv) summary.impact = 'deletion';
    out.push(summary);
  }
  return out;
}
